import { TransferParties } from '../../src/accounts';
import { GivenEvent, projectionSpec, ProjectionSpec } from '../../test/support/projection-spec';
import { transactionsProjection } from './transactions.projection';
import {
  ACCOUNT, CREATED_AT, CUSTOMER, EXTERNAL, OTHER_PLATFORM, PLATFORM, QUOTE, QUOTE_STREAM, QUOTE_TRANSACTION, T1, T2, T3, quoteRef, quoteTerms, rateDetails,
} from '../quote-events.fixture';

const TRANSFER = 'Transaction:0199a000-0000-7000-8000-0000000000e2';
const transferStream = 'transaction-0199a000-0000-7000-8000-0000000000e2';
const USD = { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 };
const EUR = { code: 'EUR', name: 'Euro', symbol: '€', decimals: 2 };
const quoteStream = QUOTE_STREAM;
const terms = quoteTerms;

const quoteCreated: GivenEvent = { stream: quoteStream, type: 'QuoteCreated', data: terms };
const executionRequested: GivenEvent = {
  stream: quoteStream,
  type: 'QuoteExecutionRequested',
  data: { ...quoteRef, attempt: 1, holdId: 'hold-1', sourceAccountId: ACCOUNT, amount: 100_000, scaFactor: null, requestedAt: T1 },
};
const quoteFundsHeld: GivenEvent = { stream: quoteStream, type: 'QuoteFundsHeld', data: { ...quoteRef, attempt: 1, holdId: 'hold-1', heldAt: T1 } };

/** A same-currency transfer out of an internal account, as POST /transfer-out records it. */
const parties: TransferParties = {
  transactionId: TRANSFER,
  platformId: PLATFORM,
  customerId: CUSTOMER,
  platformCustomerId: 'cust-1',
  sourceAccountId: ACCOUNT,
  destinationAccountId: EXTERNAL,
  paymentRail: 'ACH',
  currency: 'USD',
  amount: 1_000,
  counterpartySuffix: '789',
  railSelectionMode: 'MANUAL',
  remittanceInformation: 'INV-2025-001',
  purposeOfPayment: 'GOODS_OR_SERVICES',
};
const transferRef = { transactionId: TRANSFER, platformId: PLATFORM };
const transferOutRequested: GivenEvent = { stream: transferStream, type: 'TransferOutRequested', data: { ...parties, requestedAt: CREATED_AT } };
const transferOutHeld: GivenEvent = { stream: transferStream, type: 'TransferOutFundsHeld', data: { ...transferRef, holdId: TRANSFER, heldAt: T1 } };
const transferOutCompleted: GivenEvent = { stream: transferStream, type: 'TransferOutCompleted', data: { ...transferRef, completedAt: T2 } };

const COLUMNS = `SELECT platform_id, transaction_id, customer_id, platform_customer_id, type, status, source_account_id, destination_account_id,
  quote_id, reference, visible, view::json AS view, created_at, updated_at FROM transactions`;

