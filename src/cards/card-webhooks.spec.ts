import { RecordedEvent } from '../infra/event-store/event-store.port';
import { cardFundingSourceWebhooks, cardTransactionWebhooks, cardWebhooks } from './card-webhooks';
import { cardTransactionViewFromEvents } from './queries/card-transaction.view';

const TX = 'CardTransaction:019a4a1c-2b3d-7e4f-8a5b-6c7d8e9f0a1b';
const ref = { transactionId: TX, platformId: 'Platform:p', cardId: 'Card:c' };
const T0 = '2025-11-03T14:30:00.000Z';
const at = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000).toISOString();

function recorded(streamName: string, events: Array<{ type: string; data: object }>): RecordedEvent[] {
  return events.map((event, revision) => ({
    ...event,
    id: `${streamName}-${revision}`,
    data: event.data as Record<string, unknown>,
    metadata: { correlationId: 'c', causationId: 'c', platformId: 'Platform:p', actor: 'spec' },
    streamName,
    revision,
    position: { commit: BigInt(revision + 1), prepare: BigInt(revision + 1) },
    createdAt: new Date(T0),
  }));
}

const authorized = {
  type: 'CardTransactionAuthorized',
  data: {
    ...ref,
    customerId: 'Customer:h',
    platformCustomerId: 'holder-1',
    issuerTransactionToken: 't1',
    kind: 'AUTHORIZATION',
    direction: 'DEBIT',
    merchant: { descriptor: 'SHOP' },
    amountCents: 1_000,
    accountId: 'InternalAccount:a',
    accountCurrency: 'USD',
    holdId: 'h',
    amountUnits: 1_000,
    pull: { pullId: 'p1', amountUnits: 1_000, status: 'PENDING' },
    pullScenario: 'FAIL',
    delegatedKeyId: null,
    authorizedAt: T0,
  },
};
const cleared = (minute: number, amountCents: number, settled: boolean) => ({
  type: 'CardTransactionCleared',
  data: { ...ref, clearingId: `c${minute}`, issuerTransactionToken: 't', amountCents, capturedUnits: amountCents, creditedUnits: 0, postHocPull: null, settled, clearedAt: at(minute) },
});
const returned = (minute: number, amountCents: number) => ({
  type: 'CardTransactionReturned',
  data: { ...ref, returnId: `r${minute}`, issuerTransactionToken: 't', amountCents, creditedUnits: amountCents, returnedAt: at(minute) },
});

/** Each event's webhooks, mapped from the stream up to it. */
const mappedPerEvent = (stream: RecordedEvent[]) => stream.map((_, index) => cardTransactionWebhooks(stream.slice(0, index + 1)));

describe('card transaction webhooks', () => {
  it('one CARD_TRANSACTION.<status> per status change, carrying the view right after the event', () => {
    const stream = recorded('cardTransaction-1', [
      authorized,
      { type: 'CardPullConfirmed', data: { ...ref, pullId: 'p1', confirmedAt: at(1) } },
      cleared(2, 400, false),
      cleared(3, 600, true),
      returned(4, 300),
      returned(5, 700),
      { type: 'CardReturnReversed', data: { ...ref, reversalId: 'v', returnId: 'r5', issuerTransactionToken: 't', amountCents: 700, pull: { pullId: 'v', amountUnits: 700, status: 'FAILED' }, reversedAt: at(6) } },
    ]);
    const viewAt = (revision: number) => cardTransactionViewFromEvents(stream.slice(0, revision + 1));
    expect(mappedPerEvent(stream)).toEqual([
      [{ type: 'CARD_TRANSACTION.AUTHORIZED', data: viewAt(0) }],
      [],
      [{ type: 'CARD_TRANSACTION.PARTIALLY_SETTLED', data: viewAt(2) }],
      [{ type: 'CARD_TRANSACTION.SETTLED', data: viewAt(3) }],
      [],
      [{ type: 'CARD_TRANSACTION.REFUNDED', data: viewAt(5) }],
      [{ type: 'CARD_TRANSACTION.EXCEPTION', data: viewAt(6) }],
    ]);
    expect(viewAt(5)).toMatchObject({ status: 'REFUNDED', refundedAmount: { amount: 1_000 } });
  });

  it('a failed pull confirmation is CARD_TRANSACTION.EXCEPTION', () => {
    const stream = recorded('cardTransaction-2', [authorized, { type: 'CardPullFailed', data: { ...ref, pullId: 'p1', reason: 'SANDBOX_PULL_FAILED', failedAt: at(1) } }]);
    expect(mappedPerEvent(stream).map((drafts) => drafts.map((draft) => draft.type))).toEqual([['CARD_TRANSACTION.AUTHORIZED'], ['CARD_TRANSACTION.EXCEPTION']]);
  });

  it('a declined authorization sends none', () => {
    const declined = recorded('cardTransaction-3', [
      { type: 'CardAuthorizationDeclined', data: { ...ref, customerId: 'Customer:h', issuerTransactionToken: 't', kind: 'AUTHORIZATION', amountCents: 1, merchant: { descriptor: 'X' }, reason: 'CARD_PAUSED', declinedAt: T0 } },
    ]);
    expect(cardTransactionWebhooks(declined)).toEqual([]);
  });
});

describe('CARD.FUNDING_SOURCE_CHANGE', () => {
  const card = { cardId: 'Card:c', platformId: 'Platform:p' };
  const stream = recorded('card-1', [
    {
      type: 'CardIssuanceRequested',
      data: {
        ...card, cardholderId: 'Customer:h', platformCardId: 'pc-1', form: 'VIRTUAL', currency: 'USD', fundingSources: ['InternalAccount:a'],
        maxSpendPerTransaction: null, issuerScenario: 'ISSUE', requestedAt: T0,
      },
    },
    { type: 'CardIssued', data: { ...card, last4: '4242', expMonth: 11, expYear: 2028, issuedAt: at(1) } },
    { type: 'CardFundingSourcesChanged', data: { ...card, previousFundingSources: ['InternalAccount:a'], fundingSources: ['InternalAccount:b', 'InternalAccount:a'], changedAt: at(2) } },
  ]);

  it('the card after the change, with its new funding sources; not a state change', () => {
    expect(cardFundingSourceWebhooks(stream[2], stream)).toEqual([{ type: 'CARD.FUNDING_SOURCE_CHANGE', data: expect.objectContaining({ id: 'Card:c', fundingSources: ['InternalAccount:b', 'InternalAccount:a'], updatedAt: at(2) }) }]);
    expect(cardWebhooks(stream[2], stream)).toEqual([]);
    expect(cardFundingSourceWebhooks(stream[1], stream.slice(0, 2))).toEqual([]);
  });
});
