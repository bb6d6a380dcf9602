import { QuoteEvent, QuoteScaChallenge } from '../../src/quotes';
import {
  ACCOUNT, CREATED_AT, CUSTOMER, EXPIRES_AT, EXTERNAL, OTHER_PLATFORM, PLATFORM, QUOTE, QUOTE_STREAM, QUOTE_TRANSACTION, T1, T2, T3, quoteRef, quoteTerms,
} from '../quote-events.fixture';
import { GivenEvent, projectionSpec, ProjectionSpec } from '../../test/support/projection-spec';
import { QuoteRow, evolveQuoteRow } from './quote-row';
import { quotesProjection } from './quotes.projection';

const TRANSACTION = QUOTE_TRANSACTION;
const stream = QUOTE_STREAM;
const T4 = '2025-10-13T09:50:00.000Z';
const ref = quoteRef;
const terms = quoteTerms;

const created: GivenEvent = { stream, type: 'QuoteCreated', data: terms };
const executionRequested: GivenEvent = {
  stream,
  type: 'QuoteExecutionRequested',
  data: { ...ref, attempt: 1, holdId: 'hold-1', sourceAccountId: ACCOUNT, amount: 100_000, scaFactor: null, requestedAt: T1 },
};
const executionRejected: GivenEvent = {
  stream,
  type: 'QuoteExecutionRejected',
  data: { ...ref, attempt: 1, holdId: 'hold-1', reason: 'INSUFFICIENT_FUNDS', rejectedAt: T1 },
};
const fundsHeld: GivenEvent = { stream, type: 'QuoteFundsHeld', data: { ...ref, attempt: 1, holdId: 'hold-1', heldAt: T1 } };
const completed: GivenEvent = { stream, type: 'QuoteCompleted', data: { ...ref, step: 0, completedAt: T2 } };
const returned: GivenEvent = {
  stream,
  type: 'QuoteFailed',
  data: {
    ...ref, step: 1, failureReason: 'PAYOUT_RETURNED', failedAt: T3,
    refund: { reference: `${TRANSACTION}:refund`, initiatedAt: T3, settledAt: T3, status: 'COMPLETED', reason: 'PAYOUT_RETURNED' },
  },
};

const challenge = (id: string, purpose: string): QuoteScaChallenge => ({
  id, expiresAt: '2025-10-13T09:36:00.000Z', factor: 'SMS_OTP', availableFactors: ['SMS_OTP'], purpose,
});
const firstChallenge = challenge('ScaChallenge:0199a000-0000-7000-8000-000000000c01', 'CURRENCY_CONVERSION');
const secondChallenge = challenge('ScaChallenge:0199a000-0000-7000-8000-000000000c02', 'PAYOUT');
const authorizationRequested: GivenEvent = {
  stream,
  type: 'QuoteAuthorizationRequested',
  data: { ...ref, sequenceId: 's1', scaFactor: 'SMS_OTP', scaChallenge: firstChallenge, scaPlan: { sequenceId: 's1' }, requestedAt: T1 },
};
const challengeIssued: GivenEvent = { stream, type: 'QuoteScaChallengeIssued', data: { ...ref, sequenceId: 's1', scaChallenge: secondChallenge, issuedAt: T2 } };

const STATE = 'SELECT status, sca_challenge::json AS sca_challenge, updated_at FROM quotes';

