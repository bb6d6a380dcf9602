import { Decider } from '../../../infra/domain/decider';
import { DomainError } from '../../../infra/domain/domain-error';
import { MAX_AMOUNT_MINOR } from '../../../shared/currencies';
import { InternalAccountEvent, InternalAccountStatusReason, InternalAccountType } from './internal-account.events';
import {
  AdjustHoldCommand,
  CaptureHoldCommand,
  DebitFundsCommand,
  HoldEntry,
  OpenAccount,
  accountNotActive,
  adjustHold,
  assertAmount,
  captureHold,
  debitFunds,
  insufficientFunds,
  statusAfter,
} from './internal-account.movements';

export type { HoldEntry, HoldStatus, OpenAccount } from './internal-account.movements';
export { ACCOUNT_NOT_ACTIVE, accountNotActive, scratchState } from './internal-account.movements';

export type InternalAccountState = { status: 'none' } | OpenAccount;

export type InternalAccountCommand =
  | {
      type: 'OpenInternalAccount';
      accountId: string;
      platformId: string;
      customerId: string | null;
      accountType: InternalAccountType;
      currency: string;
      now: string;
    }
  | { type: 'CreditFunds'; movementId: string; amount: number; reason: string; reference: string | null; now: string }
  | { type: 'HoldFunds'; holdId: string; amount: number; reference: string | null; now: string }
  | CaptureHoldCommand
  | AdjustHoldCommand
  | DebitFundsCommand
  | { type: 'SettleHold'; holdId: string; now: string }
  | { type: 'ReleaseHold'; holdId: string; reason: string; now: string }
  | { type: 'VoidHold'; holdId: string; reason: string; now: string }
  | { type: 'CloseInternalAccount'; reason: InternalAccountStatusReason; now: string };

export function accountNotFound(): DomainError {
  return new DomainError('NOT_FOUND', 'Internal account not found');
}

/**
 * The ledger of one internal account. Invariants: `available` and `held` never go below zero,
 * `available + held` never exceeds MAX_AMOUNT_MINOR, and a movement or hold id is applied at most
 * once (a repeat with the same amount is a no-op, with another amount a CONFLICT). Money only
 * leaves through a hold (captured in parts or settled whole) or a debit: available + held +
 * captured + settled + debited = credited. An account that is not ACTIVE (closed) refuses new
 * holds, hold increases and debits, so no new payment leaves it; what is already under way still
 * settles: holds are captured, lowered, settled or released, and credits (payouts, refunds) land.
 *
 * `evolve` updates the `holds`, `credits` and `debits` maps in place instead of copying them: a
 * ledger stream can hold many thousands of movements, and its folded state has a single owner (the
 * ledger service serialises work per account). It replaces a hold's entry rather than mutating
 * it, and sets what the event carries (absolute balances and remainders), so applying an event
 * twice to one state changes nothing more (see `scratchState`).
 */
