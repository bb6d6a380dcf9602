import { deciderSpec } from '../../../../test/support/decider-spec';
import { SequenceCommand, SequencePlan, sequenceDecider } from './sequence.decider';
import { ScaSequenceEvent } from './sequence.events';

const T0 = '2025-10-13T12:00:00.000Z';
const T1 = '2025-10-13T12:01:00.000Z';
const EXPIRY = '2025-10-13T12:05:00.000Z';
const AFTER_EXPIRY = '2025-10-13T12:05:00.001Z';
const subject = { type: 'Quote', id: 'Quote:q' };
const ref = { sequenceId: 's1', platformId: 'Platform:p', customerId: 'Customer:c', subject };
const linking = { quoteId: 'Quote:q', amount: 1000, currency: 'EUR', payee: 'ExternalAccount:e' };
const policy = { resendIntervalMs: 30_000, maxResends: 3 };

function plan(steps: SequencePlan['steps'], factor: 'SMS_OTP' | 'PASSKEY' = 'SMS_OTP'): SequencePlan {
  return {
    ...ref,
    factor,
    availableFactors: ['SMS_OTP', 'PASSKEY'],
    steps,
    firstChallenge: { challengeId: 'ScaChallenge:1', issuedAt: T0, expiresAt: EXPIRY, passkey: null },
  };
}
const oneStep = plan([{ purpose: 'TRANSFER', linking }]);
const twoSteps = plan([
  { purpose: 'CURRENCY_CONVERSION', linking },
  { purpose: 'PAYOUT', linking: { ...linking, amount: 1150, currency: 'USD' } },
]);

const spec = deciderSpec(sequenceDecider);
function opened(p: SequencePlan): ScaSequenceEvent[] {
  return spec.given([]).when({ type: 'OpenSequence', plan: p, now: T0 }).events;
}
const authorize = (challengeId: string, now = T1, next: { challengeId: string; expiresAt: string } | null = null): SequenceCommand => ({
  type: 'AuthorizeChallenge',
  challengeId,
  endUserIpAddress: '203.0.113.7',
  next: next && { ...next, issuedAt: now, passkey: null },
  now,
});