describe('quotes projection', () => {
  let spec: ProjectionSpec;
  beforeEach(async () => {
    spec = await projectionSpec(quotesProjection);
  });
  afterEach(async () => {
    await spec.close();
  });

  it('a created quote is one PENDING row: its keys, list columns and the GET view as created', async () => {
    await spec.given([created]);
    const rows = await spec.rows(
      'SELECT platform_id, quote_id, transaction_id, customer_id, status, view::json AS view, sca_challenge, created_at, updated_at FROM quotes',
    );
    expect(rows).toEqual([
      {
        platform_id: PLATFORM,
        quote_id: QUOTE,
        transaction_id: TRANSACTION,
        customer_id: CUSTOMER,
        status: 'PENDING',
        view: {
          id: QUOTE,
          status: 'PENDING',
          createdAt: CREATED_AT,
          expiresAt: EXPIRES_AT,
          source: { sourceType: 'ACCOUNT', accountId: ACCOUNT, customerId: CUSTOMER },
          destination: { destinationType: 'ACCOUNT', accountId: EXTERNAL, paymentRail: 'SEPA_INSTANT' },
          sendingCurrency: { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 },
          receivingCurrency: { code: 'EUR', name: 'Euro', symbol: '€', decimals: 2 },
          totalSendingAmount: 100_000,
          totalReceivingAmount: 85_982,
          exchangeRate: 1.16,
          feesIncluded: 260,
          platformFeesIncluded: 150,
          transactionId: TRANSACTION,
          rateDetails: terms.rateDetails,
          description: 'November rent',
        },
        sca_challenge: null,
        created_at: new Date(CREATED_AT),
        updated_at: new Date(CREATED_AT),
      },
    ]);
  });

  it('funds held, completion and a return move the status, updated_at following each event; the stored view stays as created', async () => {
    await spec.given([created, executionRequested, fundsHeld]);
    expect(await spec.rows(STATE)).toEqual([{ status: 'PROCESSING', sca_challenge: null, updated_at: new Date(T1) }]);
    await spec.given([completed]);
    expect(await spec.rows(STATE)).toEqual([{ status: 'COMPLETED', sca_challenge: null, updated_at: new Date(T2) }]);
    await spec.given([returned]);
    expect(await spec.rows(`SELECT status, updated_at, view::json->>'status' AS view_status, created_at FROM quotes`)).toEqual([
      { status: 'FAILED', updated_at: new Date(T3), view_status: 'PENDING', created_at: new Date(CREATED_AT) },
    ]);
  });

  it('ignores execute attempts that change no shown status, a replayed creation and events for a quote it never saw created', async () => {
    const otherQuote = { quoteId: 'Quote:0199a000-0000-7000-8000-0000000000d9', transactionId: 'Transaction:0199a000-0000-7000-8000-0000000000e9', platformId: PLATFORM };
    await spec.given([
      created,
      executionRequested,
      executionRejected,
      { stream, type: 'QuoteCreated', data: { ...terms, description: 'replayed' } },
      { stream: 'quote-0199a000-0000-7000-8000-0000000000d9', type: 'QuoteFundsHeld', data: { ...otherQuote, attempt: 1, holdId: 'h', heldAt: T1 } },
      { stream: 'quote-0199a000-0000-7000-8000-0000000000d9', type: 'QuoteExpired', data: { ...otherQuote, expiredAt: T4 } },
    ]);
    expect(await spec.rows(`SELECT quote_id, status, updated_at, view::json->>'description' AS description FROM quotes`)).toEqual([
      { quote_id: QUOTE, status: 'PENDING', updated_at: new Date(CREATED_AT), description: 'November rent' },
    ]);
  });

  it('SCA: the challenge is kept while PENDING_AUTHORIZATION, replaced by the next one and cleared on release', async () => {
    await spec.given([created, authorizationRequested]);
    expect(await spec.rows(STATE)).toEqual([{ status: 'PENDING_AUTHORIZATION', sca_challenge: firstChallenge, updated_at: new Date(T1) }]);
    await spec.given([challengeIssued]);
    expect(await spec.rows(STATE)).toEqual([{ status: 'PENDING_AUTHORIZATION', sca_challenge: secondChallenge, updated_at: new Date(T2) }]);
    // A prefunded quote is released into its execution (EXECUTING, shown PENDING).
    await spec.given([
      { stream, type: 'QuoteAuthorized', data: { ...ref, sequenceId: 's1', authorizedAt: T3 } },
      { ...executionRequested, data: { ...executionRequested.data, scaFactor: 'SMS_OTP', requestedAt: T3 } },
    ]);
    expect(await spec.rows(STATE)).toEqual([{ status: 'PENDING', sca_challenge: null, updated_at: new Date(T3) }]);
  });

  it('SCA: an expired challenge fails the quote and drops the challenge', async () => {
    await spec.given([
      created,
      authorizationRequested,
      { stream, type: 'QuoteAuthorizationFailed', data: { ...ref, sequenceId: 's1', failureReason: 'SCA_NOT_COMPLETED', failedAt: T2 } },
    ]);
    expect(await spec.rows(STATE)).toEqual([{ status: 'FAILED', sca_challenge: null, updated_at: new Date(T2) }]);
  });

  it('a REALTIME_FUNDING quote keeps its instructions in the view and goes PROCESSING when funded; an unexecuted one EXPIRED', async () => {
    const realtime = 'Quote:0199a000-0000-7000-8000-0000000000d2';
    const realtimeRef = { quoteId: realtime, transactionId: 'Transaction:0199a000-0000-7000-8000-0000000000e2', platformId: PLATFORM };
    const realtimeStream = 'quote-0199a000-0000-7000-8000-0000000000d2';
    const instructions = [{ accountOrWalletInfo: { reference: 'UMA-REF-1', accountNumber: '1234567890', accountType: 'USD_ACCOUNT', routingNumber: '021000021' } }];
    await spec.given([
      created,
      {
        stream: realtimeStream,
        type: 'QuoteCreated',
        data: {
          ...terms, ...realtimeRef, createdAt: T1, source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: CUSTOMER }, paymentInstructions: instructions,
          funding: { ...terms.funding, sourceAccountId: null, sourceAccountType: null },
        },
      },
      { stream: realtimeStream, type: 'QuoteFunded', data: { ...realtimeRef, currencyCode: 'USD', amount: 100_000, fundedAt: T2 } },
      { stream, type: 'QuoteExpired', data: { ...ref, expiredAt: T4 } },
    ]);
    expect(await spec.rows(`SELECT quote_id, status, updated_at, view::json->'paymentInstructions' AS instructions FROM quotes ORDER BY quote_id`)).toEqual([
      { quote_id: QUOTE, status: 'EXPIRED', updated_at: new Date(T4), instructions: null },
      {
        quote_id: realtime,
        status: 'PROCESSING',
        updated_at: new Date(T2),
        instructions: [{ accountOrWalletInfo: { accountType: 'USD_ACCOUNT', accountNumber: '1234567890', routingNumber: '021000021', reference: 'UMA-REF-1' } }],
      },
    ]);
  });

  it('platforms are apart: the same quote id on two platforms is two rows, and a change on one leaves the other', async () => {
    const otherRef = { ...ref, platformId: OTHER_PLATFORM };
    await spec.given([
      created,
      { stream: 'other-platform-quote', type: 'QuoteCreated', data: { ...terms, ...otherRef, customerId: null, platformCustomerId: null } },
      fundsHeld,
    ]);
    expect(await spec.rows('SELECT platform_id, quote_id, customer_id, status FROM quotes ORDER BY platform_id')).toEqual([
      { platform_id: PLATFORM, quote_id: QUOTE, customer_id: CUSTOMER, status: 'PROCESSING' },
      { platform_id: OTHER_PLATFORM, quote_id: QUOTE, customer_id: null, status: 'PENDING' },
    ]);
  });

  it('the rows are the fold of the read model evolve, written without reading them back', async () => {
    const events = [created, authorizationRequested, challengeIssued, executionRequested, fundsHeld, completed, returned];
    let expected: QuoteRow | null = null;
    for (const event of events) {
      await spec.given([event]);
      expected = evolveQuoteRow(expected, event as unknown as QuoteEvent);
      const row = expected!;
      expect(
        await spec.rows(
          `SELECT platform_id, quote_id, transaction_id, customer_id, view::json AS view, status, sca_challenge::json AS sca_challenge, created_at, updated_at FROM quotes`,
        ),
      ).toEqual([
        {
          platform_id: row.platformId,
          quote_id: row.quoteId,
          transaction_id: row.transactionId,
          customer_id: row.customerId,
          view: row.view,
          status: row.status,
          sca_challenge: row.scaChallenge,
          created_at: new Date(row.createdAt),
          updated_at: new Date(row.updatedAt),
        },
      ]);
    }
  });

  it('created_at comes from the terms, so the list query pages newest first by (created_at, quote_id)', async () => {
    const quote = (n: number, createdAt: string): GivenEvent => ({
      stream: `quote-${n}`,
      type: 'QuoteCreated',
      data: { ...terms, quoteId: `Quote:${n}`, transactionId: `Transaction:${n}`, createdAt },
    });
    // Recorded in another order than they were created (the kit records them a second apart).
    await spec.given([quote(1, T2), quote(2, T1), quote(3, T2), quote(4, T3)]);
    expect(await spec.rows('SELECT quote_id, created_at FROM quotes WHERE platform_id = $1 ORDER BY created_at DESC, quote_id DESC', [PLATFORM])).toEqual([
      { quote_id: 'Quote:4', created_at: new Date(T3) },
      { quote_id: 'Quote:3', created_at: new Date(T2) },
      { quote_id: 'Quote:1', created_at: new Date(T2) },
      { quote_id: 'Quote:2', created_at: new Date(T1) },
    ]);
  });
});
