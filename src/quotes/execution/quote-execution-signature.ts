import { WalletSignatureFailureCode } from '../../wallet-auth/crypto/wallet-signature';

/**
 * Execute from an EMBEDDED_WALLET source is a signed action (SPEC.md "Authentication" 6): the
 * `Service-Wallet-Signature` header must be a signature over the quote's `payloadToSign` by a live
 * session key of that wallet. This port is how the quotes context asks; the embedded-wallet
 * context implements it (it knows the wallet's sessions): WalletQuoteSignatureVerifier, wired
 * in QuotesModule.
 */
export const QUOTE_EXECUTION_SIGNATURE_VERIFIER = Symbol('QUOTE_EXECUTION_SIGNATURE_VERIFIER');

export interface QuoteSignatureInput {
  platformId: string;
  quote: {
    quoteId: string;
    /** The EMBEDDED_WALLET internal account the quote spends from. */
    walletAccountId: string;
    /** The exact text stored on the quote (paymentInstructions[].accountOrWalletInfo.payloadToSign). */
    payloadToSign: string;
  };
  /** The header as received (absent, one value, or repeated). */
  header: string | string[] | undefined;
}

export type QuoteSignatureResult = { ok: true } | { ok: false; code: WalletSignatureFailureCode; reason: string };

export interface QuoteExecutionSignatureVerifier {
  verify(input: QuoteSignatureInput): Promise<QuoteSignatureResult>;
}
