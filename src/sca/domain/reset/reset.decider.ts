import { Decider } from '../../../infra/domain/decider';
import { DomainError, ValidationError } from '../../../infra/domain/domain-error';
import { resetNotFound } from '../sca.errors';
import { ScaFactor } from '../sca-factor';
import { ScaFactorResetEvent } from './reset.events';

/** The reference's statuses; `PENDING_REVIEW` and `REJECTED` need a liveness provider (none is wired). */
export type ResetStatus = 'INITIATED' | 'LIVENESS_PASSED' | 'COMPLETED' | 'EXPIRED';

export interface ResetState {
  status: 'none' | ResetStatus;
  resetId: string | null;
  platformId: string | null;
  customerId: string | null;
  factor: ScaFactor | null;
  livenessAvailableAt: string | null;
  expiresAt: string | null;
  startedAt: string | null;
  completedAt: string | null;
}

export type ResetCommand =
  | {
      type: 'StartReset';
      resetId: string;
      platformId: string;
      customerId: string;
      factor: ScaFactor;
      waitMs: number;
      windowMs: number;
      now: string;
    }
  | { type: 'PassWaitingPeriod'; now: string }
  | { type: 'ExpireReset'; now: string }
  | { type: 'CompleteReset'; mobile: { vaultId: string; last4: string } | null; now: string };

/** Thrown by a task that fired before its time, so that the queue runs it again. */
export class TaskNotDue extends Error {}

export const resetDecider: Decider<ResetCommand, ResetState, ScaFactorResetEvent> = {
  initialState: () => ({
    status: 'none',
    resetId: null,
    platformId: null,
    customerId: null,
    factor: null,
    livenessAvailableAt: null,
    expiresAt: null,
    startedAt: null,
    completedAt: null,
  }),

  decide(command, state) {
    if (command.type === 'StartReset') {
      if (state.status !== 'none') return [];
      const availableMs = Date.parse(command.now) + command.waitMs;
      return [
        {
          type: 'ScaFactorResetStarted',
          data: {
            resetId: command.resetId,
            platformId: command.platformId,
            customerId: command.customerId,
            factor: command.factor,
            livenessAvailableAt: new Date(availableMs).toISOString(),
            expiresAt: new Date(availableMs + command.windowMs).toISOString(),
            startedAt: command.now,
          },
        },
      ];
    }
    if (state.status === 'none') throw resetNotFound();
    const ref = { resetId: state.resetId!, platformId: state.platformId!, customerId: state.customerId! };
    switch (command.type) {
      case 'PassWaitingPeriod':
        if (state.status !== 'INITIATED') return [];
        if (before(command.now, state.livenessAvailableAt!)) throw new TaskNotDue(`Reset ${ref.resetId} waits until ${state.livenessAvailableAt}`);
        return [{ type: 'ScaFactorResetLivenessPassed', data: { ...ref, passedAt: command.now } }];
      case 'ExpireReset':
        if (state.status === 'COMPLETED' || state.status === 'EXPIRED') return [];
        if (before(command.now, state.expiresAt!)) throw new TaskNotDue(`Reset ${ref.resetId} is open until ${state.expiresAt}`);
        return [{ type: 'ScaFactorResetExpired', data: { ...ref, expiredAt: command.now } }];
      case 'CompleteReset':
        assertCompletable(state, command.now);
        if (state.factor === 'SMS_OTP' && command.mobile === null) {
          throw new ValidationError([{ field: 'mobile', constraint: {}, message: 'mobile is required to complete an SMS_OTP reset: the new number' }]);
        }
        return [
          {
            type: 'ScaFactorResetCompleted',
            data: {
              ...ref,
              factor: state.factor!,
              mobileVaultId: state.factor === 'SMS_OTP' ? command.mobile!.vaultId : null,
              mobileLast4: state.factor === 'SMS_OTP' ? command.mobile!.last4 : null,
              completedAt: command.now,
            },
          },
        ];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'ScaFactorResetStarted': {
        const data = event.data;
        return {
          ...state,
          status: 'INITIATED',
          resetId: data.resetId,
          platformId: data.platformId,
          customerId: data.customerId,
          factor: data.factor,
          livenessAvailableAt: data.livenessAvailableAt,
          expiresAt: data.expiresAt,
          startedAt: data.startedAt,
        };
      }
      case 'ScaFactorResetLivenessPassed':
        return { ...state, status: 'LIVENESS_PASSED' };
      case 'ScaFactorResetCompleted':
        return { ...state, status: 'COMPLETED', completedAt: event.data.completedAt };
      case 'ScaFactorResetExpired':
        return { ...state, status: 'EXPIRED' };
    }
  },
};

/**
 * Completion needs the waiting period over (400: the reference's "not ready") and the window
 * open; a reset completed or expired is a 409 (start a new one).
 */
function assertCompletable(state: ResetState, now: string): void {
  if (state.status === 'COMPLETED') throw new DomainError('CONFLICT', 'The reset was already completed', { reason: 'RESET_ALREADY_COMPLETED' });
  if (state.status === 'EXPIRED' || !before(now, state.expiresAt!)) {
    throw new DomainError('CONFLICT', 'The reset window closed; start a new reset', { reason: 'RESET_EXPIRED', expiresAt: state.expiresAt });
  }
  if (state.status === 'INITIATED') {
    throw new DomainError('INVALID_INPUT', 'The reset is not ready: its waiting period has not ended', {
      reason: 'RESET_NOT_READY',
      livenessAvailableAt: state.livenessAvailableAt,
    });
  }
}

function before(now: string, instant: string): boolean {
  return Date.parse(now) < Date.parse(instant);
}