describe('SCA challenge sequence decider', () => {
  it('opens with its first challenge, once', () => {
    spec.given([]).when({ type: 'OpenSequence', plan: oneStep, now: T0 }).then([
      { type: 'ScaSequenceOpened', data: { ...ref, factor: 'SMS_OTP', availableFactors: ['SMS_OTP', 'PASSKEY'], steps: oneStep.steps, openedAt: T0 } },
      {
        type: 'ScaChallengeIssued',
        data: {
          ...ref, challengeId: 'ScaChallenge:1', step: 0, purpose: 'TRANSFER', factor: 'SMS_OTP',
          availableFactors: ['SMS_OTP', 'PASSKEY'], expiresAt: EXPIRY, passkey: null, issuedAt: T0,
        },
      },
    ]);
    spec.given(opened(oneStep)).when({ type: 'OpenSequence', plan: oneStep, now: T1 }).then([]);
  });

  it('a single-step sequence completes with its one proof; the same challenge is accepted once', () => {
    const done: ScaSequenceEvent[] = [
      { type: 'ScaChallengeSatisfied', data: { ...ref, challengeId: 'ScaChallenge:1', step: 0, factor: 'SMS_OTP', endUserIpAddress: '203.0.113.7', satisfiedAt: T1 } },
      { type: 'ScaSequenceCompleted', data: { ...ref, completedAt: T1 } },
    ];
    spec.given(opened(oneStep)).when(authorize('ScaChallenge:1')).then(done);
    const completed = spec.given([...opened(oneStep), ...done]);
    expect(completed.state.status).toBe('COMPLETED');
    expect(completed.when(authorize('ScaChallenge:1')).error).toEqual({
      code: 'CONFLICT',
      message: expect.any(String),
      details: { reason: 'SCA_CHALLENGE_ALREADY_AUTHORIZED', challengeId: 'ScaChallenge:1' },
    });
  });

  it('a cross-currency sequence issues CURRENCY_CONVERSION then PAYOUT with a new id, then completes', () => {
    const { events: first } = spec.given(opened(twoSteps)).when(authorize('ScaChallenge:1', T1, { challengeId: 'ScaChallenge:2', expiresAt: '2025-10-13T12:06:00.000Z' }));
    expect(first.map((event) => event.type)).toEqual(['ScaChallengeSatisfied', 'ScaChallengeIssued']);
    expect(first[1].data).toMatchObject({ challengeId: 'ScaChallenge:2', step: 1, purpose: 'PAYOUT', expiresAt: '2025-10-13T12:06:00.000Z' });
    const second = spec.given([...opened(twoSteps), ...first]);
    expect(second.state.status).toBe('OPEN');
    // The first challenge's proof, sent again (a concurrent duplicate), no longer satisfies anything.
    second.when(authorize('ScaChallenge:1')).thenError('CONFLICT', { reason: 'SCA_CHALLENGE_ALREADY_AUTHORIZED' });
    const { events: last } = second.when(authorize('ScaChallenge:2', '2025-10-13T12:02:00.000Z'));
    expect(last.map((event) => event.type)).toEqual(['ScaChallengeSatisfied', 'ScaSequenceCompleted']);
  });

  it('refuses to go on without the next challenge prepared, and an unknown challenge is not found', () => {
    spec.given(opened(twoSteps)).when(authorize('ScaChallenge:1')).thenError('INTERNAL_ERROR');
    spec.given(opened(oneStep)).when(authorize('ScaChallenge:9')).thenError('REFERENCE_NOT_FOUND');
    spec.given([]).when(authorize('ScaChallenge:1')).thenError('REFERENCE_NOT_FOUND');
  });

  it('a proof after expiresAt records the expiry and fails the sequence: SCA_NOT_COMPLETED', () => {
    const events: ScaSequenceEvent[] = [
      { type: 'ScaChallengeExpired', data: { ...ref, challengeId: 'ScaChallenge:1', step: 0, expiredAt: AFTER_EXPIRY } },
      { type: 'ScaSequenceFailed', data: { ...ref, reason: 'SCA_NOT_COMPLETED', failedAt: AFTER_EXPIRY } },
    ];
    spec.given(opened(oneStep)).when(authorize('ScaChallenge:1', AFTER_EXPIRY)).then(events);
    const failed = spec.given([...opened(oneStep), ...events]);
    expect(failed.when(authorize('ScaChallenge:1')).error).toEqual({
      code: 'CONFLICT',
      message: expect.any(String),
      details: { reason: 'SCA_CHALLENGE_EXPIRED', expiresAt: EXPIRY },
    });
  });

  it('the expiry task fails an unsatisfied challenge at expiresAt, and does nothing otherwise', () => {
    const open = spec.given(opened(oneStep));
    open.when({ type: 'ExpireChallenge', challengeId: 'ScaChallenge:1', now: T1 }).then([]);
    expect(open.when({ type: 'ExpireChallenge', challengeId: 'ScaChallenge:1', now: EXPIRY }).events.map((event) => event.type)).toEqual([
      'ScaChallengeExpired',
      'ScaSequenceFailed',
    ]);
    const completed = spec.given([...opened(oneStep), ...open.when(authorize('ScaChallenge:1')).events]);
    completed.when({ type: 'ExpireChallenge', challengeId: 'ScaChallenge:1', now: AFTER_EXPIRY }).then([]);
    open.when({ type: 'ExpireChallenge', challengeId: 'ScaChallenge:other', now: AFTER_EXPIRY }).then([]);
  });

  it('resends an SMS code keeping expiresAt, at most once per interval and maxResends times', () => {
    const base = opened(oneStep);
    expect(spec.given(base).when({ type: 'ResendCode', policy, now: '2025-10-13T12:00:10.000Z' }).error).toEqual({
      code: 'RATE_LIMITED',
      message: expect.any(String),
      details: { reason: 'RESEND_TOO_SOON', retryAfterSeconds: 20 },
    });
    const resent: ScaSequenceEvent[] = [{ type: 'ScaChallengeResent', data: { ...ref, challengeId: 'ScaChallenge:1', resendCount: 1, resentAt: '2025-10-13T12:00:30.000Z' } }];
    spec.given(base).when({ type: 'ResendCode', policy, now: '2025-10-13T12:00:30.000Z' }).then(resent);
    let events = [...base, ...resent];
    expect((spec.state(events) as { current: { expiresAt: string } }).current.expiresAt).toBe(EXPIRY);
    for (const at of ['2025-10-13T12:01:00.000Z', '2025-10-13T12:01:30.000Z']) {
      events = [...events, ...spec.given(events).when({ type: 'ResendCode', policy, now: at }).events];
    }
    expect(spec.given(events).when({ type: 'ResendCode', policy, now: '2025-10-13T12:04:00.000Z' }).error).toEqual({
      code: 'RATE_LIMITED',
      message: expect.any(String),
      details: { reason: 'RESEND_LIMIT_REACHED', retryAfterSeconds: 60 },
    });
  });

  it('refuses to resend a PASSKEY challenge (409), and records the expiry of a lapsed one', () => {
    const passkey = spec.given(opened(plan([{ purpose: 'TRANSFER', linking }], 'PASSKEY')));
    expect(passkey.when({ type: 'ResendCode', policy, now: T1 }).error).toEqual({ code: 'CONFLICT', message: expect.any(String), details: { reason: 'RESEND_NOT_AVAILABLE' } });
    expect(spec.given(opened(oneStep)).when({ type: 'ResendCode', policy, now: AFTER_EXPIRY }).events.map((event) => event.type)).toEqual([
      'ScaChallengeExpired',
      'ScaSequenceFailed',
    ]);
  });
});
