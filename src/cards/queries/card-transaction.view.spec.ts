import { CardPull, CardTransactionEvent } from '../domain/card-transaction/card-transaction.events';
import { CARD_TRANSACTION_REDUCERS, CardTransactionRow, cardTransactionViewFromEvents } from './card-transaction.view';

const TX = 'CardTransaction:019a4a1c-2b3d-7e4f-8a5b-6c7d8e9f0a1b';
const ref = { transactionId: TX, platformId: 'Platform:p', cardId: 'Card:c' };
const ACCOUNT = 'InternalAccount:a';
const USD = { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 };
const cents = (amount: number) => ({ amount, currency: USD });
const T0 = '2025-11-03T14:30:00.000Z';
const at = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000).toISOString();
const AUTH_PULL: CardPull = { pullId: `${TX}:pull`, amountUnits: 1_000, status: 'PENDING' };

function authorized(overrides: Partial<Extract<CardTransactionEvent, { type: 'CardTransactionAuthorized' }>['data']> = {}): CardTransactionEvent {
  return {
    type: 'CardTransactionAuthorized',
    data: {
      ...ref,
      customerId: 'Customer:h',
      platformCustomerId: 'holder-1',
      issuerTransactionToken: 'token-1',
      kind: 'AUTHORIZATION',
      direction: 'DEBIT',
      merchant: { descriptor: 'BLUE BOTTLE COFFEE SF', mcc: '5814', country: 'US' },
      amountCents: 1_000,
      accountId: ACCOUNT,
      accountCurrency: 'USD',
      holdId: `${TX}:hold`,
      amountUnits: 1_000,
      pull: AUTH_PULL,
      pullScenario: 'CONFIRM',
      delegatedKeyId: null,
      authorizedAt: T0,
      ...overrides,
    },
  };
}

const confirmed = (minute: number): CardTransactionEvent => ({ type: 'CardPullConfirmed', data: { ...ref, pullId: AUTH_PULL.pullId, confirmedAt: at(minute) } });
const pullFailed = (minute: number): CardTransactionEvent => ({ type: 'CardPullFailed', data: { ...ref, pullId: AUTH_PULL.pullId, reason: 'SANDBOX', failedAt: at(minute) } });

function cleared(minute: number, amountCents: number, settled: boolean, more: { capturedUnits?: number; creditedUnits?: number; postHocPull?: CardPull } = {}): CardTransactionEvent {
  return {
    type: 'CardTransactionCleared',
    data: {
      ...ref,
      clearingId: `c${minute}`,
      issuerTransactionToken: `token-c${minute}`,
      amountCents,
      capturedUnits: more.capturedUnits ?? amountCents,
      creditedUnits: more.creditedUnits ?? 0,
      postHocPull: more.postHocPull ?? null,
      settled,
      clearedAt: at(minute),
    },
  };
}

const returned = (minute: number, amountCents: number): CardTransactionEvent => ({
  type: 'CardTransactionReturned',
  data: { ...ref, returnId: `r${minute}`, issuerTransactionToken: `token-r${minute}`, amountCents, creditedUnits: amountCents, returnedAt: at(minute) },
});

const reversed = (minute: number, returnMinute: number, amountCents: number, status: 'CONFIRMED' | 'FAILED'): CardTransactionEvent => ({
  type: 'CardReturnReversed',
  data: {
    ...ref,
    reversalId: `v${minute}`,
    returnId: `r${returnMinute}`,
    issuerTransactionToken: `token-v${minute}`,
    amountCents,
    pull: { pullId: `v${minute}`, amountUnits: amountCents, status },
    reversedAt: at(minute),
  },
});

const statusesOf = (events: CardTransactionEvent[]) => events.map((_, index) => cardTransactionViewFromEvents(events.slice(0, index + 1))?.status ?? null);
const viewOf = (events: CardTransactionEvent[]) => cardTransactionViewFromEvents(events)!;

