import { Injectable } from '@nestjs/common';
import { DomainError } from '../../infra/domain/domain-error';
import { VerifiedWalletSignature, WalletSignatureFailureCode, verifyWalletSignatureHeader } from '../crypto/wallet-signature';
import { DelegatedKeySigner } from './delegated-key-signer';
import { WalletAccounts } from './wallet-accounts';
import { WalletSessions } from './wallet-sessions';

/** What the quotes context asks before executing a quote funded from an embedded wallet. */
export interface QuoteSignatureInput {
  platformId: string;
  quote: {
    quoteId: string;
    /** The EMBEDDED_WALLET internal account the quote spends from. */
    walletAccountId: string;
    /** The exact text stored on the quote (paymentInstructions[].accountOrWalletInfo.payloadToSign). */
    payloadToSign: string;
    /**
     * A card payment's quote (issue 27): the card it pays for. The ACTIVE delegated key of that
     * card's funding by this wallet may then sign in place of a session key; for any other quote,
     * a delegated key signs nothing.
     */
    cardId?: string | null;
  };
  /** The header as received (absent, one value, or repeated). */
  header: string | string[] | undefined;
}

export type QuoteSignatureResult = { ok: true } | { ok: false; code: WalletSignatureFailureCode; reason: string };

export interface QuoteExecutionSignatureVerifier {
  verify(input: QuoteSignatureInput): Promise<QuoteSignatureResult>;
}

/**
 * The full check of `Service-Wallet-Signature` on `POST /quotes/{id}/execute` (SPEC.md
 * "Authentication" 6, sandbox rule 9): present, well formed, a valid P-256 signature over the
 * quote's stored payloadToSign, made with a key of a live (unexpired, unrevoked) session of the
 * source wallet, or, for a card payment's quote only, with the card funding source's ACTIVE
 * delegated key. QuotesModule provides it for its QUOTE_EXECUTION_SIGNATURE_VERIFIER port.
 */
@Injectable()
export class WalletQuoteSignatureVerifier implements QuoteExecutionSignatureVerifier {
  constructor(
    private readonly accounts: WalletAccounts,
    private readonly sessions: WalletSessions,
    private readonly delegatedKeys: DelegatedKeySigner,
  ) {}

  async verify(input: QuoteSignatureInput): Promise<QuoteSignatureResult> {
    const verified = verifyWalletSignatureHeader(input.header, input.quote.payloadToSign, { sandbox: this.accounts.sandbox });
    if (!verified.ok) return { ok: false, code: verified.code, reason: verified.reason };
    try {
      await this.sessions.authorise(input.platformId, input.quote.walletAccountId, verified);
      return { ok: true };
    } catch (error) {
      if (!(error instanceof DomainError && error.code === 'WALLET_SIGNATURE_INVALID')) throw error;
      // Session keys first: a card payment signed by a session costs no delegated-key read.
      if (await this.signedByCardDelegatedKey(input, verified)) return { ok: true };
      return { ok: false, code: 'WALLET_SIGNATURE_INVALID', reason: error.message };
    }
  }

  private async signedByCardDelegatedKey({ platformId, quote }: QuoteSignatureInput, verified: VerifiedWalletSignature): Promise<boolean> {
    if (!quote.cardId || verified.publicKeyCompressedHex === null) return false;
    return this.delegatedKeys.isActiveSigner(platformId, quote.cardId, quote.walletAccountId, verified.publicKeyCompressedHex);
  }
}
