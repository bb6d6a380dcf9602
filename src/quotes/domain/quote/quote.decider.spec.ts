import { deciderSpec } from '../../../../test/support/decider-spec';
import { QuoteCommand, SettlementOutcome, quoteDecider } from './quote.decider';
import { QuoteEvent, QuoteTerms } from './quote.events';

const CREATED_AT = '2025-10-13T12:00:00.000Z';
const EXPIRES_AT = '2025-10-13T12:15:00.000Z';
const BEFORE_EXPIRY = '2025-10-13T12:05:00.000Z';
const AFTER_EXPIRY = '2025-10-13T12:15:00.001Z';
const ref = { quoteId: 'Quote:q', transactionId: 'Transaction:t', platformId: 'Platform:p' };

const terms: QuoteTerms = {
  ...ref,
  customerId: 'Customer:c',
  platformCustomerId: 'c-1',
  source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:a', customerId: 'Customer:c' },
  destination: { destinationType: 'ACCOUNT', accountId: 'ExternalAccount:e', paymentRail: 'ACH' },
  sendingCurrency: 'USD',
  receivingCurrency: 'USD',
  totalSendingAmount: 10_000,
  totalReceivingAmount: 9_990,
  exchangeRate: '1',
  feesIncluded: 10,
  platformFeesIncluded: 0,
  rateDetails: {
    counterpartyMultiplier: 0.0001, counterpartyFixedFee: 0, gridApiMultiplier: 10_000, gridApiFixedFee: 10, gridApiVariableFeeRate: 0, gridApiVariableFeeAmount: 0,
  },
  rateSnapshotId: 'rates-1',
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: 10_000,
  paymentRail: 'ACH',
  paymentInstructions: null,
  counterpartyInformation: null,
  description: null,
  funding: { sourceAccountId: 'InternalAccount:a', sourceAccountType: 'INTERNAL_FIAT', destinationInternalAccountId: null, scenario: 'SUCCESS', scenarioSuffix: null },
  createdAt: CREATED_AT,
  expiresAt: EXPIRES_AT,
};
const realtimeTerms: QuoteTerms = {
  ...terms,
  source: { sourceType: 'REALTIME_FUNDING', currency: 'USD' },
  funding: { ...terms.funding, sourceAccountId: null, sourceAccountType: null },
};

const created: QuoteEvent = { type: 'QuoteCreated', data: terms };
const requested = (attempt: number, at = BEFORE_EXPIRY): QuoteEvent => ({
  type: 'QuoteExecutionRequested',
  data: { ...ref, attempt, holdId: `hold-${attempt}`, sourceAccountId: 'InternalAccount:a', amount: 10_000, scaFactor: null, requestedAt: at },
});
const held = (attempt: number): QuoteEvent => ({ type: 'QuoteFundsHeld', data: { ...ref, attempt, holdId: `hold-${attempt}`, heldAt: BEFORE_EXPIRY } });
const rejected = (attempt: number): QuoteEvent => ({
  type: 'QuoteExecutionRejected',
  data: { ...ref, attempt, holdId: `hold-${attempt}`, reason: 'INSUFFICIENT_FUNDS', rejectedAt: BEFORE_EXPIRY },
});
const completed = (step: number): QuoteEvent => ({ type: 'QuoteCompleted', data: { ...ref, step, completedAt: BEFORE_EXPIRY } });

const spec = deciderSpec(quoteDecider);
const execute = (holdId: string, now = BEFORE_EXPIRY): QuoteCommand => ({ type: 'RequestExecution', holdId, scaFactor: null, now });
const success: SettlementOutcome = { status: 'COMPLETED', failureReason: null, refund: null };
const returned: SettlementOutcome = { status: 'FAILED', failureReason: 'PAYOUT_RETURNED', refund: { reason: 'PAYOUT_RETURNED' } };

