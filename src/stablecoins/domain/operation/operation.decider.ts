import { Decider } from '../../../infra/domain/decider';
import { operationNotFound } from '../stablecoins.errors';
import { StablecoinOperationCreated, StablecoinOperationEvent, StablecoinOperationStatus } from './operation.events';

export type OperationRecord = Omit<StablecoinOperationCreated['data'], 'status' | 'createdAt'> & {
  failureReason: string | null;
  createdAt: string;
  updatedAt: string;
};

export type OperationState = { status: 'none' } | ({ status: StablecoinOperationStatus } & OperationRecord);
export type ExistingOperation = Exclude<OperationState, { status: 'none' }>;

/** The provider's steps; each is answered once (a replayed task finds the operation moved on). */
export type OperationCommand =
  | ({ type: 'CreateOperation' } & StablecoinOperationCreated['data'])
  | { type: 'RecordFunding'; now: string }
  | { type: 'CompleteOperation'; now: string }
  | { type: 'FailOperation'; failureReason: string; now: string }
  | { type: 'ExpireOperation'; now: string };

/** Where each step may come from: PENDING_FUNDING -> PROCESSING -> COMPLETED, PENDING_PROVIDER -> COMPLETED, failures from any open state. */
const STEP_FROM: Record<Exclude<OperationCommand['type'], 'CreateOperation'>, StablecoinOperationStatus[]> = {
  RecordFunding: ['PENDING_FUNDING'],
  CompleteOperation: ['PENDING_PROVIDER', 'PROCESSING'],
  FailOperation: ['PENDING_FUNDING', 'PENDING_PROVIDER', 'PROCESSING'],
  ExpireOperation: ['PENDING_FUNDING'],
};

/** Whether an operation in `status` takes the step (else the step is a no-op). */
export function acceptsStep(status: StablecoinOperationStatus, step: keyof typeof STEP_FROM): boolean {
  return STEP_FROM[step].includes(status);
}

export const operationDecider: Decider<OperationCommand, OperationState, StablecoinOperationEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    if (command.type === 'CreateOperation') {
      if (state.status !== 'none') return [];
      const { type: _type, ...data } = command;
      return [{ type: 'StablecoinOperationCreated', data }];
    }
    if (state.status === 'none') throw operationNotFound();
    if (!acceptsStep(state.status, command.type)) return [];
    const ref = { operationId: state.operationId, stablecoinId: state.stablecoinId, platformId: state.platformId };
    switch (command.type) {
      case 'RecordFunding':
        return [{ type: 'StablecoinOperationFunded', data: { ...ref, fundedAt: command.now } }];
      case 'CompleteOperation':
        return [{ type: 'StablecoinOperationCompleted', data: { ...ref, completedAt: command.now } }];
      case 'FailOperation':
        return [{ type: 'StablecoinOperationFailed', data: { ...ref, failureReason: command.failureReason, failedAt: command.now } }];
      case 'ExpireOperation':
        return [{ type: 'StablecoinOperationExpired', data: { ...ref, expiredAt: command.now } }];
    }
  },

  evolve(state, event) {
    if (event.type === 'StablecoinOperationCreated') {
      const { status, createdAt, ...data } = event.data;
      return { status, ...data, failureReason: null, createdAt, updatedAt: createdAt };
    }
    if (state.status === 'none') return state;
    switch (event.type) {
      case 'StablecoinOperationFunded':
        return { ...state, status: 'PROCESSING', updatedAt: event.data.fundedAt };
      case 'StablecoinOperationCompleted':
        return { ...state, status: 'COMPLETED', updatedAt: event.data.completedAt };
      case 'StablecoinOperationFailed':
        return { ...state, status: 'FAILED', failureReason: event.data.failureReason, updatedAt: event.data.failedAt };
      case 'StablecoinOperationExpired':
        return { ...state, status: 'EXPIRED', updatedAt: event.data.expiredAt };
    }
  },
};
