import { deciderSpec } from '../../../../test/support/decider-spec';
import { InternalAccountCommand, internalAccountDecider } from './internal-account.decider';
import { InternalAccountEvent } from './internal-account.events';

const NOW = '2025-10-13T12:00:00.000Z';
const ACCOUNT = 'InternalAccount:0199a000-0000-7000-8000-000000000001';

const spec = deciderSpec(internalAccountDecider);

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
    spec.given([]).when(open).then([opened]);
    spec.given([opened]).when(open).then([]);
  });

  it('refuses every movement on an account that was never opened', () => {
    spec.given([]).when({ type: 'CreditFunds', movementId: 'm', amount: 1, reason: 'X', reference: null, now: NOW }).thenError('NOT_FOUND');
    spec.given([]).when({ type: 'HoldFunds', holdId: 'h', amount: 1, reference: null, now: NOW }).thenError('NOT_FOUND');
  });

  it('credits with the balances after the movement, and a repeated movement id is a no-op', () => {
    spec.given([opened]).when({ type: 'CreditFunds', movementId: 'm1', amount: 500, reason: 'SANDBOX_FUNDING', reference: null, now: NOW }).then([credited('m1', 500, 500)]);
    const after = spec.given([opened, credited('m1', 500, 500)]);
    after.when({ type: 'CreditFunds', movementId: 'm1', amount: 500, reason: 'SANDBOX_FUNDING', reference: null, now: NOW }).then([]);
    after.when({ type: 'CreditFunds', movementId: 'm1', amount: 501, reason: 'SANDBOX_FUNDING', reference: null, now: NOW }).thenError('CONFLICT');
  });

  it.each([0, -1, 1.5, 9_000_000_000_000_001, Number.NaN])('refuses the amount %p with INVALID_AMOUNT', (amount) => {
    const funded = spec.given([opened, credited('m1', 500, 500)]);
    funded.when({ type: 'CreditFunds', movementId: 'm2', amount, reason: 'X', reference: null, now: NOW }).thenError('INVALID_AMOUNT');
    funded.when({ type: 'HoldFunds', holdId: 'h', amount, reference: null, now: NOW }).thenError('INVALID_AMOUNT');
  });

  it('refuses a credit that would take the balance past the maximum amount', () => {
    spec
      .given([opened, credited('m1', 9_000_000_000_000_000, 9_000_000_000_000_000)])
      .when({ type: 'CreditFunds', movementId: 'm2', amount: 1, reason: 'X', reference: null, now: NOW })
      .thenError('AMOUNT_OUT_OF_RANGE');
  });

  it('holds from available, never below zero: INSUFFICIENT_FUNDS when short', () => {
    const funded = spec.given([opened, credited('m1', 500, 500)]);
    funded.when({ type: 'HoldFunds', holdId: 'h1', amount: 200, reference: 'Transaction:t', now: NOW }).then([
      { type: 'FundsHeld', data: { ...ref, holdId: 'h1', amount: 200, reference: 'Transaction:t', available: 300, held: 200, heldAt: NOW } },
    ]);
    expect(funded.when({ type: 'HoldFunds', holdId: 'h2', amount: 501, reference: null, now: NOW }).error).toEqual({
      code: 'INSUFFICIENT_FUNDS',
      message: expect.any(String),
      details: { accountId: ACCOUNT, available: 500, requested: 501 },
    });
  });

  it('settles a hold once (money leaves), releases a hold once (money returns), and never both', () => {
    const held: InternalAccountEvent = {
      type: 'FundsHeld',
      data: { ...ref, holdId: 'h1', amount: 200, reference: null, available: 300, held: 200, heldAt: NOW },
    };
    const holding = spec.given([opened, credited('m1', 500, 500), held]);
    holding.when({ type: 'HoldFunds', holdId: 'h1', amount: 200, reference: null, now: NOW }).then([]);
    const settlement = holding.when({ type: 'SettleHold', holdId: 'h1', now: NOW });
    settlement.then([{ type: 'HoldSettled', data: { ...ref, holdId: 'h1', amount: 200, available: 300, held: 0, settledAt: NOW } }]);
    const afterSettle = spec.given([opened, credited('m1', 500, 500), held, ...settlement.events]);
    afterSettle.when({ type: 'SettleHold', holdId: 'h1', now: NOW }).then([]);
    afterSettle.when({ type: 'ReleaseHold', holdId: 'h1', reason: 'X', now: NOW }).thenError('INVALID_STATE_TRANSITION');

    const holdingAgain = spec.given([opened, credited('m1', 500, 500), held]);
    const release = holdingAgain.when({ type: 'ReleaseHold', holdId: 'h1', reason: 'BANK_REJECTED', now: NOW });
    release.then([
      { type: 'HoldReleased', data: { ...ref, holdId: 'h1', amount: 200, reason: 'BANK_REJECTED', available: 500, held: 0, releasedAt: NOW } },
    ]);
    const afterRelease = spec.given([opened, credited('m1', 500, 500), held, ...release.events]);
    afterRelease.when({ type: 'ReleaseHold', holdId: 'h1', reason: 'X', now: NOW }).then([]);
    afterRelease.when({ type: 'SettleHold', holdId: 'h1', now: NOW }).thenError('INVALID_STATE_TRANSITION');
  });

  it('releasing a hold that never existed does nothing; settling it is NOT_FOUND', () => {
    const open = spec.given([opened]);
    open.when({ type: 'ReleaseHold', holdId: 'none', reason: 'X', now: NOW }).then([]);
    open.when({ type: 'SettleHold', holdId: 'none', now: NOW }).thenError('NOT_FOUND');
  });
  it('voiding an unknown hold leaves a tombstone that refuses a later hold with that id', () => {
    const funded = [opened, credited('m1', 500, 500)];
    const voiding = spec.given(funded).when({ type: 'VoidHold', holdId: 'late', reason: 'QUOTE_EXECUTION_REJECTED', now: NOW });
    voiding.then([{ type: 'HoldVoided', data: { ...ref, holdId: 'late', reason: 'QUOTE_EXECUTION_REJECTED', voidedAt: NOW } }]);
    const voided = spec.given([...funded, ...voiding.events]);
    const state = voided.state;
    expect(state.status === 'open' && [state.available, state.held]).toEqual([500, 0]);
    voided.when({ type: 'HoldFunds', holdId: 'late', amount: 100, reference: null, now: NOW }).thenError('INVALID_STATE_TRANSITION', { reason: 'HOLD_VOIDED' });
    voided.when({ type: 'VoidHold', holdId: 'late', reason: 'X', now: NOW }).then([]);
    voided.when({ type: 'ReleaseHold', holdId: 'late', reason: 'X', now: NOW }).then([]);
    voided.when({ type: 'SettleHold', holdId: 'late', now: NOW }).thenError('INVALID_STATE_TRANSITION');
  });

  it('voiding a placed hold releases it, once', () => {
    const held: InternalAccountEvent = {
      type: 'FundsHeld',
      data: { ...ref, holdId: 'h1', amount: 200, reference: null, available: 300, held: 200, heldAt: NOW },
    };
    const release = spec.given([opened, credited('m1', 500, 500), held]).when({ type: 'VoidHold', holdId: 'h1', reason: 'EXPIRED', now: NOW });
    release.then([
      { type: 'HoldReleased', data: { ...ref, holdId: 'h1', amount: 200, reason: 'EXPIRED', available: 500, held: 0, releasedAt: NOW } },
    ]);
    spec.given([opened, credited('m1', 500, 500), held, ...release.events]).when({ type: 'VoidHold', holdId: 'h1', reason: 'EXPIRED', now: NOW }).then([]);
  });

  describe('status', () => {
    const closedEvent: InternalAccountEvent = {
      type: 'InternalAccountStatusChanged',
      data: { ...ref, previousStatus: 'ACTIVE', status: 'CLOSED', reason: 'CUSTOMER_DELETED', changedAt: NOW },
    };
    const close: InternalAccountCommand = { type: 'CloseInternalAccount', reason: 'CUSTOMER_DELETED', now: NOW };
    const held: InternalAccountEvent = {
      type: 'FundsHeld',
      data: { ...ref, holdId: 'h1', amount: 200, reference: null, available: 300, held: 200, heldAt: NOW },
    };

    it('opens ACTIVE and closes once; closing an account never opened is NOT_FOUND', () => {
      expect(spec.given([opened]).state).toMatchObject({ accountStatus: 'ACTIVE' });
      spec.given([opened]).when(close).then([closedEvent]);
      const closed = spec.given([opened, closedEvent]);
      expect(closed.state).toMatchObject({ accountStatus: 'CLOSED', updatedAt: NOW });
      closed.when(close).then([]);
      spec.given([]).when(close).thenError('NOT_FOUND');
    });

    it('a closed account takes no new hold (400 INVALID_INPUT, ACCOUNT_NOT_ACTIVE); a hold placed before is a no-op to repeat', () => {
      const closed = spec.given([opened, credited('m1', 500, 500), held, closedEvent]);
      expect(closed.when({ type: 'HoldFunds', holdId: 'h2', amount: 100, reference: null, now: NOW }).error).toEqual({
        code: 'INVALID_INPUT',
        message: 'The internal account is CLOSED: no payment may move from or to it',
        details: { reason: 'ACCOUNT_NOT_ACTIVE', accountId: ACCOUNT, accountStatus: 'CLOSED' },
      });
      closed.when({ type: 'HoldFunds', holdId: 'h1', amount: 200, reference: null, now: NOW }).then([]);
    });

    it('what was under way still settles on a closed account, each movement carrying the status', () => {
      const closed = spec.given([opened, credited('m1', 500, 500), held, closedEvent]);
      closed.when({ type: 'SettleHold', holdId: 'h1', now: NOW }).then([
        { type: 'HoldSettled', data: { ...ref, holdId: 'h1', amount: 200, available: 300, held: 0, accountStatus: 'CLOSED', settledAt: NOW } },
      ]);
      closed.when({ type: 'ReleaseHold', holdId: 'h1', reason: 'REFUND', now: NOW }).then([
        { type: 'HoldReleased', data: { ...ref, holdId: 'h1', amount: 200, reason: 'REFUND', available: 500, held: 0, accountStatus: 'CLOSED', releasedAt: NOW } },
      ]);
      closed.when({ type: 'CreditFunds', movementId: 'm2', amount: 50, reason: 'QUOTE_REFUND', reference: null, now: NOW }).then([
        {
          type: 'FundsCredited',
          data: { ...ref, movementId: 'm2', amount: 50, reason: 'QUOTE_REFUND', reference: null, available: 350, held: 200, accountStatus: 'CLOSED', creditedAt: NOW },
        },
      ]);
    });
  });
});
