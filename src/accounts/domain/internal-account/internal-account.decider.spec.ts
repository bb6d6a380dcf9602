import { DomainError } from '../../../infra/domain/domain-error';
import { InternalAccountCommand, InternalAccountState, internalAccountDecider } from './internal-account.decider';
import { InternalAccountEvent } from './internal-account.events';

const NOW = '2025-10-13T12:00:00.000Z';
const ACCOUNT = 'InternalAccount:0199a000-0000-7000-8000-000000000001';

function given(events: InternalAccountEvent[]): InternalAccountState {
  return events.reduce(internalAccountDecider.evolve, internalAccountDecider.initialState());
}

function when(state: InternalAccountState, command: InternalAccountCommand): InternalAccountEvent[] {
  return internalAccountDecider.decide(command, state);
}

function errorCode(work: () => unknown): string | undefined {
  try {
    work();
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
  return undefined;
}

const opened: InternalAccountEvent = {
  type: 'InternalAccountOpened',
  data: { accountId: ACCOUNT, platformId: 'Platform:p', currency: 'USD', customerId: 'Customer:c', accountType: 'INTERNAL_FIAT', openedAt: NOW },
};
const ref = { accountId: ACCOUNT, platformId: 'Platform:p', currency: 'USD' };
const credited = (movementId: string, amount: number, available: number): InternalAccountEvent => ({
  type: 'FundsCredited',
  data: { ...ref, movementId, amount, reason: 'SANDBOX_FUNDING', reference: null, available, held: 0, creditedAt: NOW },
});

describe('internal account ledger decider', () => {
  it('opens once: opening again is a no-op', () => {
    const open: InternalAccountCommand = {
      type: 'OpenInternalAccount', accountId: ACCOUNT, platformId: 'Platform:p', customerId: 'Customer:c', accountType: 'INTERNAL_FIAT', currency: 'USD', now: NOW,
    };
    expect(when(given([]), open)).toEqual([opened]);
    expect(when(given([opened]), open)).toEqual([]);
  });

  it('refuses every movement on an account that was never opened', () => {
    expect(errorCode(() => when(given([]), { type: 'CreditFunds', movementId: 'm', amount: 1, reason: 'X', reference: null, now: NOW }))).toBe('NOT_FOUND');
    expect(errorCode(() => when(given([]), { type: 'HoldFunds', holdId: 'h', amount: 1, reference: null, now: NOW }))).toBe('NOT_FOUND');
  });

  it('credits with the balances after the movement, and a repeated movement id is a no-op', () => {
    const state = given([opened]);
    expect(when(state, { type: 'CreditFunds', movementId: 'm1', amount: 500, reason: 'SANDBOX_FUNDING', reference: null, now: NOW })).toEqual([credited('m1', 500, 500)]);
    const after = given([opened, credited('m1', 500, 500)]);
    expect(when(after, { type: 'CreditFunds', movementId: 'm1', amount: 500, reason: 'SANDBOX_FUNDING', reference: null, now: NOW })).toEqual([]);
    expect(errorCode(() => when(after, { type: 'CreditFunds', movementId: 'm1', amount: 501, reason: 'SANDBOX_FUNDING', reference: null, now: NOW }))).toBe('CONFLICT');
  });

  it.each([0, -1, 1.5, 9_000_000_000_000_001, Number.NaN])('refuses the amount %p with INVALID_AMOUNT', (amount) => {
    const state = given([opened, credited('m1', 500, 500)]);
    expect(errorCode(() => when(state, { type: 'CreditFunds', movementId: 'm2', amount, reason: 'X', reference: null, now: NOW }))).toBe('INVALID_AMOUNT');
    expect(errorCode(() => when(state, { type: 'HoldFunds', holdId: 'h', amount, reference: null, now: NOW }))).toBe('INVALID_AMOUNT');
  });

  it('refuses a credit that would take the balance past the maximum amount', () => {
    const state = given([opened, credited('m1', 9_000_000_000_000_000, 9_000_000_000_000_000)]);
    expect(errorCode(() => when(state, { type: 'CreditFunds', movementId: 'm2', amount: 1, reason: 'X', reference: null, now: NOW }))).toBe('AMOUNT_OUT_OF_RANGE');
  });

  it('holds from available, never below zero: INSUFFICIENT_FUNDS when short', () => {
    const state = given([opened, credited('m1', 500, 500)]);
    expect(when(state, { type: 'HoldFunds', holdId: 'h1', amount: 200, reference: 'Transaction:t', now: NOW })).toEqual([
      { type: 'FundsHeld', data: { ...ref, holdId: 'h1', amount: 200, reference: 'Transaction:t', available: 300, held: 200, heldAt: NOW } },
    ]);
    let thrown: DomainError | undefined;
    try {
      when(state, { type: 'HoldFunds', holdId: 'h2', amount: 501, reference: null, now: NOW });
    } catch (error) {
      thrown = error as DomainError;
    }
    expect(thrown?.code).toBe('INSUFFICIENT_FUNDS');
    expect(thrown?.details).toEqual({ accountId: ACCOUNT, available: 500, requested: 501 });
  });

  it('settles a hold once (money leaves), releases a hold once (money returns), and never both', () => {
    const held: InternalAccountEvent = {
      type: 'FundsHeld',
      data: { ...ref, holdId: 'h1', amount: 200, reference: null, available: 300, held: 200, heldAt: NOW },
    };
    const state = given([opened, credited('m1', 500, 500), held]);
    expect(when(state, { type: 'HoldFunds', holdId: 'h1', amount: 200, reference: null, now: NOW })).toEqual([]);
    const settled = when(state, { type: 'SettleHold', holdId: 'h1', now: NOW });
    expect(settled).toEqual([{ type: 'HoldSettled', data: { ...ref, holdId: 'h1', amount: 200, available: 300, held: 0, settledAt: NOW } }]);
    const afterSettle = given([opened, credited('m1', 500, 500), held, ...settled]);
    expect(when(afterSettle, { type: 'SettleHold', holdId: 'h1', now: NOW })).toEqual([]);
    expect(errorCode(() => when(afterSettle, { type: 'ReleaseHold', holdId: 'h1', reason: 'X', now: NOW }))).toBe('INVALID_STATE_TRANSITION');

    const stateAgain = given([opened, credited('m1', 500, 500), held]);
    const released = when(stateAgain, { type: 'ReleaseHold', holdId: 'h1', reason: 'BANK_REJECTED', now: NOW });
    expect(released).toEqual([
      { type: 'HoldReleased', data: { ...ref, holdId: 'h1', amount: 200, reason: 'BANK_REJECTED', available: 500, held: 0, releasedAt: NOW } },
    ]);
    const afterRelease = given([opened, credited('m1', 500, 500), held, ...released]);
    expect(when(afterRelease, { type: 'ReleaseHold', holdId: 'h1', reason: 'X', now: NOW })).toEqual([]);
    expect(errorCode(() => when(afterRelease, { type: 'SettleHold', holdId: 'h1', now: NOW }))).toBe('INVALID_STATE_TRANSITION');
  });

  it('releasing a hold that never existed does nothing; settling it is NOT_FOUND', () => {
    const state = given([opened]);
    expect(when(state, { type: 'ReleaseHold', holdId: 'none', reason: 'X', now: NOW })).toEqual([]);
    expect(errorCode(() => when(state, { type: 'SettleHold', holdId: 'none', now: NOW }))).toBe('NOT_FOUND');
  });
  it('voiding an unknown hold leaves a tombstone that refuses a later hold with that id', () => {
    const funded = [opened, credited('m1', 500, 500)];
    const voided = when(given(funded), { type: 'VoidHold', holdId: 'late', reason: 'QUOTE_EXECUTION_REJECTED', now: NOW });
    expect(voided).toEqual([{ type: 'HoldVoided', data: { ...ref, holdId: 'late', reason: 'QUOTE_EXECUTION_REJECTED', voidedAt: NOW } }]);
    const state = given([...funded, ...voided]);
    expect(state.status === 'open' && [state.available, state.held]).toEqual([500, 0]);
    let thrown: DomainError | undefined;
    try {
      when(state, { type: 'HoldFunds', holdId: 'late', amount: 100, reference: null, now: NOW });
    } catch (error) {
      thrown = error as DomainError;
    }
    expect([thrown?.code, thrown?.details?.reason]).toEqual(['INVALID_STATE_TRANSITION', 'HOLD_VOIDED']);
    expect(when(state, { type: 'VoidHold', holdId: 'late', reason: 'X', now: NOW })).toEqual([]);
    expect(when(state, { type: 'ReleaseHold', holdId: 'late', reason: 'X', now: NOW })).toEqual([]);
    expect(errorCode(() => when(state, { type: 'SettleHold', holdId: 'late', now: NOW }))).toBe('INVALID_STATE_TRANSITION');
  });

  it('voiding a placed hold releases it, once', () => {
    const held: InternalAccountEvent = {
      type: 'FundsHeld',
      data: { ...ref, holdId: 'h1', amount: 200, reference: null, available: 300, held: 200, heldAt: NOW },
    };
    const state = given([opened, credited('m1', 500, 500), held]);
    const released = when(state, { type: 'VoidHold', holdId: 'h1', reason: 'EXPIRED', now: NOW });
    expect(released).toEqual([
      { type: 'HoldReleased', data: { ...ref, holdId: 'h1', amount: 200, reason: 'EXPIRED', available: 500, held: 0, releasedAt: NOW } },
    ]);
    expect(when(given([opened, credited('m1', 500, 500), held, ...released]), { type: 'VoidHold', holdId: 'h1', reason: 'EXPIRED', now: NOW })).toEqual([]);
  });
});
