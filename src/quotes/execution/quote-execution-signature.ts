import { WalletSignatureFailureCode, verifyWalletSignatureHeader } from '../../wallet-auth/crypto/wallet-signature';

/**
 * Execute from an EMBEDDED_WALLET source is a signed action (SPEC.md "Authentication" 6): the
 * `Service-Wallet-Signature` header must be a signature over the quote's `payloadToSign` by a live
 * session key of that wallet. This port is how the quotes context asks; the embedded-wallet
 * context (issue 7) provides the full implementation (it knows the wallet's sessions) by
 * replacing the provider of QUOTE_EXECUTION_SIGNATURE_VERIFIER in QuotesModule.
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

/**
 * The default until the embedded-wallet context lands: the header must be present, well formed,
 * and a valid P-256 signature over `payloadToSign` (or the sandbox literal in sandbox mode), so
 * WALLET_SIGNATURE_MISSING / _MALFORMED / _INVALID already behave. It does NOT check that the key
 * belongs to a live session of the wallet: that is the embedded-wallet engineer's provider.
 */
export class SignatureOnlyQuoteVerifier implements QuoteExecutionSignatureVerifier {
  constructor(private readonly sandbox: boolean) {}

  async verify(input: QuoteSignatureInput): Promise<QuoteSignatureResult> {
    const result = verifyWalletSignatureHeader(input.header, input.quote.payloadToSign, { sandbox: this.sandbox });
    return result.ok ? { ok: true } : { ok: false, code: result.code, reason: result.reason };
  }
}