describe('transactions projection', () => {
  let spec: ProjectionSpec;
  beforeEach(async () => {
    spec = await projectionSpec(transactionsProjection);
  });
  afterEach(async () => {
    await spec.close();
  });

  it('a created quote is one visible OUTGOING PENDING row: filter columns and the GET view', async () => {
    await spec.given([quoteCreated]);
    expect(await spec.rows(COLUMNS)).toEqual([
      {
        platform_id: PLATFORM,
        transaction_id: QUOTE_TRANSACTION,
        customer_id: CUSTOMER,
        platform_customer_id: 'cust-1',
        type: 'OUTGOING',
        status: 'PENDING',
        source_account_id: ACCOUNT,
        destination_account_id: EXTERNAL,
        quote_id: QUOTE,
        reference: null,
        visible: true,
        view: {
          id: QUOTE_TRANSACTION,
          status: 'PENDING',
          type: 'OUTGOING',
          direction: 'DEBIT',
          source: { sourceType: 'ACCOUNT', accountId: ACCOUNT, currency: 'USD' },
          destination: { destinationType: 'ACCOUNT', accountId: EXTERNAL, currency: 'EUR', paymentRail: 'SEPA_INSTANT' },
          customerId: CUSTOMER,
          platformCustomerId: 'cust-1',
          sentAmount: { amount: 100_000, currency: USD },
          receivedAmount: { amount: 85_982, currency: EUR },
          exchangeRate: 1.16,
          fees: 260,
          quoteId: QUOTE,
          description: 'November rent',
          failureReason: null,
          refund: null,
          createdAt: CREATED_AT,
          updatedAt: CREATED_AT,
          settledAt: null,
          platformFees: 150,
          rateDetails,
        },
        created_at: new Date(CREATED_AT),
        updated_at: new Date(CREATED_AT),
      },
    ]);
  });

  it('a quote settles: PROCESSING when held (execute attempts change nothing), COMPLETED, then FAILED by a return with its refund', async () => {
    const STATE = `SELECT status, updated_at, view::json AS view FROM transactions`;
    await spec.given([quoteCreated, executionRequested]);
    expect(await spec.rows(STATE)).toEqual([{ status: 'PENDING', updated_at: new Date(CREATED_AT), view: expect.objectContaining({ status: 'PENDING', updatedAt: CREATED_AT }) }]);
    await spec.given([quoteFundsHeld]);
    expect(await spec.rows(STATE)).toEqual([{ status: 'PROCESSING', updated_at: new Date(T1), view: expect.objectContaining({ status: 'PROCESSING', updatedAt: T1, settledAt: null }) }]);
    await spec.given([{ stream: quoteStream, type: 'QuoteCompleted', data: { ...quoteRef, step: 0, completedAt: T2 } }]);
    expect(await spec.rows(STATE)).toEqual([{ status: 'COMPLETED', updated_at: new Date(T2), view: expect.objectContaining({ status: 'COMPLETED', updatedAt: T2, settledAt: T2 }) }]);
    await spec.given([
      {
        stream: quoteStream,
        type: 'QuoteFailed',
        data: {
          ...quoteRef, step: 1, failureReason: 'PAYOUT_RETURNED', failedAt: T3,
          refund: { reason: 'PAYOUT_RETURNED', status: 'COMPLETED', settledAt: T3, initiatedAt: T3, reference: `${QUOTE_TRANSACTION}:refund` },
        },
      },
    ]);
    const [row] = await spec.rows(STATE);
    expect(row).toEqual({
      status: 'FAILED',
      updated_at: new Date(T3),
      view: expect.objectContaining({
        status: 'FAILED',
        failureReason: 'PAYOUT_RETURNED',
        // The refund reason under the contract's Refund enum.
        refund: { reference: `${QUOTE_TRANSACTION}:refund`, initiatedAt: T3, settledAt: T3, status: 'COMPLETED', reason: 'TRANSACTION_FAILED' },
        settledAt: T2,
        updatedAt: T3,
      }),
    });
  });

  it('SCA and expiry of quotes: PENDING_AUTHORIZATION, a new challenge changes nothing, FAILED unauthorized; EXPIRED; legacy failure reasons renamed', async () => {
    const ref = (n: number) => ({ quoteId: `Quote:${n}`, transactionId: `Transaction:${n}`, platformId: PLATFORM });
    const created = (n: number): GivenEvent => ({ stream: `quote-${n}`, type: 'QuoteCreated', data: { ...terms, ...ref(n) } });
    const challenge = { id: 'ScaChallenge:2', expiresAt: T3, factor: 'SMS_OTP', availableFactors: ['SMS_OTP'], purpose: 'PAYOUT' };
    await spec.given([
      created(1),
      { stream: 'quote-1', type: 'QuoteAuthorizationRequested', data: { ...ref(1), sequenceId: 's1', scaFactor: 'SMS_OTP', scaChallenge: { ...challenge, id: 'ScaChallenge:1' }, scaPlan: {}, requestedAt: T1 } },
      { stream: 'quote-1', type: 'QuoteScaChallengeIssued', data: { ...ref(1), sequenceId: 's1', scaChallenge: challenge, issuedAt: T2 } },
      created(2),
      { stream: 'quote-2', type: 'QuoteAuthorizationRequested', data: { ...ref(2), sequenceId: 's2', scaFactor: 'SMS_OTP', scaChallenge: challenge, scaPlan: {}, requestedAt: T1 } },
      { stream: 'quote-2', type: 'QuoteAuthorizationFailed', data: { ...ref(2), sequenceId: 's2', failureReason: 'SCA_NOT_COMPLETED', failedAt: T3 } },
      created(3),
      { stream: 'quote-3', type: 'QuoteExpired', data: { ...ref(3), expiredAt: T2 } },
      created(4),
      { stream: 'quote-4', type: 'QuoteFundsHeld', data: { ...ref(4), attempt: 1, holdId: 'h', heldAt: T1 } },
      { stream: 'quote-4', type: 'QuoteFailed', data: { ...ref(4), step: 0, failureReason: 'USER_CANCELLATION', failedAt: T2, refund: null } },
    ]);
    expect(
      await spec.rows(`SELECT transaction_id, status, updated_at, view::json->>'failureReason' AS failure_reason, view::json->'refund' AS refund FROM transactions ORDER BY transaction_id`),
    ).toEqual([
      { transaction_id: 'Transaction:1', status: 'PENDING_AUTHORIZATION', updated_at: new Date(T1), failure_reason: null, refund: null },
      { transaction_id: 'Transaction:2', status: 'FAILED', updated_at: new Date(T3), failure_reason: 'SCA_NOT_COMPLETED', refund: null },
      { transaction_id: 'Transaction:3', status: 'EXPIRED', updated_at: new Date(T2), failure_reason: null, refund: null },
      { transaction_id: 'Transaction:4', status: 'FAILED', updated_at: new Date(T2), failure_reason: 'QUOTE_EXECUTION_FAILED', refund: null },
    ]);
  });

  it('a transfer-out is hidden until its funds are held, hidden again when refused; reference and rail from the request', async () => {
    await spec.given([transferOutRequested]);
    expect(await spec.rows(COLUMNS)).toEqual([
      {
        platform_id: PLATFORM,
        transaction_id: TRANSFER,
        customer_id: CUSTOMER,
        platform_customer_id: 'cust-1',
        type: 'OUTGOING',
        status: 'PENDING',
        source_account_id: ACCOUNT,
        destination_account_id: EXTERNAL,
        quote_id: null,
        reference: 'INV-2025-001',
        visible: false,
        view: {
          id: TRANSFER,
          status: 'PENDING',
          type: 'OUTGOING',
          direction: 'DEBIT',
          source: { sourceType: 'ACCOUNT', accountId: ACCOUNT, currency: 'USD' },
          destination: { destinationType: 'ACCOUNT', accountId: EXTERNAL, currency: 'USD', paymentRail: 'ACH' },
          customerId: CUSTOMER,
          platformCustomerId: 'cust-1',
          sentAmount: { amount: 1_000, currency: USD },
          receivedAmount: { amount: 1_000, currency: USD },
          exchangeRate: 1,
          fees: 0,
          quoteId: null,
          description: null,
          failureReason: null,
          refund: null,
          createdAt: CREATED_AT,
          updatedAt: CREATED_AT,
          settledAt: null,
          railSelectionMode: 'MANUAL',
          reconciliationInstructions: { reference: 'INV-2025-001' },
          purposeOfPayment: 'GOODS_OR_SERVICES',
        },
        created_at: new Date(CREATED_AT),
        updated_at: new Date(CREATED_AT),
      },
    ]);
    await spec.given([transferOutHeld, transferOutCompleted]);
    expect(await spec.rows(`SELECT visible, status, updated_at, view::json->>'settledAt' AS settled_at FROM transactions`)).toEqual([
      { visible: true, status: 'COMPLETED', updated_at: new Date(T2), settled_at: T2 },
    ]);

    const refused = 'Transaction:0199a000-0000-7000-8000-0000000000e3';
    await spec.given([
      { stream: 'transaction-refused', type: 'TransferOutRequested', data: { ...parties, transactionId: refused, requestedAt: T1 } },
      { stream: 'transaction-refused', type: 'TransferOutRejected', data: { transactionId: refused, platformId: PLATFORM, reason: 'INSUFFICIENT_FUNDS', rejectedAt: T1 } },
    ]);
    expect(await spec.rows(`SELECT visible, status, view::json->>'failureReason' AS failure_reason FROM transactions WHERE transaction_id = $1`, [refused])).toEqual([
      { visible: false, status: 'FAILED', failure_reason: 'INSUFFICIENT_FUNDS' },
    ]);
  });

  it('incoming: a transfer-in (completed or failed) and a sandbox funding are visible INCOMING CREDIT rows', async () => {
    // A transfer-in records no rail selection, remittance information or purpose.
    const { railSelectionMode: _mode, remittanceInformation: _remittance, purposeOfPayment: _purpose, ...transfer } = parties;
    const inParties = { ...transfer, sourceAccountId: EXTERNAL, destinationAccountId: ACCOUNT };
    await spec.given([
      { stream: 'transaction-in-1', type: 'TransferInRequested', data: { ...inParties, transactionId: 'Transaction:in-1', requestedAt: CREATED_AT } },
      { stream: 'transaction-in-1', type: 'TransferInCompleted', data: { transactionId: 'Transaction:in-1', platformId: PLATFORM, completedAt: T1 } },
      { stream: 'transaction-in-2', type: 'TransferInRequested', data: { ...inParties, transactionId: 'Transaction:in-2', requestedAt: CREATED_AT } },
      { stream: 'transaction-in-2', type: 'TransferInFailed', data: { transactionId: 'Transaction:in-2', platformId: PLATFORM, failureReason: 'ACCOUNT_CLOSED', failedAt: T2 } },
      {
        stream: 'transaction-fund',
        type: 'SandboxFundingCompleted',
        data: { transactionId: 'Transaction:fund', platformId: PLATFORM, customerId: null, platformCustomerId: null, accountId: ACCOUNT, currency: 'USD', amount: 50_000, completedAt: T3 },
      },
    ]);
    const rows = await spec.rows(
      `SELECT transaction_id, type, status, visible, source_account_id, destination_account_id, customer_id, reference, created_at, updated_at,
              view::json AS view FROM transactions ORDER BY transaction_id`,
    );
    expect(rows).toEqual([
      {
        transaction_id: 'Transaction:fund', type: 'INCOMING', status: 'COMPLETED', visible: true, source_account_id: null, destination_account_id: ACCOUNT,
        customer_id: null, reference: null, created_at: new Date(T3), updated_at: new Date(T3),
        view: {
          id: 'Transaction:fund', status: 'COMPLETED', type: 'INCOMING', direction: 'CREDIT', source: null,
          destination: { destinationType: 'ACCOUNT', accountId: ACCOUNT, currency: 'USD', paymentRail: null },
          customerId: null, platformCustomerId: null, sentAmount: { amount: 50_000, currency: USD }, receivedAmount: { amount: 50_000, currency: USD },
          exchangeRate: 1, fees: 0, quoteId: null, description: 'Sandbox funding', failureReason: null, refund: null,
          createdAt: T3, updatedAt: T3, settledAt: T3,
        },
      },
      {
        transaction_id: 'Transaction:in-1', type: 'INCOMING', status: 'COMPLETED', visible: true, source_account_id: EXTERNAL, destination_account_id: ACCOUNT,
        customer_id: CUSTOMER, reference: null, created_at: new Date(CREATED_AT), updated_at: new Date(T1),
        view: expect.objectContaining({ direction: 'CREDIT', settledAt: T1, failureReason: null }),
      },
      {
        transaction_id: 'Transaction:in-2', type: 'INCOMING', status: 'FAILED', visible: true, source_account_id: EXTERNAL, destination_account_id: ACCOUNT,
        customer_id: CUSTOMER, reference: null, created_at: new Date(CREATED_AT), updated_at: new Date(T2),
        view: expect.objectContaining({ direction: 'CREDIT', settledAt: null, failureReason: 'ACCOUNT_CLOSED', refund: null }),
      },
    ]);
    expect(rows[1].view).not.toHaveProperty('railSelectionMode');
  });

  it('an UMA destination is filtered on by its address; events of a transaction never seen created leave no row', async () => {
    const umaAddress = '$bob@uma.example.com';
    await spec.given([
      {
        ...quoteCreated,
        data: { ...terms, destination: { destinationType: 'UMA_ADDRESS', umaAddress, currency: 'EUR' }, paymentRail: 'UMA' },
      },
      { stream: 'quote-unseen', type: 'QuoteFundsHeld', data: { quoteId: 'Quote:unseen', transactionId: 'Transaction:unseen', platformId: PLATFORM, attempt: 1, holdId: 'h', heldAt: T1 } },
      { stream: 'quote-unseen', type: 'QuoteCompleted', data: { quoteId: 'Quote:unseen', transactionId: 'Transaction:unseen', platformId: PLATFORM, step: 0, completedAt: T2 } },
      { stream: 'transaction-unseen', type: 'TransferOutFundsHeld', data: { transactionId: 'Transaction:unseen-2', platformId: PLATFORM, holdId: 'h', heldAt: T1 } },
    ]);
    expect(await spec.rows(`SELECT transaction_id, destination_account_id, view::json->'destination' AS destination FROM transactions`)).toEqual([
      // UMA is no contract rail name: no paymentRail.
      { transaction_id: QUOTE_TRANSACTION, destination_account_id: umaAddress, destination: { destinationType: 'UMA_ADDRESS', umaAddress, currency: 'EUR' } },
    ]);
  });

  it('a gap in a stream (an event this projection does not read) reads the row back from the table: the same row as without it', async () => {
    // The transfer-out as above, with unread events between its own: each next event finds no
    // remembered row for the revision before it and reads the table instead.
    const unread = (at: string): GivenEvent => ({ stream: transferStream, type: 'SomethingElseHappened', data: { ...transferRef, at } });
    await spec.given([transferOutRequested, unread(T1), transferOutHeld, unread(T1), transferOutCompleted]);
    const other = 'Transaction:0199a000-0000-7000-8000-0000000000e4';
    const otherStream = 'transaction-0199a000-0000-7000-8000-0000000000e4';
    await spec.given([
      { ...transferOutRequested, stream: otherStream, data: { ...transferOutRequested.data, transactionId: other } },
      { ...transferOutHeld, stream: otherStream, data: { ...transferOutHeld.data, transactionId: other } },
      { ...transferOutCompleted, stream: otherStream, data: { ...transferOutCompleted.data, transactionId: other } },
    ]);
    const rows = await spec.rows<{ transaction_id: string; visible: boolean; status: string; view: Record<string, unknown> }>(
      `SELECT transaction_id, visible, status, view::json AS view FROM transactions ORDER BY transaction_id`,
    );
    expect(rows.map((row) => row.transaction_id)).toEqual([TRANSFER, other]);
    expect(rows[0]).toEqual({ ...rows[1], transaction_id: TRANSFER, view: { ...rows[1].view, id: TRANSFER } });
    expect(rows[0]).toEqual(expect.objectContaining({ visible: true, status: 'COMPLETED', view: expect.objectContaining({ updatedAt: T2, settledAt: T2 }) }));
  });

  it('platforms are apart: one transaction id on two platforms is two rows, each changed only by its own events', async () => {
    const otherStream = 'transaction-other-platform';
    // An unread event in the other platform's stream makes its next event read its row back from
    // the table; the first platform's next event uses the row it remembers.
    await spec.given([
      transferOutRequested,
      { stream: otherStream, type: 'TransferOutRequested', data: { ...parties, platformId: OTHER_PLATFORM, customerId: null, platformCustomerId: null, requestedAt: T1 } },
      { stream: otherStream, type: 'SomethingElseHappened', data: { transactionId: TRANSFER, platformId: OTHER_PLATFORM } },
      transferOutHeld,
      { stream: otherStream, type: 'TransferOutRejected', data: { transactionId: TRANSFER, platformId: OTHER_PLATFORM, reason: 'INSUFFICIENT_FUNDS', rejectedAt: T2 } },
    ]);
    expect(await spec.rows(`SELECT platform_id, transaction_id, customer_id, visible, status, created_at, updated_at FROM transactions ORDER BY platform_id`)).toEqual([
      { platform_id: PLATFORM, transaction_id: TRANSFER, customer_id: CUSTOMER, visible: true, status: 'PENDING', created_at: new Date(CREATED_AT), updated_at: new Date(T1) },
      { platform_id: OTHER_PLATFORM, transaction_id: TRANSFER, customer_id: null, visible: false, status: 'FAILED', created_at: new Date(T1), updated_at: new Date(T2) },
    ]);
  });
});
