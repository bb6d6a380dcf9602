import { DomainError } from '../../../infra/domain/domain-error';
import { MAX_AMOUNT_MINOR } from '../../../shared/currencies';
import { InternalAccountEvent, InternalAccountStatus, InternalAccountType } from './internal-account.events';

/**
 * The state of an open internal account and the rules its movements share, with the decisions of
 * the movements a card transaction makes (capture, adjust, debit). The decider
 * (internal-account.decider.ts) dispatches to them.
 */

export type HoldStatus = 'HELD' | 'SETTLED' | 'RELEASED' | 'VOIDED';

/** One hold. `evolve` replaces an entry, never mutates one (see `scratchState`). */
export interface HoldEntry {
  /** What the hold placed (FundsHeld): a repeated HoldFunds is compared with it. */
  amount: number;
  /** What it still holds: placed, adjusted, less its captures; 0 once settled, released or voided. */
  remaining: number;
  status: HoldStatus;
  /** Its captures by capture id, with their amounts (absent until the first). */
  captures?: Record<string, number>;
  /** Its adjustments by adjustment id, with the remainder each one set (absent until the first). */
  adjustments?: Record<string, number>;
}

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
  /** Every hold ever placed, by hold id: what makes hold/capture/adjust/settle/release idempotent. */
  holds: Record<string, HoldEntry>;
  /** Every credit ever applied, by movement id, with its amount. */
  credits: Record<string, number>;
  /** Every debit ever applied, by movement id, with its amount. */
  debits: Record<string, number>;
  openedAt: string;
  updatedAt: string;
}

export type CaptureHoldCommand = { type: 'CaptureHold'; holdId: string; captureId: string; amount: number; now: string };
export type AdjustHoldCommand = { type: 'AdjustHold'; holdId: string; adjustmentId: string; amount: number; now: string };
export type DebitFundsCommand = { type: 'DebitFunds'; movementId: string; amount: number; reason: string; reference: string | null; now: string };

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
export function statusAfter(state: OpenAccount): { accountStatus?: InternalAccountStatus } {
  return state.accountStatus === 'ACTIVE' ? {} : { accountStatus: state.accountStatus };
}

export function assertAmount(amount: number, minimum = 1): void {
  if (!Number.isSafeInteger(amount) || amount < minimum || amount > MAX_AMOUNT_MINOR) {
    throw new DomainError('INVALID_AMOUNT', `amount must be an integer from ${minimum} to ${MAX_AMOUNT_MINOR} (minor units)`);
  }
}

export function insufficientFunds(state: OpenAccount, requested: number): DomainError {
  return new DomainError('INSUFFICIENT_FUNDS', 'The account balance is too low for this amount', {
    accountId: state.accountId,
    available: state.available,
    requested,
  });
}

/** A movement id seen before: a no-op with the same amount, a CONFLICT with another. */
function isRepeat(previous: number | undefined, amount: number, what: string): boolean {
  if (previous === undefined) return false;
  if (previous === amount) return true;
  throw new DomainError('CONFLICT', `This ${what} id was already used with another amount`);
}

/** The hold a capture or an adjustment works on: it must exist (NOT_FOUND). */
function existingHold(state: OpenAccount, holdId: string): HoldEntry {
  const hold = state.holds[holdId];
  if (!hold) throw new DomainError('NOT_FOUND', 'Hold not found');
  return hold;
}

function assertHeld(hold: HoldEntry): void {
  if (hold.status !== 'HELD') throw new DomainError('INVALID_STATE_TRANSITION', `The hold was already ${hold.status === 'SETTLED' ? 'settled' : 'released'}`);
}

/**
 * A copy of the state to decide several movements on in turn, evolving between them, without
 * touching `state` (the cached one, true at its revision until the batch commits): evolve writes
 * the maps in place, so the copy's maps are overlays that take the writes and read through to the
 * account's own (O(1), however many movements the account has). Reading through stays true
 * because evolve replaces hold entries and never mutates one.
 */
export function scratchState(state: OpenAccount): OpenAccount {
  return { ...state, holds: Object.create(state.holds), credits: Object.create(state.credits), debits: Object.create(state.debits) };
}

export function refOf(state: OpenAccount) {
  return { accountId: state.accountId, platformId: state.platformId, currency: state.currency };
}

/** `amount` (1..remaining) of a HELD hold leaves the account; at a remainder of 0 the hold is done (SETTLED). */
export function captureHold(command: CaptureHoldCommand, state: OpenAccount): InternalAccountEvent[] {
  const hold = existingHold(state, command.holdId);
  if (isRepeat(hold.captures?.[command.captureId], command.amount, 'capture')) return [];
  assertHeld(hold);
  if (!Number.isSafeInteger(command.amount) || command.amount < 1 || command.amount > hold.remaining) {
    throw new DomainError('INVALID_AMOUNT', 'A capture takes from 1 to what the hold still holds (minor units)', { holdId: command.holdId, remaining: hold.remaining });
  }
  const remaining = hold.remaining - command.amount;
  return [
    {
      type: 'HoldCaptured',
      data: {
        ...refOf(state),
        holdId: command.holdId,
        captureId: command.captureId,
        amount: command.amount,
        remaining,
        available: state.available,
        held: state.held - command.amount,
        ...statusAfter(state),
        capturedAt: command.now,
      },
    },
  ];
}

/**
 * A HELD hold's remainder becomes `amount` (>= 0). An increase comes from available: it needs an
 * ACTIVE account and the funds; a decrease gives back (on a closed account too).
 */
export function adjustHold(command: AdjustHoldCommand, state: OpenAccount): InternalAccountEvent[] {
  const hold = existingHold(state, command.holdId);
  if (isRepeat(hold.adjustments?.[command.adjustmentId], command.amount, 'adjustment')) return [];
  assertHeld(hold);
  assertAmount(command.amount, 0);
  const increase = command.amount - hold.remaining;
  if (increase > 0) {
    if (state.accountStatus !== 'ACTIVE') throw accountNotActive(state.accountId, state.accountStatus);
    if (state.available < increase) throw insufficientFunds(state, increase);
  }
  return [
    {
      type: 'HoldAdjusted',
      data: {
        ...refOf(state),
        holdId: command.holdId,
        adjustmentId: command.adjustmentId,
        previousRemaining: hold.remaining,
        remaining: command.amount,
        available: state.available - increase,
        held: state.held + increase,
        ...statusAfter(state),
        adjustedAt: command.now,
      },
    },
  ];
}

/** Money leaves available directly (no hold): only from an ACTIVE account, never below zero. */
export function debitFunds(command: DebitFundsCommand, state: OpenAccount): InternalAccountEvent[] {
  assertAmount(command.amount);
  if (isRepeat(state.debits[command.movementId], command.amount, 'movement')) return [];
  if (state.accountStatus !== 'ACTIVE') throw accountNotActive(state.accountId, state.accountStatus);
  if (state.available < command.amount) throw insufficientFunds(state, command.amount);
  return [
    {
      type: 'FundsDebited',
      data: {
        ...refOf(state),
        movementId: command.movementId,
        amount: command.amount,
        reason: command.reason,
        reference: command.reference,
        available: state.available - command.amount,
        held: state.held,
        debitedAt: command.now,
      },
    },
  ];
}