describe('quote decider', () => {
  it('creates a PENDING quote once', () => {
    spec.given([]).when({ type: 'CreateQuote', terms }).then([created]);
    expect(spec.state([created]).status).toBe('PENDING');
    spec.given([created]).when({ type: 'CreateQuote', terms }).then([]);
  });

  it('answers QUOTE_NOT_FOUND for every command on a quote that does not exist', () => {
    spec.given([]).when(execute('h')).thenError('QUOTE_NOT_FOUND');
    spec.given([]).when({ type: 'Expire', now: AFTER_EXPIRY }).thenError('QUOTE_NOT_FOUND');
  });

  it('PENDING -> EXECUTING on execute, with the attempt and its hold id; then PROCESSING when the funds are held', () => {
    spec.given([created]).when(execute('hold-1')).then([requested(1)]);
    const executing = spec.given([created, requested(1)]);
    expect(executing.state.status).toBe('EXECUTING');
    executing.when({ type: 'RecordFundsHeld', attempt: 1, now: BEFORE_EXPIRY }).then([held(1)]);
    const processing = spec.given([created, requested(1), held(1)]);
    expect(processing.state.status).toBe('PROCESSING');
    processing.when({ type: 'RecordFundsHeld', attempt: 1, now: BEFORE_EXPIRY }).then([]);
  });

  it('execute and its funds held decided in a row, for one commit: request first, then PROCESSING; past expiresAt only the expiry', () => {
    const pending = spec.given([created]);
    const { events: first } = pending.when(execute('hold-1'));
    const { events: second } = spec.given([created, ...first]).when({ type: 'RecordFundsHeld', attempt: 1, now: BEFORE_EXPIRY });
    expect([...first, ...second]).toEqual([requested(1), held(1)]);
    expect(spec.state([created, ...first, ...second])).toMatchObject({ status: 'PROCESSING', attempts: 1, execution: { attempt: 1, holdId: 'hold-1' }, stepsApplied: 0 });

    const { events: late } = pending.when(execute('hold-1', AFTER_EXPIRY));
    expect(late.map((event) => event.type)).toEqual(['QuoteExpired']);
    spec.given([created, ...late]).when({ type: 'RecordFundsHeld', attempt: 1, now: AFTER_EXPIRY }).thenError('INVALID_STATE_TRANSITION');
  });

  it('a second execute is 409 QUOTE_ALREADY_EXECUTED in every later state', () => {
    for (const history of [[created, requested(1)], [created, requested(1), held(1)], [created, requested(1), held(1), completed(0)]]) {
      spec.given(history).when(execute('hold-2')).thenError('CONFLICT', { reason: 'QUOTE_ALREADY_EXECUTED' });
    }
  });

  it('a refused hold takes the quote back to PENDING; the next execute is a new attempt with a new hold', () => {
    spec.given([created, requested(1)]).when({ type: 'RejectExecution', attempt: 1, reason: 'INSUFFICIENT_FUNDS', now: BEFORE_EXPIRY }).then([rejected(1)]);
    const pending = spec.given([created, requested(1), rejected(1)]);
    expect(pending.state.status).toBe('PENDING');
    pending.when({ type: 'RejectExecution', attempt: 1, reason: 'INSUFFICIENT_FUNDS', now: BEFORE_EXPIRY }).then([]);
    pending.when({ type: 'RecordFundsHeld', attempt: 1, now: BEFORE_EXPIRY }).thenError('INVALID_STATE_TRANSITION');
    pending.when(execute('hold-2')).then([requested(2)]);
  });

  it('execute past expiresAt records the expiry (the caller answers 409 QUOTE_EXPIRED); then every execute is 409', () => {
    const expiry: QuoteEvent = { type: 'QuoteExpired', data: { ...ref, expiredAt: AFTER_EXPIRY } };
    spec.given([created]).when(execute('hold-1', AFTER_EXPIRY)).then([expiry]);
    const expired = spec.given([created, expiry]);
    expect(expired.state.status).toBe('EXPIRED');
    expired.when(execute('hold-1')).thenError('CONFLICT', { reason: 'QUOTE_EXPIRED' });
  });

  it('the expiry task expires only a PENDING quote that is due: never an EXECUTING one', () => {
    spec.given([created]).when({ type: 'Expire', now: BEFORE_EXPIRY }).then([]);
    spec.given([created]).when({ type: 'Expire', now: AFTER_EXPIRY }).then([{ type: 'QuoteExpired', data: { ...ref, expiredAt: AFTER_EXPIRY } }]);
    spec.given([created, requested(1)]).when({ type: 'Expire', now: AFTER_EXPIRY }).then([]);
    spec.given([created, requested(1), held(1)]).when({ type: 'Expire', now: AFTER_EXPIRY }).then([]);
    // An attempt refused after expiresAt leaves a PENDING quote that the next expiry check expires.
    expect(spec.given([created, requested(1), rejected(1)]).when({ type: 'Expire', now: AFTER_EXPIRY }).events).toHaveLength(1);
  });

  it('a REALTIME_FUNDING quote cannot be executed (400) but is funded by a sandbox send of its exact currency and amount', () => {
    const realtime = spec.given([{ type: 'QuoteCreated', data: realtimeTerms }]);
    realtime.when(execute('h')).thenError('INVALID_INPUT');
    realtime.when({ type: 'RecordFunding', currencyCode: 'EUR', amount: null, now: BEFORE_EXPIRY }).thenError('INVALID_INPUT');
    realtime.when({ type: 'RecordFunding', currencyCode: 'USD', amount: 9_999, now: BEFORE_EXPIRY }).thenError('INVALID_INPUT');
    const funded: QuoteEvent = { type: 'QuoteFunded', data: { ...ref, currencyCode: 'USD', amount: 10_000, fundedAt: BEFORE_EXPIRY } };
    realtime.when({ type: 'RecordFunding', currencyCode: 'USD', amount: 10_000, now: BEFORE_EXPIRY }).then([funded]);
    const processing = spec.given([{ type: 'QuoteCreated', data: realtimeTerms }, funded]);
    expect(processing.state.status).toBe('PROCESSING');
    processing.when({ type: 'RecordFunding', currencyCode: 'USD', amount: null, now: BEFORE_EXPIRY }).thenError('CONFLICT', { reason: 'QUOTE_ALREADY_FUNDED' });
    spec.given([created]).when({ type: 'RecordFunding', currencyCode: 'USD', amount: null, now: BEFORE_EXPIRY }).thenError('INVALID_INPUT');
  });

  it('settles step by step: COMPLETED, then FAILED for a return, its refund PENDING; a repeated step is a no-op', () => {
    spec.given([created, requested(1), held(1)]).when({ type: 'ApplySettlementStep', step: 0, outcome: success, now: BEFORE_EXPIRY }).then([completed(0)]);
    const done = spec.given([created, requested(1), held(1), completed(0)]);
    expect(done.state.status).toBe('COMPLETED');
    done.when({ type: 'ApplySettlementStep', step: 0, outcome: success, now: BEFORE_EXPIRY }).then([]);
    const failed: QuoteEvent = {
      type: 'QuoteFailed',
      data: {
        ...ref, step: 1, failureReason: 'PAYOUT_RETURNED', failedAt: AFTER_EXPIRY,
        refund: { reference: 'Transaction:t:refund', initiatedAt: AFTER_EXPIRY, settledAt: null, status: 'PENDING', reason: 'PAYOUT_RETURNED' },
      },
    };
    done.when({ type: 'ApplySettlementStep', step: 1, outcome: returned, now: AFTER_EXPIRY }).then([failed]);
    const after = spec.state([created, requested(1), held(1), completed(0), failed]);
    expect(after.status === 'FAILED' && [after.failureReason, after.stepsApplied, after.completedAt]).toEqual(['PAYOUT_RETURNED', 2, BEFORE_EXPIRY]);
  });

  describe('the refund a failure starts', () => {
    const failedAt = BEFORE_EXPIRY;
    const failed: QuoteEvent = {
      type: 'QuoteFailed',
      data: {
        ...ref, step: 0, failureReason: 'QUOTE_EXECUTION_FAILED', failedAt,
        refund: { reference: 'Transaction:t:refund', initiatedAt: failedAt, settledAt: null, status: 'PENDING', reason: 'TRANSACTION_FAILED' },
      },
    };
    const settle = (outcome: 'COMPLETED' | 'FAILED'): QuoteCommand => ({ type: 'SettleRefund', outcome, now: AFTER_EXPIRY });

    it('is PENDING at the failure: initiated, not settled', () => {
      spec.given([created, requested(1), held(1)]).when({
        type: 'ApplySettlementStep', step: 0, now: failedAt,
        outcome: { status: 'FAILED', failureReason: 'QUOTE_EXECUTION_FAILED', refund: { reason: 'TRANSACTION_FAILED' } },
      }).then([failed]);
    });

    it('completes once: settledAt, the quote still FAILED at its failure; a repeated task changes nothing', () => {
      const completedRefund: QuoteEvent = { type: 'QuoteRefundCompleted', data: { ...ref, settledAt: AFTER_EXPIRY } };
      spec.given([created, requested(1), held(1), failed]).when(settle('COMPLETED')).then([completedRefund]);
      const done = spec.given([created, requested(1), held(1), failed, completedRefund]);
      expect(done.state).toMatchObject({
        status: 'FAILED', failedAt, failureReason: 'QUOTE_EXECUTION_FAILED', updatedAt: AFTER_EXPIRY,
        refund: { reference: 'Transaction:t:refund', initiatedAt: failedAt, settledAt: AFTER_EXPIRY, status: 'COMPLETED', reason: 'TRANSACTION_FAILED' },
      });
      done.when(settle('COMPLETED')).then([]);
      done.when(settle('FAILED')).then([]);
    });

    it('fails once: never settled, the money gone', () => {
      const failedRefund: QuoteEvent = { type: 'QuoteRefundFailed', data: { ...ref, failedAt: AFTER_EXPIRY } };
      spec.given([created, requested(1), held(1), failed]).when(settle('FAILED')).then([failedRefund]);
      const done = spec.given([created, requested(1), held(1), failed, failedRefund]);
      expect(done.state).toMatchObject({ status: 'FAILED', refund: { settledAt: null, status: 'FAILED' } });
      done.when(settle('COMPLETED')).then([]);
    });

    it('cannot settle a refund that was never started: INVALID_STATE_TRANSITION', () => {
      spec.given([created, requested(1), held(1)]).when(settle('COMPLETED')).thenError('INVALID_STATE_TRANSITION');
      spec.given([created, requested(1), held(1), completed(0)]).when(settle('COMPLETED')).thenError('INVALID_STATE_TRANSITION');
    });
  });

  it('refuses settlement before the funds are held or out of order', () => {
    spec.given([created, requested(1)]).when({ type: 'ApplySettlementStep', step: 0, outcome: success, now: BEFORE_EXPIRY }).thenError('INVALID_STATE_TRANSITION');
    spec.given([created, requested(1), held(1)]).when({ type: 'ApplySettlementStep', step: 1, outcome: returned, now: BEFORE_EXPIRY }).thenError('INVALID_STATE_TRANSITION');
  });
});