describe('card transaction view', () => {
  it('an approved authorization is the reference CardTransaction, AUTHORIZED with one pending pull', () => {
    expect(viewOf([authorized()])).toEqual({
      type: 'CARD',
      id: TX,
      cardId: 'Card:c',
      customerId: 'Customer:h',
      platformCustomerId: 'holder-1',
      issuerTransactionToken: 'token-1',
      status: 'AUTHORIZED',
      direction: 'DEBIT',
      merchant: { descriptor: 'BLUE BOTTLE COFFEE SF', mcc: '5814', country: 'US' },
      authorizedAmount: cents(1_000),
      accountId: ACCOUNT,
      pullSummary: { count: 1, totalAmount: 1_000, pendingCount: 1 },
      refundSummary: { count: 0, totalAmount: 0 },
      settlementSummary: { count: 0, totalAmount: 0 },
      authorizedAt: T0,
      createdAt: T0,
      updatedAt: T0,
    });
  });

  it('a declined authorization and a balance inquiry show no transaction', () => {
    const declined: CardTransactionEvent = {
      type: 'CardAuthorizationDeclined',
      data: { ...ref, customerId: 'Customer:h', issuerTransactionToken: 't', kind: 'AUTHORIZATION', amountCents: 5, merchant: { descriptor: 'X' }, reason: 'CARD_PAUSED', declinedAt: T0 },
    };
    const inquiry: CardTransactionEvent = {
      type: 'CardBalanceInquiryAnswered',
      data: { ...ref, customerId: 'Customer:h', issuerTransactionToken: 't', merchant: { descriptor: 'X' }, availableCents: 10, answeredAt: T0 },
    };
    expect(cardTransactionViewFromEvents([declined])).toBeNull();
    expect(cardTransactionViewFromEvents([inquiry])).toBeNull();
    expect(cardTransactionViewFromEvents([])).toBeNull();
  });

  it('pull confirmed keeps AUTHORIZED; partial then final clearing: PARTIALLY_SETTLED, SETTLED', () => {
    const events = [authorized(), confirmed(1), cleared(2, 400, false), cleared(3, 600, true)];
    expect(statusesOf(events)).toEqual(['AUTHORIZED', 'AUTHORIZED', 'PARTIALLY_SETTLED', 'SETTLED']);
    expect(viewOf(events)).toMatchObject({
      settledAmount: cents(1_000),
      pullSummary: { count: 1, totalAmount: 1_000, pendingCount: 0 },
      settlementSummary: { count: 2, totalAmount: 1_000 },
      lastEventAt: at(3),
      updatedAt: at(3),
      createdAt: T0,
    });
    expect(viewOf(events)).not.toHaveProperty('refundedAmount');
  });

  it('a failed pull confirmation is EXCEPTION: the failed pull took nothing', () => {
    const events = [authorized(), pullFailed(1)];
    expect(statusesOf(events)).toEqual(['AUTHORIZED', 'EXCEPTION']);
    expect(viewOf(events).pullSummary).toEqual({ count: 1, totalAmount: 0, pendingCount: 0 });
  });

  it('an over-auth clearing pulls the rest post hoc: SETTLED when confirmed, EXCEPTION when it failed', () => {
    const postHoc = (status: 'CONFIRMED' | 'FAILED'): CardPull => ({ pullId: 'post', amountUnits: 250, status });
    const ok = [authorized(), confirmed(1), cleared(2, 1_250, true, { capturedUnits: 1_000, postHocPull: postHoc('CONFIRMED') })];
    expect(statusesOf(ok)).toEqual(['AUTHORIZED', 'AUTHORIZED', 'SETTLED']);
    expect(viewOf(ok)).toMatchObject({
      settledAmount: cents(1_250),
      pullSummary: { count: 2, totalAmount: 1_250, pendingCount: 0 },
      settlementSummary: { count: 1, totalAmount: 1_250 },
    });
    const short = [authorized(), confirmed(1), cleared(2, 1_250, true, { capturedUnits: 1_000, postHocPull: postHoc('FAILED') })];
    expect(statusesOf(short)).toEqual(['AUTHORIZED', 'AUTHORIZED', 'EXCEPTION']);
    expect(viewOf(short)).toMatchObject({ pullSummary: { count: 2, totalAmount: 1_000, pendingCount: 0 }, settlementSummary: { count: 1, totalAmount: 1_250 } });
  });

  it('an expiry (clearing of 0) closes it SETTLED, with no settled amount when nothing cleared', () => {
    const expired: CardTransactionEvent = { type: 'CardAuthorizationExpired', data: { ...ref, clearingId: 'e', issuerTransactionToken: 'te', releasedUnits: 1_000, expiredAt: at(5) } };
    const events = [authorized(), expired];
    expect(statusesOf(events)).toEqual(['AUTHORIZED', 'SETTLED']);
    expect(viewOf(events)).not.toHaveProperty('settledAmount');
    expect(viewOf(events)).toMatchObject({ settlementSummary: { count: 0, totalAmount: 0 }, lastEventAt: at(5) });
    const partial = [authorized(), cleared(1, 300, false), expired];
    expect(statusesOf(partial)).toEqual(['AUTHORIZED', 'PARTIALLY_SETTLED', 'SETTLED']);
    expect(viewOf(partial).settledAmount).toEqual(cents(300));
  });

  it('an advice re-sizes the authorized amount and keeps the status', () => {
    const resized: CardTransactionEvent = {
      type: 'CardAuthorizationResized',
      data: { ...ref, adviceId: 'a', issuerTransactionToken: 'ta', previousAmountCents: 1_000, amountCents: 1_500, heldUnits: 1_500, resizedAt: at(1) },
    };
    const events = [authorized(), resized];
    expect(statusesOf(events)).toEqual(['AUTHORIZED', 'AUTHORIZED']);
    expect(viewOf(events)).toMatchObject({ authorizedAmount: cents(1_500), updatedAt: at(1) });
  });

  it('returns: partial stays SETTLED, the whole net amount is REFUNDED; a reversal is SETTLED again or EXCEPTION', () => {
    const settled = [authorized(), confirmed(1), cleared(2, 1_000, true)];
    const partly = [...settled, returned(3, 400)];
    expect(statusesOf(partly).slice(3)).toEqual(['SETTLED']);
    expect(viewOf(partly)).toMatchObject({ refundedAmount: cents(400), refundSummary: { count: 1, totalAmount: 400 } });
    const fully = [...partly, returned(4, 600)];
    expect(statusesOf(fully).slice(3)).toEqual(['SETTLED', 'REFUNDED']);
    expect(viewOf(fully)).toMatchObject({ refundedAmount: cents(1_000), refundSummary: { count: 2, totalAmount: 1_000 } });

    const reversedOk = [...fully, reversed(5, 4, 600, 'CONFIRMED')];
    expect(statusesOf(reversedOk).slice(5)).toEqual(['SETTLED']);
    expect(viewOf(reversedOk)).toMatchObject({
      refundedAmount: cents(400),
      // What the merchant returned stays counted; taking it back was a pull.
      refundSummary: { count: 2, totalAmount: 1_000 },
      pullSummary: { count: 2, totalAmount: 1_600, pendingCount: 0 },
    });
    const reversedShort = [...fully, reversed(5, 4, 600, 'FAILED')];
    expect(statusesOf(reversedShort).slice(5)).toEqual(['EXCEPTION']);
    expect(viewOf(reversedShort).pullSummary).toEqual({ count: 2, totalAmount: 1_000, pendingCount: 0 });
  });

  it('a return on a PARTIALLY_SETTLED transaction keeps its status', () => {
    const events = [authorized(), cleared(1, 500, false), returned(2, 500)];
    expect(statusesOf(events)).toEqual(['AUTHORIZED', 'PARTIALLY_SETTLED', 'PARTIALLY_SETTLED']);
  });

  it('a single-message authorization: AUTHORIZED, then SETTLED by its clearing', () => {
    const events = [authorized({ kind: 'FINANCIAL_AUTHORIZATION', holdId: null, pull: { pullId: 'p', amountUnits: 1_000, status: 'CONFIRMED' } }), cleared(0, 1_000, true)];
    expect(statusesOf(events)).toEqual(['AUTHORIZED', 'SETTLED']);
    expect(viewOf(events)).toMatchObject({ settledAmount: cents(1_000), pullSummary: { count: 1, totalAmount: 1_000, pendingCount: 0 } });
  });

  it('a credit: no pull, the clearing credits the account; the merchant without mcc/country shows only its descriptor', () => {
    const events = [
      authorized({ kind: 'CREDIT_AUTHORIZATION', direction: 'CREDIT', holdId: null, pull: null, merchant: { descriptor: 'REFUND CO' } }),
      cleared(1, 1_000, true, { capturedUnits: 0, creditedUnits: 1_000 }),
    ];
    expect(statusesOf(events)).toEqual(['AUTHORIZED', 'SETTLED']);
    expect(viewOf(events)).toMatchObject({
      direction: 'CREDIT',
      merchant: { descriptor: 'REFUND CO' },
      pullSummary: { count: 0, totalAmount: 0, pendingCount: 0 },
      settlementSummary: { count: 1, totalAmount: 1_000 },
    });
  });

  it('a stablecoin account: amounts in cents, summaries in the account units', () => {
    const events = [authorized({ accountCurrency: 'USDC', amountUnits: 10_000_000, pull: { ...AUTH_PULL, amountUnits: 10_000_000 } }), cleared(1, 1_000, true, { capturedUnits: 10_000_000 })];
    expect(viewOf(events)).toMatchObject({
      authorizedAmount: cents(1_000),
      settledAmount: cents(1_000),
      pullSummary: { count: 1, totalAmount: 10_000_000, pendingCount: 1 },
      settlementSummary: { count: 1, totalAmount: 10_000_000 },
    });
  });

  it('the reducers fold the same rows as the view, and answer the same row when nothing changes', () => {
    const events = [authorized(), confirmed(1), cleared(2, 1_000, true), returned(3, 1_000)];
    let row: CardTransactionRow | null = null;
    for (const event of events) row = CARD_TRANSACTION_REDUCERS[event.type](row, event);
    expect(row).toEqual({ view: viewOf(events), visible: true, record: expect.objectContaining({ status: 'REFUNDED' }) });
    const declined = { type: 'CardAuthorizationDeclined', data: {} };
    expect(CARD_TRANSACTION_REDUCERS.CardAuthorizationDeclined(null, declined)).toBeNull();
  });
});
