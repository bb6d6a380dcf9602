import { deciderSpec } from '../../../../test/support/decider-spec';
import { QuoteCommand, quoteDecider } from './quote.decider';
import { QuoteEvent, QuoteScaChallenge, QuoteTerms } from './quote.events';

const CREATED_AT = '2025-10-13T12:00:00.000Z';
const EXPIRES_AT = '2025-10-13T12:15:00.000Z';
const T1 = '2025-10-13T12:01:00.000Z';
const T2 = '2025-10-13T12:02:00.000Z';
const AFTER_EXPIRY = '2025-10-13T12:15:00.001Z';
const ref = { quoteId: 'Quote:q', transactionId: 'Transaction:t', platformId: 'Platform:p' };

const terms: QuoteTerms = {
  ...ref,
  customerId: 'Customer:c',
  platformCustomerId: 'c-1',
  source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:a', customerId: 'Customer:c' },
  destination: { destinationType: 'ACCOUNT', accountId: 'ExternalAccount:e', paymentRail: 'SEPA_INSTANT' },
  sendingCurrency: 'USD',
  receivingCurrency: 'EUR',
  totalSendingAmount: 10_000,
  totalReceivingAmount: 8_600,
  exchangeRate: '1.16',
  feesIncluded: 10,
  platformFeesIncluded: 0,
  rateDetails: { counterpartyMultiplier: 1, counterpartyFixedFee: 0, gridApiMultiplier: 1, gridApiFixedFee: 10, gridApiVariableFeeRate: 0, gridApiVariableFeeAmount: 0 },
  rateSnapshotId: 'rates-1',
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: 10_000,
  paymentRail: 'SEPA_INSTANT',
  paymentInstructions: null,
  counterpartyInformation: null,
  description: null,
  funding: { sourceAccountId: 'InternalAccount:a', sourceAccountType: 'INTERNAL_FIAT', destinationInternalAccountId: null, scenario: 'SUCCESS', scenarioSuffix: null },
  createdAt: CREATED_AT,
  expiresAt: EXPIRES_AT,
};
const realtimeTerms: QuoteTerms = {
  ...terms,
  source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: 'Customer:c' },
  paymentInstructions: [{ accountOrWalletInfo: { accountType: 'USD_ACCOUNT', accountNumber: '1', reference: 'r' } }],
  funding: { ...terms.funding, sourceAccountId: null, sourceAccountType: null },
};

const challenge = (id: string, purpose: string): QuoteScaChallenge => ({ id, expiresAt: '2025-10-13T12:06:00.000Z', factor: 'SMS_OTP', availableFactors: ['SMS_OTP'], purpose });
const authorization = { sequenceId: 's1', scaFactor: 'SMS_OTP', scaChallenge: challenge('ScaChallenge:1', 'CURRENCY_CONVERSION'), scaPlan: { sequenceId: 's1' } };
const created: QuoteEvent = { type: 'QuoteCreated', data: terms };
const requested: QuoteEvent = { type: 'QuoteAuthorizationRequested', data: { ...ref, ...authorization, requestedAt: T1 } };

const spec = deciderSpec(quoteDecider);
const requestAuthorization = (now = T1): QuoteCommand => ({ type: 'RequestAuthorization', ...authorization, now });

