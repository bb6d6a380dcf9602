import { Injectable } from '@nestjs/common';
import { cardFundingSourceId } from '../domain/delegated-key/delegated-key.ids';
import { DelegatedKeyScope } from '../domain/delegated-key/delegated-key.events';
import { cardFundingSourceNotFound, delegatedKeyCardNotFound, fieldError } from '../domain/wallet-auth.errors';
import { DelegatedKeysQuery } from '../queries/delegated-keys.query';
import { WalletAccounts } from './wallet-accounts';

/**
 * What a delegated key is for: a card, one of its funding accounts, and that account an embedded
 * wallet. The cards come from this context's read model of card events, not from the cards
 * context, which may then call this one (card payments stamp with the key) without a cycle.
 */
@Injectable()
export class CardFundingScopes {
  constructor(
    private readonly query: DelegatedKeysQuery,
    private readonly accounts: WalletAccounts,
  ) {}

  /**
   * `POST /auth/delegated-keys`: an unknown card (or another platform's) and an account that does
   * not fund it are 404; a CLOSED card and an account that is no embedded wallet, 400 on the field.
   */
  async require(platformId: string, cardId: string, accountId: string): Promise<DelegatedKeyScope> {
    const card = await this.query.cardFunding(platformId, cardId);
    if (!card) throw delegatedKeyCardNotFound();
    if (!card.fundingSources.includes(accountId)) throw cardFundingSourceNotFound();
    if (card.state === 'CLOSED') throw fieldError('cardId', {}, `${cardId} is CLOSED: a closed card makes no payment for a delegated key to sign`);
    await this.accounts.requireWallet(platformId, accountId, 'internalAccountId');
    return { platformId, cardId, fundingSourceId: cardFundingSourceId(cardId, accountId), accountId };
  }

  /** A key signs for its binding only while it stands: the card not CLOSED and still funded by the wallet. */
  async isBound(platformId: string, cardId: string, accountId: string): Promise<boolean> {
    const card = await this.query.cardFunding(platformId, cardId);
    return card !== null && card.state !== 'CLOSED' && card.fundingSources.includes(accountId);
  }
}
