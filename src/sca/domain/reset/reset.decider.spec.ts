import { deciderSpec } from '../../../../test/support/decider-spec';
import { ResetCommand, TaskNotDue, resetDecider } from './reset.decider';
import { ScaFactorResetEvent } from './reset.events';

const T0 = '2025-10-13T12:00:00.000Z';
const AVAILABLE = '2025-10-14T12:00:00.000Z';
const EXPIRES = '2025-10-15T12:00:00.000Z';
const DAY_MS = 24 * 60 * 60 * 1000;
const ref = { resetId: 'ScaFactorReset:r', platformId: 'Platform:p', customerId: 'Customer:c' };
const mobile = { vaultId: 'sca-sms-mobile:ScaFactorReset:r', last4: '6789' };

const spec = deciderSpec(resetDecider);
const started = (factor: 'SMS_OTP' | 'TOTP' = 'TOTP'): ScaFactorResetEvent => ({
  type: 'ScaFactorResetStarted',
  data: { ...ref, factor, livenessAvailableAt: AVAILABLE, expiresAt: EXPIRES, startedAt: T0 },
});
const passed: ScaFactorResetEvent = { type: 'ScaFactorResetLivenessPassed', data: { ...ref, passedAt: AVAILABLE } };
const completeAt = (now: string, withMobile: typeof mobile | null = null): ResetCommand => ({ type: 'CompleteReset', mobile: withMobile, now });

describe('SCA factor reset decider', () => {
  it('starts with the waiting period and the window after it; a second start is a no-op', () => {
    const start: ResetCommand = { type: 'StartReset', ...ref, factor: 'TOTP', waitMs: DAY_MS, windowMs: DAY_MS, now: T0 };
    spec.given([]).when(start).then([started()]);
    spec.given([started()]).when(start).then([]);
    expect(spec.state([started()])).toMatchObject({ status: 'INITIATED', factor: 'TOTP', expiresAt: EXPIRES });
  });

  it('refuses completion during the wait (400 RESET_NOT_READY), also when the task is late', () => {
    spec.given([started()]).when(completeAt('2025-10-13T13:00:00.000Z')).thenError('INVALID_INPUT', { reason: 'RESET_NOT_READY', livenessAvailableAt: AVAILABLE });
    // Only the task's event releases it: the status is what the history says.
    spec.given([started()]).when(completeAt('2025-10-14T13:00:00.000Z')).thenError('INVALID_INPUT', { reason: 'RESET_NOT_READY' });
  });

  it('the waiting-period task releases the reset at its time, retries when early, and no-ops once done', () => {
    spec.given([started()]).when({ type: 'PassWaitingPeriod', now: AVAILABLE }).then([passed]);
    expect(() => spec.given([started()]).when({ type: 'PassWaitingPeriod', now: T0 }).events).toThrow(TaskNotDue);
    spec.given([started(), passed]).when({ type: 'PassWaitingPeriod', now: AVAILABLE }).then([]);
    expect(spec.state([started(), passed]).status).toBe('LIVENESS_PASSED');
  });

  it('completes once after the wait; SMS_OTP needs the new number', () => {
    const now = '2025-10-14T13:00:00.000Z';
    const completed: ScaFactorResetEvent = { type: 'ScaFactorResetCompleted', data: { ...ref, factor: 'TOTP', mobileVaultId: null, mobileLast4: null, completedAt: now } };
    spec.given([started(), passed]).when(completeAt(now, mobile)).then([completed]);
    spec.given([started(), passed, completed]).when(completeAt(now)).thenError('CONFLICT', { reason: 'RESET_ALREADY_COMPLETED' });
    expect(spec.state([started(), passed, completed])).toMatchObject({ status: 'COMPLETED', completedAt: now });

    spec.given([started('SMS_OTP'), passed]).when(completeAt(now)).thenError('INVALID_INPUT');
    spec
      .given([started('SMS_OTP'), passed])
      .when(completeAt(now, mobile))
      .then([{ type: 'ScaFactorResetCompleted', data: { ...ref, factor: 'SMS_OTP', mobileVaultId: mobile.vaultId, mobileLast4: '6789', completedAt: now } }]);
  });

  it('expires at the end of the window (the task); a late completion is 409 RESET_EXPIRED', () => {
    const expired: ScaFactorResetEvent = { type: 'ScaFactorResetExpired', data: { ...ref, expiredAt: EXPIRES } };
    spec.given([started(), passed]).when({ type: 'ExpireReset', now: EXPIRES }).then([expired]);
    expect(() => spec.given([started(), passed]).when({ type: 'ExpireReset', now: AVAILABLE }).events).toThrow(TaskNotDue);
    spec.given([started(), passed, expired]).when({ type: 'ExpireReset', now: EXPIRES }).then([]);
    spec.given([started(), passed]).when(completeAt(EXPIRES)).thenError('CONFLICT', { reason: 'RESET_EXPIRED' });
    spec.given([started(), passed, expired]).when(completeAt(AVAILABLE)).thenError('CONFLICT', { reason: 'RESET_EXPIRED' });
  });

  it('an unknown reset is 404 for every command but the start', () => {
    spec.given([]).when(completeAt(T0)).thenError('REFERENCE_NOT_FOUND');
    spec.given([]).when({ type: 'ExpireReset', now: T0 }).thenError('REFERENCE_NOT_FOUND');
  });
});
