import { QuoteExecutionSignatureVerifier } from '../../wallet-auth';

/**
 * Execute from an EMBEDDED_WALLET source is a signed action (SPEC.md "Authentication" 6): the
 * `Service-Wallet-Signature` header must be a signature over the quote's `payloadToSign` by a live
 * session key of that wallet. The embedded-wallet context owns that check (it knows the wallet's
 * sessions) and offers it as WalletQuoteSignatureVerifier; QuotesModule provides it under this
 * token, so tests can substitute it.
 */
export const QUOTE_EXECUTION_SIGNATURE_VERIFIER = Symbol('QUOTE_EXECUTION_SIGNATURE_VERIFIER');

export type { QuoteExecutionSignatureVerifier };
