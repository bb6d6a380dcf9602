import { uuidv7From, uuidv7Millis } from '../../../infra/ids';

/**
 * The id of the binding of a card to one of its funding accounts, `CardFundingSource:<uuid v7>`:
 * a function of the pair (the reference finds "the card funding-source binding" from `cardId` and
 * `internalAccountId`), timed at the card's creation. The cards context lists funding sources as
 * account ids only, so the binding needs no stored id: the same pair always names it.
 */
export function cardFundingSourceId(cardId: string, accountId: string): string {
  return `CardFundingSource:${uuidv7From(`card-funding-source:${cardId}:${accountId}`, uuidv7Millis(cardId) ?? 0)}`;
}

/**
 * A delegated key's id, fixed by the first call's Request-Id: the key pair is generated (and
 * sealed under this id) on the first call, the key is recorded on the first signed retry.
 */
export function delegatedKeyIdFor(creationRequestId: string): string {
  return `DelegatedKey:${uuidv7From(`delegated-key:${creationRequestId}`, uuidv7Millis(creationRequestId) ?? 0)}`;
}
