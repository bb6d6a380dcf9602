import { Inject, Injectable } from '@nestjs/common';
import { KEY_VAULT, KeyVault } from '../../infra/crypto/key-vault';
import { stampWithCustodiedKey } from '../crypto/custodied-key';
import { DelegatedKeyRecord } from '../domain/delegated-key/delegated-key.decider';
import { cardFundingSourceId } from '../domain/delegated-key/delegated-key.ids';
import { vaultIds } from '../wallet-auth.constants';
import { CardFundingScopes } from './card-funding-scopes';
import { WalletAuthStore } from './wallet-auth.store';

/** A card payment to sign for the embedded wallet that funds the card. */
export interface CardPaymentStampInput {
  platformId: string;
  cardId: string;
  /** The EMBEDDED_WALLET internal account funding the card. */
  accountId: string;
  /** The exact text to sign (a card payment quote's payloadToSign). */
  payloadToSign: string;
}

export type DelegatedStamp = { ok: true; delegatedKeyId: string; signature: string } | { ok: false; reason: string };

/**
 * The service's side of delegated keys: "the custodied key authorizes signing for the card's
 * Embedded Wallet funding account in place of a session keypair". Card payments (issue 27) ask
 * `stamp` for a `Service-Wallet-Signature` over their payload; the quote signature check asks
 * `isActiveSigner` whether a stamp's key is the one the card's funding source delegated to. Both
 * need the binding to stand (card not CLOSED, still funded by the wallet) and the key ACTIVE, read
 * from the funding source's stream on every call (never cached): a revoked key signs nothing
 * from the next request on, in every process.
 */
@Injectable()
export class DelegatedKeySigner {
  constructor(
    private readonly store: WalletAuthStore,
    private readonly scopes: CardFundingScopes,
    @Inject(KEY_VAULT) private readonly vault: KeyVault,
  ) {}

  async stamp(input: CardPaymentStampInput): Promise<DelegatedStamp> {
    const key = await this.activeKey(input.platformId, input.cardId, input.accountId);
    if (!key.ok) return key;
    const privateScalar = await this.vault.open(vaultIds.delegatedKey(key.record.delegatedKeyId));
    if (!privateScalar) return { ok: false, reason: 'The delegated key material is no longer held' };
    return { ok: true, delegatedKeyId: key.record.delegatedKeyId, signature: stampWithCustodiedKey(input.payloadToSign, privateScalar) };
  }

  /** Whether `publicKeyCompressedHex` is the ACTIVE delegated key of this card's funding by this wallet. */
  async isActiveSigner(platformId: string, cardId: string, accountId: string, publicKeyCompressedHex: string): Promise<boolean> {
    const key = await this.activeKey(platformId, cardId, accountId);
    return key.ok && key.record.publicKey === publicKeyCompressedHex;
  }

  private async activeKey(platformId: string, cardId: string, accountId: string): Promise<{ ok: true; record: DelegatedKeyRecord } | { ok: false; reason: string }> {
    if (!(await this.scopes.isBound(platformId, cardId, accountId))) {
      return { ok: false, reason: 'The card is CLOSED or not funded by this wallet: no delegated key signs for it' };
    }
    const state = await this.store.loadFundingSourceKeys(cardFundingSourceId(cardId, accountId));
    const record = state.activeKeyId === null ? undefined : state.keys[state.activeKeyId];
    if (!record || record.platformId !== platformId) return { ok: false, reason: 'The card funding source has no ACTIVE delegated key' };
    return { ok: true, record };
  }
}
