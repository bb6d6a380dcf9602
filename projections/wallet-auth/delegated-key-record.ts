import { CardEvent } from '../../src/cards';
import { DelegatedKeyEvent, DelegatedKeyStatus } from '../../src/wallet-auth';

/**
 * The `wallet-delegated-keys` read model's own records: a delegated key as its GET view shows it,
 * and a card as the delegated-key flows need it (its state and funding accounts), folded from the
 * cards context's events. Neither is a write side's state.
 */
export interface DelegatedKeyRecord {
  delegatedKeyId: string;
  platformId: string;
  cardId: string;
  fundingSourceId: string;
  accountId: string;
  publicKey: string;
  nickname: string;
  status: DelegatedKeyStatus;
  createdAt: string;
  updatedAt: string;
}

/** Folds one event into a key's record; null while the key was never created. */
export function evolveDelegatedKeyRecord(record: DelegatedKeyRecord | null, event: DelegatedKeyEvent): DelegatedKeyRecord | null {
  switch (event.type) {
    case 'DelegatedKeyCreated': {
      const { delegatedKeyId, platformId, cardId, fundingSourceId, accountId, publicKey, nickname, createdAt } = event.data;
      return { delegatedKeyId, platformId, cardId, fundingSourceId, accountId, publicKey, nickname, status: 'PENDING', createdAt, updatedAt: createdAt };
    }
    case 'DelegatedKeyActivated':
      return record && { ...record, status: 'ACTIVE', updatedAt: event.data.activatedAt };
    case 'DelegatedKeyRevoked':
      return record && { ...record, status: 'REVOKED', updatedAt: event.data.revokedAt };
  }
}

export interface CardFundingRecord {
  platformId: string;
  cardId: string;
  /** The card's lifecycle state (PROCESSING, ACTIVE, FROZEN, CLOSED). */
  state: string;
  fundingSources: string[];
}

/** The card events that move its state or its funding sources (the spend limit is not needed here). */
export const CARD_FUNDING_EVENT_TYPES: CardEvent['type'][] = [
  'CardIssuanceRequested',
  'CardIssued',
  'CardIssuanceRejected',
  'CardFrozen',
  'CardUnfrozen',
  'CardClosed',
  'CardFundingSourcesChanged',
];

/** Folds one card event into the card's funding record; null while the card was never requested. */
export function evolveCardFundingRecord(record: CardFundingRecord | null, event: CardEvent): CardFundingRecord | null {
  if (event.type === 'CardIssuanceRequested') {
    return { platformId: event.data.platformId, cardId: event.data.cardId, state: 'PROCESSING', fundingSources: [...event.data.fundingSources] };
  }
  if (record === null) return null;
  switch (event.type) {
    case 'CardIssued':
    case 'CardUnfrozen':
      return { ...record, state: 'ACTIVE' };
    case 'CardFrozen':
      return { ...record, state: 'FROZEN' };
    case 'CardIssuanceRejected':
    case 'CardClosed':
      return { ...record, state: 'CLOSED' };
    case 'CardFundingSourcesChanged':
      return { ...record, fundingSources: [...event.data.fundingSources] };
    default:
      return record;
  }
}
