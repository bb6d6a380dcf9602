import { Decider } from '../../../infra/domain/decider';
import { DomainError } from '../../../infra/domain/domain-error';
import { MAX_AMOUNT_MINOR } from '../../../shared/currencies';
import { InternalAccountEvent, InternalAccountStatus, InternalAccountStatusReason, InternalAccountType } from './internal-account.events';

export type HoldStatus = 'HELD' | 'SETTLED' | 'RELEASED' | 'VOIDED';

export interface OpenAccount {
  status: 'open';
  accountId: string;
  platformId: string;
  customerId: string | null;
  accountType: InternalAccountType;
  currency: string;
  /** The reference's status (`status` above only says whether the account exists). */
  accountStatus: InternalAccountStatus;
  available: number;
  held: number;
  /** Every hold ever placed, by hold id: what makes hold/settle/release idempotent. */
  holds: Record<string, { amount: number; status: HoldStatus }>;
  /** Every credit ever applied, by movement id, with its amount. */
  credits: Record<string, number>;
  openedAt: string;
  updatedAt: string;
}

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
  | { type: 'SettleHold'; holdId: string; now: string }
  | { type: 'ReleaseHold'; holdId: string; reason: string; now: string }
  | { type: 'VoidHold'; holdId: string; reason: string; now: string }
  | { type: 'CloseInternalAccount'; reason: InternalAccountStatusReason; now: string };

export function accountNotFound(): DomainError {
  return new DomainError('NOT_FOUND', 'Internal account not found');
}

/** `details.reason` of a refusal for an account that is not ACTIVE. */
export const ACCOUNT_NOT_ACTIVE = 'ACCOUNT_NOT_ACTIVE';

/**
 * A payment from (or to) an account that is not ACTIVE. Answered as 400 INVALID_INPUT (every
 * operation that moves money declares 400; the reference has no code for it), with the account
 * and its status in `details`. The ledger refuses holds with it.
 */
export function accountNotActive(accountId: string, accountStatus: InternalAccountStatus): DomainError {
  return new DomainError('INVALID_INPUT', `The internal account is ${accountStatus}: no payment may move from or to it`, {
    reason: ACCOUNT_NOT_ACTIVE,
    accountId,
    accountStatus,
  });
}

/** What a movement carries of the status: nothing while ACTIVE (see StatusAfter in the events). */
function statusAfter(state: OpenAccount): { accountStatus?: InternalAccountStatus } {
  return state.accountStatus === 'ACTIVE' ? {} : { accountStatus: state.accountStatus };
}

function assertAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0 || amount > MAX_AMOUNT_MINOR) {
    throw new DomainError('INVALID_AMOUNT', `amount must be an integer from 1 to ${MAX_AMOUNT_MINOR} (minor units)`);
  }
}

/**
 * The ledger of one internal account. Invariants: `available` and `held` never go below zero,
 * `available + held` never exceeds MAX_AMOUNT_MINOR, and a movement or hold id is applied at most
 * once (a repeat with the same amount is a no-op, with another amount a CONFLICT). An account
 * that is not ACTIVE (closed) refuses new holds, so no payment leaves it; what is already under
 * way still settles: holds settle or are released, and credits (payouts, refunds) land.
 *
 * `evolve` updates the `holds` and `credits` maps in place instead of copying them: a ledger
 * stream can hold many thousands of movements, and its folded state has a single owner (the
 * ledger service serialises work per account).
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
        if (state.available < command.amount) {
          throw new DomainError('INSUFFICIENT_FUNDS', 'The account balance is too low for this amount', {
            accountId: state.accountId,
            available: state.available,
            requested: command.amount,
          });
        }
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

      case 'SettleHold': {
        const hold = state.holds[command.holdId];
        if (!hold) throw new DomainError('NOT_FOUND', 'Hold not found');
        if (hold.status === 'SETTLED') return [];
        if (hold.status === 'RELEASED' || hold.status === 'VOIDED') throw new DomainError('INVALID_STATE_TRANSITION', 'The hold was already released');
        return [
          {
            type: 'HoldSettled',
            data: {
              ...ref,
              holdId: command.holdId,
              amount: hold.amount,
              available: state.available,
              held: state.held - hold.amount,
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
              amount: hold.amount,
              reason: command.reason,
              available: state.available + hold.amount,
              held: state.held - hold.amount,
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
        state.holds[event.data.holdId] = { amount: event.data.amount, status: 'HELD' };
        return { ...state, available: event.data.available, held: event.data.held, updatedAt: event.data.heldAt };
      case 'HoldSettled':
        state.holds[event.data.holdId] = { amount: event.data.amount, status: 'SETTLED' };
        return { ...state, available: event.data.available, held: event.data.held, updatedAt: event.data.settledAt };
      case 'HoldReleased':
        state.holds[event.data.holdId] = { amount: event.data.amount, status: 'RELEASED' };
        return { ...state, available: event.data.available, held: event.data.held, updatedAt: event.data.releasedAt };
      case 'HoldVoided':
        state.holds[event.data.holdId] = { amount: 0, status: 'VOIDED' };
        return state;
      case 'InternalAccountStatusChanged':
        return { ...state, accountStatus: event.data.status, updatedAt: event.data.changedAt };
    }
  },
};
