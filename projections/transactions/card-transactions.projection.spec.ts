import { GivenEvent, projectionSpec, ProjectionSpec } from '../../test/support/projection-spec';
import { transactionsProjection } from './transactions.projection';

/** Card transactions in the `transactions` read model, next to the payments (transactions.projection.spec.ts). */
const PLATFORM = 'Platform:0199a000-0000-7000-8000-0000000000p1';
const CUSTOMER = 'Customer:0199a000-0000-7000-8000-0000000000c1';
const ACCOUNT = 'InternalAccount:0199a000-0000-7000-8000-0000000000a1';
const DEBIT_TX = 'CardTransaction:0199a000-0000-7000-8000-0000000000d1';
const CREDIT_TX = 'CardTransaction:0199a000-0000-7000-8000-0000000000d2';
const USD = { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 };
const T0 = '2025-11-03T14:30:00.000Z';
const T1 = '2025-11-03T14:31:00.000Z';
const T2 = '2025-11-03T14:32:00.000Z';

const streamOf = (transactionId: string) => `cardTransaction-${transactionId.slice('CardTransaction:'.length)}`;
const refOf = (transactionId: string) => ({ transactionId, platformId: PLATFORM, cardId: 'Card:0199a000-0000-7000-8000-0000000000e1' });

function authorized(transactionId: string, direction: 'DEBIT' | 'CREDIT'): GivenEvent {
  return {
    stream: streamOf(transactionId),
    type: 'CardTransactionAuthorized',
    data: {
      ...refOf(transactionId),
      customerId: CUSTOMER,
      platformCustomerId: 'holder-1',
      issuerTransactionToken: `token-${direction}`,
      kind: direction === 'DEBIT' ? 'AUTHORIZATION' : 'CREDIT_AUTHORIZATION',
      direction,
      merchant: { descriptor: 'BLUE BOTTLE COFFEE SF', mcc: '5814', country: 'US' },
      amountCents: 1_000,
      accountId: ACCOUNT,
      accountCurrency: 'USD',
      holdId: direction === 'DEBIT' ? `${transactionId}:hold` : null,
      amountUnits: 1_000,
      pull: direction === 'DEBIT' ? { pullId: `${transactionId}:pull`, amountUnits: 1_000, status: 'PENDING' } : null,
      pullScenario: 'CONFIRM',
      delegatedKeyId: null,
      authorizedAt: T0,
    },
  };
}

const pullConfirmed = (transactionId: string): GivenEvent => ({
  stream: streamOf(transactionId),
  type: 'CardPullConfirmed',
  data: { ...refOf(transactionId), pullId: `${transactionId}:pull`, confirmedAt: T1 },
});

const cleared = (transactionId: string, credit: boolean): GivenEvent => ({
  stream: streamOf(transactionId),
  type: 'CardTransactionCleared',
  data: {
    ...refOf(transactionId),
    clearingId: 'c1',
    issuerTransactionToken: 'token-c1',
    amountCents: 1_000,
    capturedUnits: credit ? 0 : 1_000,
    creditedUnits: credit ? 1_000 : 0,
    postHocPull: null,
    settled: true,
    clearedAt: T2,
  },
});

const COLUMNS = `SELECT transaction_id, customer_id, platform_customer_id, type, status, source_account_id, destination_account_id, quote_id, reference,
  visible, view::json AS view, record IS NOT NULL AS has_record, created_at, updated_at FROM transactions ORDER BY transaction_id`;