export const internalAccountDecider: Decider<InternalAccountCommand, InternalAccountState, InternalAccountEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    if (command.type === 'OpenInternalAccount') {
      if (state.status === 'open') return [];
      return [
        {
          type: 'InternalAccountOpened',
          data: {
            accountId: command.accountId,
            platformId: command.platformId,
            currency: command.currency,
            customerId: command.customerId,
            accountType: command.accountType,
            openedAt: command.now,
          },
        },
      ];
    }
    if (state.status !== 'open') throw accountNotFound();
    const ref = { accountId: state.accountId, platformId: state.platformId, currency: state.currency };

    switch (command.type) {
      case 'CreditFunds': {
        assertAmount(command.amount);
        const previous = state.credits[command.movementId];
        if (previous !== undefined) {
          if (previous === command.amount) return [];
          throw new DomainError('CONFLICT', 'This movement id was already credited with another amount');
        }
        if (state.available + state.held + command.amount > MAX_AMOUNT_MINOR) {
          throw new DomainError('AMOUNT_OUT_OF_RANGE', `The balance would exceed ${MAX_AMOUNT_MINOR} minor units`);
        }
        return [
          {
            type: 'FundsCredited',
            data: {
              ...ref,
              movementId: command.movementId,
              amount: command.amount,
              reason: command.reason,
              reference: command.reference,
              available: state.available + command.amount,
              held: state.held,
              ...statusAfter(state),
              creditedAt: command.now,
            },
          },
        ];
      }

      case 'HoldFunds': {
        assertAmount(command.amount);
        const existing = state.holds[command.holdId];
        if (existing?.status === 'VOIDED') {
          throw new DomainError('INVALID_STATE_TRANSITION', 'This hold id was voided: nothing may be held under it any more', {
            reason: 'HOLD_VOIDED',
            holdId: command.holdId,
          });
        }
        if (existing) {
          if (existing.amount === command.amount) return [];
          throw new DomainError('CONFLICT', 'This hold id was already used with another amount');
        }
        if (state.accountStatus !== 'ACTIVE') throw accountNotActive(state.accountId, state.accountStatus);
        if (state.available < command.amount) throw insufficientFunds(state, command.amount);
        return [
          {
            type: 'FundsHeld',
            data: {
              ...ref,
              holdId: command.holdId,
              amount: command.amount,
              reference: command.reference,
              available: state.available - command.amount,
              held: state.held + command.amount,
              heldAt: command.now,
            },
          },
        ];
      }

      case 'CaptureHold':
        return captureHold(command, state);

      case 'AdjustHold':
        return adjustHold(command, state);

      case 'DebitFunds':
        return debitFunds(command, state);

      case 'SettleHold': {
        const hold = state.holds[command.holdId];
        if (!hold) throw new DomainError('NOT_FOUND', 'Hold not found');
        if (hold.status === 'SETTLED') return [];
        if (hold.status === 'RELEASED' || hold.status === 'VOIDED') throw new DomainError('INVALID_STATE_TRANSITION', 'The hold was already released');
        // What is still held: a partly captured hold settles its remainder.
        return [
          {
            type: 'HoldSettled',
            data: {
              ...ref,
              holdId: command.holdId,
              amount: hold.remaining,
              available: state.available,
              held: state.held - hold.remaining,
              ...statusAfter(state),
              settledAt: command.now,
            },
          },
        ];
      }

      case 'ReleaseHold':
      case 'VoidHold': {
        const hold = state.holds[command.holdId];
        if (!hold && command.type === 'VoidHold') {
          return [{ type: 'HoldVoided', data: { ...ref, holdId: command.holdId, reason: command.reason, voidedAt: command.now } }];
        }
        // Nothing was held under this id (a hold that was refused): nothing to give back.
        if (!hold || hold.status === 'RELEASED' || hold.status === 'VOIDED') return [];
        if (hold.status === 'SETTLED') throw new DomainError('INVALID_STATE_TRANSITION', 'The hold was already settled');
        return [
          {
            type: 'HoldReleased',
            data: {
              ...ref,
              holdId: command.holdId,
              amount: hold.remaining,
              reason: command.reason,
              available: state.available + hold.remaining,
              held: state.held - hold.remaining,
              ...statusAfter(state),
              releasedAt: command.now,
            },
          },
        ];
      }

      case 'CloseInternalAccount':
        if (state.accountStatus === 'CLOSED') return [];
        return [
          {
            type: 'InternalAccountStatusChanged',
            data: { ...ref, previousStatus: state.accountStatus, status: 'CLOSED', reason: command.reason, changedAt: command.now },
          },
        ];
    }
  },

  evolve(state, event) {
    if (event.type === 'InternalAccountOpened') {
      return {
        status: 'open',
        accountId: event.data.accountId,
        platformId: event.data.platformId,
        customerId: event.data.customerId,
        accountType: event.data.accountType,
        currency: event.data.currency,
        accountStatus: 'ACTIVE',
        available: 0,
        held: 0,
        holds: {},
        credits: {},
        debits: {},
        openedAt: event.data.openedAt,
        updatedAt: event.data.openedAt,
      };
    }
    if (state.status !== 'open') return state;
    switch (event.type) {
      case 'FundsCredited':
        state.credits[event.data.movementId] = event.data.amount;
        return { ...state, available: event.data.available, held: event.data.held, updatedAt: event.data.creditedAt };
      case 'FundsHeld':
        state.holds[event.data.holdId] = { amount: event.data.amount, remaining: event.data.amount, status: 'HELD' };
        return { ...state, available: event.data.available, held: event.data.held, updatedAt: event.data.heldAt };
      case 'HoldCaptured': {
        const hold = state.holds[event.data.holdId];
        const captures = { ...hold.captures, [event.data.captureId]: event.data.amount };
        state.holds[event.data.holdId] = { ...hold, remaining: event.data.remaining, status: event.data.remaining === 0 ? 'SETTLED' : 'HELD', captures };
        return { ...state, available: event.data.available, held: event.data.held, updatedAt: event.data.capturedAt };
      }
      case 'HoldAdjusted': {
        const hold = state.holds[event.data.holdId];
        const adjustments = { ...hold.adjustments, [event.data.adjustmentId]: event.data.remaining };
        state.holds[event.data.holdId] = { ...hold, remaining: event.data.remaining, adjustments };
        return { ...state, available: event.data.available, held: event.data.held, updatedAt: event.data.adjustedAt };
      }
      case 'FundsDebited':
        state.debits[event.data.movementId] = event.data.amount;
        return { ...state, available: event.data.available, held: event.data.held, updatedAt: event.data.debitedAt };
      case 'HoldSettled':
        state.holds[event.data.holdId] = closedHold(state.holds[event.data.holdId], event.data.amount, 'SETTLED');
        return { ...state, available: event.data.available, held: event.data.held, updatedAt: event.data.settledAt };
      case 'HoldReleased':
        state.holds[event.data.holdId] = closedHold(state.holds[event.data.holdId], event.data.amount, 'RELEASED');
        return { ...state, available: event.data.available, held: event.data.held, updatedAt: event.data.releasedAt };
      case 'HoldVoided':
        state.holds[event.data.holdId] = { amount: 0, remaining: 0, status: 'VOIDED' };
        return state;
      case 'InternalAccountStatusChanged':
        return { ...state, accountStatus: event.data.status, updatedAt: event.data.changedAt };
    }
  },
};

/**
 * A hold once settled or released: nothing left in it, its placed amount kept (a repeated
 * HoldFunds compares with it). `movedAmount` stands in for that amount when the hold's placing is
 * not in the state (the event folded alone).
 */
function closedHold(hold: HoldEntry | undefined, movedAmount: number, status: 'SETTLED' | 'RELEASED'): HoldEntry {
  return { ...(hold ?? { amount: movedAmount }), remaining: 0, status };
}

