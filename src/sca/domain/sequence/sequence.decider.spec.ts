import { DomainError } from '../../../infra/domain/domain-error';
import { SequenceCommand, SequencePlan, SequenceState, sequenceDecider } from './sequence.decider';
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

const given = (events: ScaSequenceEvent[]): SequenceState => events.reduce(sequenceDecider.evolve, sequenceDecider.initialState());
const when = (state: SequenceState, command: SequenceCommand) => sequenceDecider.decide(command, state);
function opened(p: SequencePlan): ScaSequenceEvent[] {
  return when(given([]), { type: 'OpenSequence', plan: p, now: T0 });
}
function refusal(work: () => unknown): { code: string; details?: Record<string, unknown> } | undefined {
  try {
    work();
  } catch (error) {
    return { code: (error as DomainError).code, details: (error as DomainError).details };
  }
  return undefined;
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
    const events = opened(oneStep);
    expect(events).toEqual([
      { type: 'ScaSequenceOpened', data: { ...ref, factor: 'SMS_OTP', availableFactors: ['SMS_OTP', 'PASSKEY'], steps: oneStep.steps, openedAt: T0 } },
      {
        type: 'ScaChallengeIssued',
        data: {
          ...ref, challengeId: 'ScaChallenge:1', step: 0, purpose: 'TRANSFER', factor: 'SMS_OTP',
          availableFactors: ['SMS_OTP', 'PASSKEY'], expiresAt: EXPIRY, passkey: null, issuedAt: T0,
        },
      },
    ]);
    expect(when(given(events), { type: 'OpenSequence', plan: oneStep, now: T1 })).toEqual([]);
  });

  it('a single-step sequence completes with its one proof; the same challenge is accepted once', () => {
    const state = given(opened(oneStep));
    const done = when(state, authorize('ScaChallenge:1'));
    expect(done).toEqual([
      { type: 'ScaChallengeSatisfied', data: { ...ref, challengeId: 'ScaChallenge:1', step: 0, factor: 'SMS_OTP', endUserIpAddress: '203.0.113.7', satisfiedAt: T1 } },
      { type: 'ScaSequenceCompleted', data: { ...ref, completedAt: T1 } },
    ]);
    const completed = given([...opened(oneStep), ...done]);
    expect(completed.status).toBe('COMPLETED');
    expect(refusal(() => when(completed, authorize('ScaChallenge:1')))).toEqual({
      code: 'CONFLICT',
      details: { reason: 'SCA_CHALLENGE_ALREADY_AUTHORIZED', challengeId: 'ScaChallenge:1' },
    });
  });

  it('a cross-currency sequence issues CURRENCY_CONVERSION then PAYOUT with a new id, then completes', () => {
    const first = when(given(opened(twoSteps)), authorize('ScaChallenge:1', T1, { challengeId: 'ScaChallenge:2', expiresAt: '2025-10-13T12:06:00.000Z' }));
    expect(first.map((event) => event.type)).toEqual(['ScaChallengeSatisfied', 'ScaChallengeIssued']);
    expect(first[1].data).toMatchObject({ challengeId: 'ScaChallenge:2', step: 1, purpose: 'PAYOUT', expiresAt: '2025-10-13T12:06:00.000Z' });
    const second = given([...opened(twoSteps), ...first]);
    expect(second.status).toBe('OPEN');
    // The first challenge's proof, sent again (a concurrent duplicate), no longer satisfies anything.
    expect(refusal(() => when(second, authorize('ScaChallenge:1')))?.details?.reason).toBe('SCA_CHALLENGE_ALREADY_AUTHORIZED');
    const last = when(second, authorize('ScaChallenge:2', '2025-10-13T12:02:00.000Z'));
    expect(last.map((event) => event.type)).toEqual(['ScaChallengeSatisfied', 'ScaSequenceCompleted']);
  });

  it('refuses to go on without the next challenge prepared, and an unknown challenge is not found', () => {
    expect(refusal(() => when(given(opened(twoSteps)), authorize('ScaChallenge:1')))?.code).toBe('INTERNAL_ERROR');
    expect(refusal(() => when(given(opened(oneStep)), authorize('ScaChallenge:9')))?.code).toBe('REFERENCE_NOT_FOUND');
    expect(refusal(() => when(given([]), authorize('ScaChallenge:1')))?.code).toBe('REFERENCE_NOT_FOUND');
  });

  it('a proof after expiresAt records the expiry and fails the sequence: SCA_NOT_COMPLETED', () => {
    const events = when(given(opened(oneStep)), authorize('ScaChallenge:1', AFTER_EXPIRY));
    expect(events).toEqual([
      { type: 'ScaChallengeExpired', data: { ...ref, challengeId: 'ScaChallenge:1', step: 0, expiredAt: AFTER_EXPIRY } },
      { type: 'ScaSequenceFailed', data: { ...ref, reason: 'SCA_NOT_COMPLETED', failedAt: AFTER_EXPIRY } },
    ]);
    const failed = given([...opened(oneStep), ...events]);
    expect(refusal(() => when(failed, authorize('ScaChallenge:1')))).toEqual({ code: 'CONFLICT', details: { reason: 'SCA_CHALLENGE_EXPIRED', expiresAt: EXPIRY } });
  });

  it('the expiry task fails an unsatisfied challenge at expiresAt, and does nothing otherwise', () => {
    const state = given(opened(oneStep));
    expect(when(state, { type: 'ExpireChallenge', challengeId: 'ScaChallenge:1', now: T1 })).toEqual([]);
    expect(when(state, { type: 'ExpireChallenge', challengeId: 'ScaChallenge:1', now: EXPIRY }).map((event) => event.type)).toEqual([
      'ScaChallengeExpired',
      'ScaSequenceFailed',
    ]);
    const completed = given([...opened(oneStep), ...when(state, authorize('ScaChallenge:1'))]);
    expect(when(completed, { type: 'ExpireChallenge', challengeId: 'ScaChallenge:1', now: AFTER_EXPIRY })).toEqual([]);
    expect(when(state, { type: 'ExpireChallenge', challengeId: 'ScaChallenge:other', now: AFTER_EXPIRY })).toEqual([]);
  });

  it('resends an SMS code keeping expiresAt, at most once per interval and maxResends times', () => {
    const base = opened(oneStep);
    expect(refusal(() => when(given(base), { type: 'ResendCode', policy, now: '2025-10-13T12:00:10.000Z' }))).toEqual({
      code: 'RATE_LIMITED',
      details: { reason: 'RESEND_TOO_SOON', retryAfterSeconds: 20 },
    });
    const resent = when(given(base), { type: 'ResendCode', policy, now: '2025-10-13T12:00:30.000Z' });
    expect(resent).toEqual([{ type: 'ScaChallengeResent', data: { ...ref, challengeId: 'ScaChallenge:1', resendCount: 1, resentAt: '2025-10-13T12:00:30.000Z' } }]);
    let events = [...base, ...resent];
    expect((given(events) as { current: { expiresAt: string } }).current.expiresAt).toBe(EXPIRY);
    for (const at of ['2025-10-13T12:01:00.000Z', '2025-10-13T12:01:30.000Z']) {
      events = [...events, ...when(given(events), { type: 'ResendCode', policy, now: at })];
    }
    expect(refusal(() => when(given(events), { type: 'ResendCode', policy, now: '2025-10-13T12:04:00.000Z' }))).toEqual({
      code: 'RATE_LIMITED',
      details: { reason: 'RESEND_LIMIT_REACHED', retryAfterSeconds: 60 },
    });
  });

  it('refuses to resend a PASSKEY challenge (409), and records the expiry of a lapsed one', () => {
    const passkey = given(opened(plan([{ purpose: 'TRANSFER', linking }], 'PASSKEY')));
    expect(refusal(() => when(passkey, { type: 'ResendCode', policy, now: T1 }))).toEqual({ code: 'CONFLICT', details: { reason: 'RESEND_NOT_AVAILABLE' } });
    expect(when(given(opened(oneStep)), { type: 'ResendCode', policy, now: AFTER_EXPIRY }).map((event) => event.type)).toEqual([
      'ScaChallengeExpired',
      'ScaSequenceFailed',
    ]);
  });
});