describe('transactions projection: card transactions', () => {
  let spec: ProjectionSpec;
  beforeEach(async () => {
    spec = await projectionSpec(transactionsProjection);
  });
  afterEach(async () => {
    await spec.close();
  });

  it('a DEBIT is a CARD row of the cardholder from its account; a CREDIT is one to its account; the view is the CardTransaction', async () => {
    await spec.given([authorized(DEBIT_TX, 'DEBIT'), pullConfirmed(DEBIT_TX), cleared(DEBIT_TX, false), authorized(CREDIT_TX, 'CREDIT')]);
    const rows = await spec.rows(COLUMNS);
    const common = { customer_id: CUSTOMER, platform_customer_id: 'holder-1', type: 'CARD', quote_id: null, reference: null, visible: true, has_record: true, created_at: new Date(T0) };
    expect(rows).toEqual([
      { ...common, transaction_id: DEBIT_TX, status: 'SETTLED', source_account_id: ACCOUNT, destination_account_id: null, view: expect.any(Object), updated_at: new Date(T2) },
      { ...common, transaction_id: CREDIT_TX, status: 'AUTHORIZED', source_account_id: null, destination_account_id: ACCOUNT, view: expect.any(Object), updated_at: new Date(T0) },
    ]);
    expect(rows[0].view).toEqual({
      type: 'CARD',
      id: DEBIT_TX,
      cardId: 'Card:0199a000-0000-7000-8000-0000000000e1',
      customerId: CUSTOMER,
      platformCustomerId: 'holder-1',
      issuerTransactionToken: 'token-DEBIT',
      status: 'SETTLED',
      direction: 'DEBIT',
      merchant: { descriptor: 'BLUE BOTTLE COFFEE SF', mcc: '5814', country: 'US' },
      authorizedAmount: { amount: 1_000, currency: USD },
      settledAmount: { amount: 1_000, currency: USD },
      accountId: ACCOUNT,
      pullSummary: { count: 1, totalAmount: 1_000, pendingCount: 0 },
      refundSummary: { count: 0, totalAmount: 0 },
      settlementSummary: { count: 1, totalAmount: 1_000 },
      authorizedAt: T0,
      lastEventAt: T2,
      createdAt: T0,
      updatedAt: T2,
    });
  });

  it('a declined authorization or a balance inquiry writes no row', async () => {
    const ref = refOf(DEBIT_TX);
    await spec.given([
      {
        stream: streamOf(DEBIT_TX),
        type: 'CardAuthorizationDeclined',
        data: { ...ref, customerId: CUSTOMER, issuerTransactionToken: 't', kind: 'AUTHORIZATION', amountCents: 5, merchant: { descriptor: 'X' }, reason: 'CARD_PAUSED', declinedAt: T0 },
      },
      {
        stream: streamOf(CREDIT_TX),
        type: 'CardBalanceInquiryAnswered',
        data: { ...refOf(CREDIT_TX), customerId: CUSTOMER, issuerTransactionToken: 't', merchant: { descriptor: 'X' }, availableCents: 10, answeredAt: T0 },
      },
    ]);
    expect(await spec.rows('SELECT transaction_id FROM transactions')).toEqual([]);
  });

  it('a gap in the stream folds on from the record stored in the table: the same row as without it', async () => {
    // As a rebuild or a restart meets it: the row after the previous revision is not remembered.
    const unread: GivenEvent = { stream: streamOf(CREDIT_TX), type: 'SomethingElseHappened', data: refOf(CREDIT_TX) };
    const retarget = (event: GivenEvent): GivenEvent => ({ ...event, stream: streamOf(CREDIT_TX), data: { ...event.data, transactionId: CREDIT_TX } });
    await spec.given([authorized(DEBIT_TX, 'DEBIT'), pullConfirmed(DEBIT_TX), cleared(DEBIT_TX, false)]);
    await spec.given([retarget(authorized(DEBIT_TX, 'DEBIT')), unread, retarget(pullConfirmed(DEBIT_TX)), unread, retarget(cleared(DEBIT_TX, false))]);
    const rows = await spec.rows<{ transaction_id: string; view: Record<string, unknown>; record: Record<string, unknown> }>(
      `SELECT transaction_id, view::json AS view, record::json AS record FROM transactions ORDER BY transaction_id`,
    );
    expect(rows[1]).toEqual({ transaction_id: CREDIT_TX, view: { ...rows[0].view, id: CREDIT_TX }, record: { ...rows[0].record, transactionId: CREDIT_TX } });
    expect(rows[1].view).toEqual(expect.objectContaining({ status: 'SETTLED', pullSummary: { count: 1, totalAmount: 1_000, pendingCount: 0 } }));
  });
});