describe('quote decider: PENDING_AUTHORIZATION (SCA)', () => {
  it('execute for an SCA customer records the challenge instead of an execution; nothing is held', () => {
    spec.given([created]).when(requestAuthorization()).then([requested]);
    const state = spec.state([created, requested]);
    expect(state.status === 'PENDING_AUTHORIZATION' && state.authorization).toEqual({ sequenceId: 's1', scaFactor: 'SMS_OTP', scaChallenge: authorization.scaChallenge });
    expect(state.status === 'PENDING_AUTHORIZATION' && state.attempts).toBe(0);
  });

  it('refuses execute, a second authorization and a sandbox send while pending: 409 QUOTE_PENDING_AUTHORIZATION', () => {
    const pending = spec.given([created, requested]);
    pending.when(requestAuthorization()).thenError('CONFLICT', { reason: 'QUOTE_PENDING_AUTHORIZATION' });
    pending.when({ type: 'RequestExecution', holdId: 'h', scaFactor: null, now: T1 }).thenError('CONFLICT', { reason: 'QUOTE_PENDING_AUTHORIZATION' });
    const realtime = spec.given([{ type: 'QuoteCreated', data: realtimeTerms }, { ...requested }]);
    realtime.when({ type: 'RecordFunding', currencyCode: 'USD', amount: null, now: T1 }).thenError('CONFLICT', { reason: 'QUOTE_PENDING_AUTHORIZATION' });
    // Expiry never touches it: the execute was accepted before expiresAt.
    pending.when({ type: 'Expire', now: AFTER_EXPIRY }).then([]);
  });

  it('shares execute\'s refusals: expired by the clock, REALTIME_FUNDING', () => {
    spec.given([created]).when(requestAuthorization(AFTER_EXPIRY)).then([{ type: 'QuoteExpired', data: { ...ref, expiredAt: AFTER_EXPIRY } }]);
    spec.given([{ type: 'QuoteCreated', data: realtimeTerms }]).when(requestAuthorization()).thenError('INVALID_INPUT');
  });

  it('records the next challenge once, only for its own sequence', () => {
    const pending = spec.given([created, requested]);
    const next = challenge('ScaChallenge:2', 'PAYOUT');
    const issued: QuoteEvent = { type: 'QuoteScaChallengeIssued', data: { ...ref, sequenceId: 's1', scaChallenge: next, issuedAt: T2 } };
    pending.when({ type: 'RecordScaChallenge', sequenceId: 's1', scaChallenge: next, now: T2 }).then([issued]);
    const after = spec.given([created, requested, issued]);
    expect(after.state.status === 'PENDING_AUTHORIZATION' && after.state.authorization.scaChallenge).toEqual(next);
    after.when({ type: 'RecordScaChallenge', sequenceId: 's1', scaChallenge: next, now: T2 }).then([]);
    pending.when({ type: 'RecordScaChallenge', sequenceId: 'other', scaChallenge: next, now: T2 }).then([]);
  });

  it('the release of a prefunded quote is its execution request (EXECUTING), once', () => {
    const released: QuoteEvent[] = [
      { type: 'QuoteAuthorized', data: { ...ref, sequenceId: 's1', authorizedAt: T2 } },
      {
        type: 'QuoteExecutionRequested',
        data: { ...ref, attempt: 1, holdId: 'hold-1', sourceAccountId: 'InternalAccount:a', amount: 10_000, scaFactor: 'SMS_OTP', requestedAt: T2 },
      },
    ];
    spec.given([created, requested]).when({ type: 'ReleaseAuthorized', sequenceId: 's1', holdId: 'hold-1', now: T2 }).then(released);
    const executing = spec.given([created, requested, ...released]);
    expect(executing.state.status).toBe('EXECUTING');
    executing.when({ type: 'ReleaseAuthorized', sequenceId: 's1', holdId: 'hold-1', now: T2 }).then([]);
    executing.when({ type: 'FailAuthorization', sequenceId: 's1', failureReason: 'SCA_NOT_COMPLETED', now: T2 }).then([]);
  });

  it('a REALTIME_FUNDING quote is created PENDING_AUTHORIZATION and released to PENDING', () => {
    const events: QuoteEvent[] = [
      { type: 'QuoteCreated', data: realtimeTerms },
      { type: 'QuoteAuthorizationRequested', data: { ...ref, ...authorization, requestedAt: CREATED_AT } },
    ];
    spec.given([]).when({ type: 'CreateQuote', terms: realtimeTerms, authorization }).then(events);
    const released: QuoteEvent = { type: 'QuoteAuthorized', data: { ...ref, sequenceId: 's1', authorizedAt: T2 } };
    spec.given(events).when({ type: 'ReleaseAuthorized', sequenceId: 's1', holdId: 'unused', now: T2 }).then([released]);
    const pending = spec.given([...events, released]);
    expect(pending.state.status).toBe('PENDING');
    expect(pending.when({ type: 'RecordFunding', currencyCode: 'USD', amount: null, now: T2 }).events[0].type).toBe('QuoteFunded');
  });

  it('an expired challenge fails the quote with nothing held: FAILED, SCA_NOT_COMPLETED', () => {
    const failed: QuoteEvent = { type: 'QuoteAuthorizationFailed', data: { ...ref, sequenceId: 's1', failureReason: 'SCA_NOT_COMPLETED', failedAt: T2 } };
    spec.given([created, requested]).when({ type: 'FailAuthorization', sequenceId: 's1', failureReason: 'SCA_NOT_COMPLETED', now: T2 }).then([failed]);
    const quote = spec.given([created, requested, failed]);
    const { state } = quote;
    expect(state.status === 'FAILED' && [state.failureReason, state.execution, state.refund, state.stepsApplied]).toEqual(['SCA_NOT_COMPLETED', null, null, 0]);
    quote.when({ type: 'RequestExecution', holdId: 'h', scaFactor: null, now: T2 }).thenError('CONFLICT', { reason: 'QUOTE_ALREADY_EXECUTED' });
    quote.when({ type: 'ApplySettlementStep', step: 0, outcome: { status: 'COMPLETED', failureReason: null, refund: null }, now: T2 }).thenError('INVALID_STATE_TRANSITION');
  });
});
