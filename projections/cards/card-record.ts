import { CardEvent, CardForm, CardLifecycleState, CardStateReason } from '../../src/cards';

/**
 * The `cards` read model's own state of one card: what its GET view and the list filters show,
 * folded from the card's events. It is not the write side's state (which also keeps the issuer
 * scenario, for instance), so the write side can change its state without a read-model migration.
 */
export interface CardRecord {
  status: CardLifecycleState;
  cardId: string;
  platformId: string;
  cardholderId: string;
  platformCardId: string;
  form: CardForm;
  currency: string;
  fundingSources: string[];
  maxSpendPerTransaction: number | null;
  /** Why the card is CLOSED; null otherwise. */
  stateReason: CardStateReason | null;
  /** Known once the issuer issued the card. */
  last4: string | null;
  expMonth: number | null;
  expYear: number | null;
  createdAt: string;
  updatedAt: string;
}

/** Folds one event into the card's record; null while the card was never requested. */
export function evolveCardRecord(record: CardRecord | null, event: CardEvent): CardRecord | null {
  if (event.type === 'CardIssuanceRequested') return requestedCard(event.data);
  if (record === null) return null;
  switch (event.type) {
    case 'CardIssued': {
      const { last4, expMonth, expYear, issuedAt } = event.data;
      return { ...record, status: 'ACTIVE', last4, expMonth, expYear, updatedAt: issuedAt };
    }
    case 'CardIssuanceRejected':
      return { ...record, status: 'CLOSED', stateReason: event.data.reason, updatedAt: event.data.rejectedAt };
    case 'CardFrozen':
      return { ...record, status: 'FROZEN', updatedAt: event.data.frozenAt };
    case 'CardUnfrozen':
      return { ...record, status: 'ACTIVE', updatedAt: event.data.unfrozenAt };
    case 'CardClosed':
      return { ...record, status: 'CLOSED', stateReason: event.data.reason, updatedAt: event.data.closedAt };
    case 'CardFundingSourcesChanged':
      return { ...record, fundingSources: event.data.fundingSources, updatedAt: event.data.changedAt };
    case 'CardSpendLimitChanged':
      return { ...record, maxSpendPerTransaction: event.data.maxSpendPerTransaction, updatedAt: event.data.changedAt };
    case 'CardRevealed':
      // An audit record: the card shows nothing of it.
      return record;
  }
}

function requestedCard(data: Extract<CardEvent, { type: 'CardIssuanceRequested' }>['data']): CardRecord {
  return {
    status: 'PROCESSING',
    cardId: data.cardId,
    platformId: data.platformId,
    cardholderId: data.cardholderId,
    platformCardId: data.platformCardId,
    form: data.form,
    currency: data.currency,
    fundingSources: data.fundingSources,
    maxSpendPerTransaction: data.maxSpendPerTransaction,
    stateReason: null,
    last4: null,
    expMonth: null,
    expYear: null,
    createdAt: data.requestedAt,
    updatedAt: data.requestedAt,
  };
}
