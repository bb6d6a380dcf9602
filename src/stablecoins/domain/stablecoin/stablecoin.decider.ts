import { Decider } from '../../../infra/domain/decider';
import { DomainError } from '../../../infra/domain/domain-error';
import { MAX_AMOUNT_MINOR } from '../../../shared/currencies';
import { insufficientSupply, stablecoinNotFound } from '../stablecoins.errors';
import { StablecoinEvent, StablecoinOperationType, StablecoinRegistered } from './stablecoin.events';

export type StablecoinRecord = Omit<StablecoinRegistered['data'], 'registeredAt'> & { createdAt: string; updatedAt: string };

/** The supply: minted - burned == outstanding, and pending burns never exceed outstanding. */
export interface StablecoinSupply {
  minted: number;
  burned: number;
  outstanding: number;
  /** Operations opened and not yet settled or abandoned, by id. */
  pending: Record<string, PendingOperation>;
  /** Sum of the pending burns' amounts: reserved out of `outstanding`. */
  pendingBurns: number;
  /** Sum of the pending mints' amounts (bounds the supply a completion can reach). */
  pendingMints: number;
}

export interface PendingOperation {
  operationType: StablecoinOperationType;
  amount: number;
}

export type StablecoinState = { status: 'none' } | ({ status: 'registered' } & StablecoinRecord & StablecoinSupply);
export type ExistingStablecoin = Exclude<StablecoinState, { status: 'none' }>;

export type StablecoinCommand =
  | ({ type: 'RegisterStablecoin'; now: string } & Omit<StablecoinRegistered['data'], 'registeredAt'>)
  | { type: 'OpenOperation'; platformId: string; operationId: string; operationType: StablecoinOperationType; amount: number; now: string }
  | { type: 'SettleOperation'; operationId: string; now: string }
  | { type: 'AbandonOperation'; operationId: string; now: string };

export const stablecoinDecider: Decider<StablecoinCommand, StablecoinState, StablecoinEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'RegisterStablecoin': {
        if (state.status !== 'none') {
          throw new DomainError('CONFLICT', 'This provider token is already registered as a stablecoin', {
            reason: 'STABLECOIN_ALREADY_REGISTERED',
            stablecoinId: state.stablecoinId,
          });
        }
        const { type: _type, now, ...data } = command;
        return [{ type: 'StablecoinRegistered', data: { ...data, registeredAt: now } }];
      }
      case 'OpenOperation':
        return decideOpen(state, command);
      case 'SettleOperation': {
        if (state.status === 'none') throw stablecoinNotFound();
        const pending = state.pending[command.operationId];
        if (!pending) return [];
        const { operationType, amount } = pending;
        const minted = state.minted + (operationType === 'MINT' ? amount : 0);
        const burned = state.burned + (operationType === 'BURN' ? amount : 0);
        return [
          {
            type: 'StablecoinSupplyChanged',
            data: { ...refOf(state), operationId: command.operationId, operationType, amount, minted, burned, outstanding: minted - burned, changedAt: command.now },
          },
        ];
      }
      case 'AbandonOperation': {
        if (state.status === 'none') throw stablecoinNotFound();
        const pending = state.pending[command.operationId];
        if (!pending) return [];
        const { operationType, amount } = pending;
        return [{ type: 'StablecoinOperationAbandoned', data: { ...refOf(state), operationId: command.operationId, operationType, amount, abandonedAt: command.now } }];
      }
    }
  },

  evolve(state, event) {
    if (event.type === 'StablecoinRegistered') {
      const { registeredAt, ...data } = event.data;
      return { status: 'registered', ...data, createdAt: registeredAt, updatedAt: registeredAt, minted: 0, burned: 0, outstanding: 0, pending: {}, pendingBurns: 0, pendingMints: 0 };
    }
    if (state.status === 'none') return state;
    switch (event.type) {
      case 'StablecoinOperationOpened': {
        const { operationId, operationType, amount } = event.data;
        return { ...state, pending: { ...state.pending, [operationId]: { operationType, amount } }, ...pendingTotals(state, operationType, amount) };
      }
      case 'StablecoinSupplyChanged': {
        const { operationId, operationType, amount, minted, burned, outstanding } = event.data;
        return { ...state, minted, burned, outstanding, pending: without(state.pending, operationId), ...pendingTotals(state, operationType, -amount), updatedAt: event.data.changedAt };
      }
      case 'StablecoinOperationAbandoned': {
        const { operationId, operationType, amount } = event.data;
        return { ...state, pending: without(state.pending, operationId), ...pendingTotals(state, operationType, -amount) };
      }
    }
  },
};

/**
 * A burn reserves its amount only out of what is outstanding and not reserved already; a mint is
 * refused when the supply it could reach would pass the service's largest amount.
 */
function decideOpen(state: StablecoinState, command: Extract<StablecoinCommand, { type: 'OpenOperation' }>): StablecoinEvent[] {
  if (state.status === 'none' || state.platformId !== command.platformId) throw stablecoinNotFound();
  const { operationId, operationType, amount } = command;
  if (state.pending[operationId]) return [];
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new DomainError('INVALID_AMOUNT', 'amount must be a positive integer');
  if (operationType === 'BURN' && amount > state.outstanding - state.pendingBurns) {
    throw insufficientSupply({ stablecoinId: state.stablecoinId, requested: amount, outstanding: state.outstanding, pendingBurns: state.pendingBurns });
  }
  if (operationType === 'MINT' && state.outstanding + state.pendingMints + amount > MAX_AMOUNT_MINOR) {
    throw new DomainError('INVALID_AMOUNT', `The supply would exceed ${MAX_AMOUNT_MINOR} units`, { reason: 'SUPPLY_LIMIT_EXCEEDED' });
  }
  return [{ type: 'StablecoinOperationOpened', data: { ...refOf(state), operationId, operationType, amount, openedAt: command.now } }];
}

function refOf(state: ExistingStablecoin): { stablecoinId: string; platformId: string } {
  return { stablecoinId: state.stablecoinId, platformId: state.platformId };
}

function pendingTotals(state: ExistingStablecoin, operationType: StablecoinOperationType, delta: number): Pick<StablecoinSupply, 'pendingBurns' | 'pendingMints'> {
  return operationType === 'BURN'
    ? { pendingBurns: state.pendingBurns + delta, pendingMints: state.pendingMints }
    : { pendingBurns: state.pendingBurns, pendingMints: state.pendingMints + delta };
}

function without<T>(map: Record<string, T>, key: string): Record<string, T> {
  const { [key]: _removed, ...rest } = map;
  return rest;
}
