import { Injectable } from '@nestjs/common';
import { DomainError } from '../../infra/domain/domain-error';
import { WalletSignatureFailureCode, verifyWalletSignatureHeader } from '../crypto/wallet-signature';
import { WalletAccounts } from './wallet-accounts';
import { WalletSessions } from './wallet-sessions';

/** What the quotes context asks before executing from an EMBEDDED_WALLET source. */
export interface WalletQuoteSignatureInput {
  platformId: string;
  quote: { quoteId: string; walletAccountId: string; payloadToSign: string };
  header: string | string[] | undefined;
}

export type WalletQuoteSignatureResult = { ok: true } | { ok: false; code: WalletSignatureFailureCode; reason: string };

/**
 * The full check of `Service-Wallet-Signature` on `POST /quotes/{id}/execute` (SPEC.md
 * "Authentication" 6, sandbox rule 9): present, well formed, a valid P-256 signature over the
 * quote's stored payloadToSign, made with a key of a live (unexpired, unrevoked) session of the
 * source wallet. The quotes context calls it through its QUOTE_EXECUTION_SIGNATURE_VERIFIER port.
 */
@Injectable()
export class WalletQuoteSignatureVerifier {
  constructor(
    private readonly accounts: WalletAccounts,
    private readonly sessions: WalletSessions,
  ) {}

  async verify(input: WalletQuoteSignatureInput): Promise<WalletQuoteSignatureResult> {
    const verified = verifyWalletSignatureHeader(input.header, input.quote.payloadToSign, { sandbox: this.accounts.sandbox });
    if (!verified.ok) return { ok: false, code: verified.code, reason: verified.reason };
    try {
      await this.sessions.authorise(input.platformId, input.quote.walletAccountId, verified);
      return { ok: true };
    } catch (error) {
      if (error instanceof DomainError && error.code === 'WALLET_SIGNATURE_INVALID') {
        return { ok: false, code: 'WALLET_SIGNATURE_INVALID', reason: error.message };
      }
      throw error;
    }
  }
}
