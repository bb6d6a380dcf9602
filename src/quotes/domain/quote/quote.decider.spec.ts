import { DomainError } from '../../../infra/domain/domain-error';
import { QuoteCommand, QuoteState, SettlementOutcome, quoteDecider } from './quote.decider';
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

const given = (events: QuoteEvent[]): QuoteState => events.reduce(quoteDecider.evolve, quoteDecider.initialState());
const when = (state: QuoteState, command: QuoteCommand) => quoteDecider.decide(command, state);
const execute = (holdId: string, now = BEFORE_EXPIRY): QuoteCommand => ({ type: 'RequestExecution', holdId, scaFactor: null, now });
const success: SettlementOutcome = { status: 'COMPLETED', failureReason: null, refund: null };
const returned: SettlementOutcome = { status: 'FAILED', failureReason: 'PAYOUT_RETURNED', refund: { status: 'COMPLETED', reason: 'PAYOUT_RETURNED' } };

function refusal(work: () => unknown): { code?: string; reason?: unknown } {
  try {
    work();
  } catch (error) {
    return { code: (error as DomainError).code, reason: (error as DomainError).details?.reason };
  }
  return {};
}

describe('quote decider', () => {
  it('creates a PENDING quote once', () => {
    expect(when(given([]), { type: 'CreateQuote', terms })).toEqual([created]);
    expect(given([created]).status).toBe('PENDING');
    expect(when(given([created]), { type: 'CreateQuote', terms })).toEqual([]);
  });

  it('answers QUOTE_NOT_FOUND for every command on a quote that does not exist', () => {
    expect(refusal(() => when(given([]), execute('h'))).code).toBe('QUOTE_NOT_FOUND');
    expect(refusal(() => when(given([]), { type: 'Expire', now: AFTER_EXPIRY })).code).toBe('QUOTE_NOT_FOUND');
  });

  it('PENDING -> EXECUTING on execute, with the attempt and its hold id; then PROCESSING when the funds are held', () => {
    expect(when(given([created]), execute('hold-1'))).toEqual([requested(1)]);
    const executing = given([created, requested(1)]);
    expect(executing.status).toBe('EXECUTING');
    expect(when(executing, { type: 'RecordFundsHeld', attempt: 1, now: BEFORE_EXPIRY })).toEqual([held(1)]);
    const processing = given([created, requested(1), held(1)]);
    expect(processing.status).toBe('PROCESSING');
    expect(when(processing, { type: 'RecordFundsHeld', attempt: 1, now: BEFORE_EXPIRY })).toEqual([]);
  });

  it('execute and its funds held decided in a row, for one commit: request first, then PROCESSING; past expiresAt only the expiry', () => {
    const pending = given([created]);
    const first = when(pending, execute('hold-1'));
    const second = when(given([created, ...first]), { type: 'RecordFundsHeld', attempt: 1, now: BEFORE_EXPIRY });
    expect([...first, ...second]).toEqual([requested(1), held(1)]);
    expect(given([created, ...first, ...second])).toMatchObject({ status: 'PROCESSING', attempts: 1, execution: { attempt: 1, holdId: 'hold-1' }, stepsApplied: 0 });

    const late = when(pending, execute('hold-1', AFTER_EXPIRY));
    expect(late.map((event) => event.type)).toEqual(['QuoteExpired']);
    expect(refusal(() => when(given([created, ...late]), { type: 'RecordFundsHeld', attempt: 1, now: AFTER_EXPIRY })).code).toBe('INVALID_STATE_TRANSITION');
  });

  it('a second execute is 409 QUOTE_ALREADY_EXECUTED in every later state', () => {
    for (const history of [[created, requested(1)], [created, requested(1), held(1)], [created, requested(1), held(1), completed(0)]]) {
      expect(refusal(() => when(given(history), execute('hold-2')))).toEqual({ code: 'CONFLICT', reason: 'QUOTE_ALREADY_EXECUTED' });
    }
  });

  it('a refused hold takes the quote back to PENDING; the next execute is a new attempt with a new hold', () => {
    const executing = given([created, requested(1)]);
    expect(when(executing, { type: 'RejectExecution', attempt: 1, reason: 'INSUFFICIENT_FUNDS', now: BEFORE_EXPIRY })).toEqual([rejected(1)]);
    const pending = given([created, requested(1), rejected(1)]);
    expect(pending.status).toBe('PENDING');
    expect(when(pending, { type: 'RejectExecution', attempt: 1, reason: 'INSUFFICIENT_FUNDS', now: BEFORE_EXPIRY })).toEqual([]);
    expect(refusal(() => when(pending, { type: 'RecordFundsHeld', attempt: 1, now: BEFORE_EXPIRY })).code).toBe('INVALID_STATE_TRANSITION');
    expect(when(pending, execute('hold-2'))).toEqual([requested(2)]);
  });

  it('execute past expiresAt records the expiry (the caller answers 409 QUOTE_EXPIRED); then every execute is 409', () => {
    const decided = when(given([created]), execute('hold-1', AFTER_EXPIRY));
    expect(decided).toEqual([{ type: 'QuoteExpired', data: { ...ref, expiredAt: AFTER_EXPIRY } }]);
    const expired = given([created, ...decided]);
    expect(expired.status).toBe('EXPIRED');
    expect(refusal(() => when(expired, execute('hold-1')))).toEqual({ code: 'CONFLICT', reason: 'QUOTE_EXPIRED' });
  });

  it('the expiry task expires only a PENDING quote that is due: never an EXECUTING one', () => {
    expect(when(given([created]), { type: 'Expire', now: BEFORE_EXPIRY })).toEqual([]);
    expect(when(given([created]), { type: 'Expire', now: AFTER_EXPIRY })).toEqual([{ type: 'QuoteExpired', data: { ...ref, expiredAt: AFTER_EXPIRY } }]);
    expect(when(given([created, requested(1)]), { type: 'Expire', now: AFTER_EXPIRY })).toEqual([]);
    expect(when(given([created, requested(1), held(1)]), { type: 'Expire', now: AFTER_EXPIRY })).toEqual([]);
    // An attempt refused after expiresAt leaves a PENDING quote that the next expiry check expires.
    expect(when(given([created, requested(1), rejected(1)]), { type: 'Expire', now: AFTER_EXPIRY })).toHaveLength(1);
  });

  it('a REALTIME_FUNDING quote cannot be executed (400) but is funded by a sandbox send of its exact currency and amount', () => {
    const state = given([{ type: 'QuoteCreated', data: realtimeTerms }]);
    expect(refusal(() => when(state, execute('h'))).code).toBe('INVALID_INPUT');
    expect(refusal(() => when(state, { type: 'RecordFunding', currencyCode: 'EUR', amount: null, now: BEFORE_EXPIRY })).code).toBe('INVALID_INPUT');
    expect(refusal(() => when(state, { type: 'RecordFunding', currencyCode: 'USD', amount: 9_999, now: BEFORE_EXPIRY })).code).toBe('INVALID_INPUT');
    const funded = when(state, { type: 'RecordFunding', currencyCode: 'USD', amount: 10_000, now: BEFORE_EXPIRY });
    expect(funded).toEqual([{ type: 'QuoteFunded', data: { ...ref, currencyCode: 'USD', amount: 10_000, fundedAt: BEFORE_EXPIRY } }]);
    const processing = given([{ type: 'QuoteCreated', data: realtimeTerms }, ...funded]);
    expect(processing.status).toBe('PROCESSING');
    expect(refusal(() => when(processing, { type: 'RecordFunding', currencyCode: 'USD', amount: null, now: BEFORE_EXPIRY }))).toEqual({ code: 'CONFLICT', reason: 'QUOTE_ALREADY_FUNDED' });
    expect(refusal(() => when(given([created]), { type: 'RecordFunding', currencyCode: 'USD', amount: null, now: BEFORE_EXPIRY })).code).toBe('INVALID_INPUT');
  });

  it('settles step by step: COMPLETED, then FAILED with its refund for a return; a repeated step is a no-op', () => {
    const processing = given([created, requested(1), held(1)]);
    expect(when(processing, { type: 'ApplySettlementStep', step: 0, outcome: success, now: BEFORE_EXPIRY })).toEqual([completed(0)]);
    const done = given([created, requested(1), held(1), completed(0)]);
    expect(done.status).toBe('COMPLETED');
    expect(when(done, { type: 'ApplySettlementStep', step: 0, outcome: success, now: BEFORE_EXPIRY })).toEqual([]);
    const failed = when(done, { type: 'ApplySettlementStep', step: 1, outcome: returned, now: AFTER_EXPIRY });
    expect(failed).toEqual([
      {
        type: 'QuoteFailed',
        data: {
          ...ref, step: 1, failureReason: 'PAYOUT_RETURNED', failedAt: AFTER_EXPIRY,
          refund: { reference: 'Transaction:t:refund', initiatedAt: AFTER_EXPIRY, settledAt: AFTER_EXPIRY, status: 'COMPLETED', reason: 'PAYOUT_RETURNED' },
        },
      },
    ]);
    const after = given([created, requested(1), held(1), completed(0), ...failed]);
    expect(after.status === 'FAILED' && [after.failureReason, after.stepsApplied, after.completedAt]).toEqual(['PAYOUT_RETURNED', 2, BEFORE_EXPIRY]);
  });

  it('a refund that fails is recorded unsettled', () => {
    const failed = when(given([created, requested(1), held(1)]), {
      type: 'ApplySettlementStep', step: 0, now: BEFORE_EXPIRY,
      outcome: { status: 'FAILED', failureReason: 'REFUND_FAILED', refund: { status: 'FAILED', reason: 'REFUND_FAILED' } },
    });
    expect(failed[0].type === 'QuoteFailed' && failed[0].data.refund).toEqual({
      reference: 'Transaction:t:refund', initiatedAt: BEFORE_EXPIRY, settledAt: null, status: 'FAILED', reason: 'REFUND_FAILED',
    });
  });

  it('refuses settlement before the funds are held or out of order', () => {
    expect(refusal(() => when(given([created, requested(1)]), { type: 'ApplySettlementStep', step: 0, outcome: success, now: BEFORE_EXPIRY })).code).toBe('INVALID_STATE_TRANSITION');
    expect(refusal(() => when(given([created, requested(1), held(1)]), { type: 'ApplySettlementStep', step: 1, outcome: returned, now: BEFORE_EXPIRY })).code).toBe('INVALID_STATE_TRANSITION');
  });
});
