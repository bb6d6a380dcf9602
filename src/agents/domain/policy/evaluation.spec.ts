import { noUsage } from '../usage';
import { AgentPolicy } from './agent-policy';
import { ActionToEvaluate, PolicySubject, convertMinor, evaluateAccess, evaluateAction } from './evaluation';

const NOW = new Date('2025-10-13T12:00:00.000Z');
const ACCOUNT = 'InternalAccount:0199a000-0000-7000-8000-00000000000a';
const OTHER = 'InternalAccount:0199a000-0000-7000-8000-00000000000b';
// Rounded values in the shape of the quotes' rate snapshot (USD per major unit).
const USD_VALUES = { USD: '1', USDC: '1', EUR: '1.16', BTC: '100000' };

const policy: AgentPolicy = {
  permissions: ['EXECUTE_QUOTES', 'CREATE_TRANSFERS'],
  defaultExecutionMode: 'AUTO',
  spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 100_000, dailyTransactionLimit: 3, monthlyLimit: 300_000 },
  accountRestrictions: null,
  approvalThresholds: { currency: 'USD', amount: 20_000 },
};

function subject(changes: Partial<AgentPolicy> = {}, extra: Partial<PolicySubject> = {}): PolicySubject {
  return { isPaused: false, policy: { ...policy, ...changes }, usage: noUsage(), ...extra };
}

function action(amount: number, changes: Partial<ActionToEvaluate> = {}): ActionToEvaluate {
  return { permission: 'EXECUTE_QUOTES', accountId: ACCOUNT, amount, currency: 'USD', ...changes };
}

const usedToday = (dailySpend: number, dailyTransactionCount: number, monthlySpend = dailySpend) => ({
  day: '2025-10-13', dailySpend, dailyTransactionCount, month: '2025-10', monthlySpend,
});

describe('agent policy evaluation (the matrix)', () => {
  it.each([
    ['paused', subject({}, { isPaused: true }), action(1), 'AGENT_PAUSED'],
    ['permission missing', subject({ permissions: ['CREATE_TRANSFERS'] }), action(1), 'AGENT_PERMISSION_MISSING'],
    ['account outside allowedAccountIds', subject({ accountRestrictions: { allowedAccountIds: [OTHER], accountRules: [] } }), action(1), 'ACCOUNT_NOT_ALLOWED'],
    ['above perTransactionLimit', subject(), action(50_001), 'PER_TRANSACTION_LIMIT_EXCEEDED'],
    ['above an account rule limit', subject({ accountRestrictions: { allowedAccountIds: null, accountRules: [{ accountId: ACCOUNT, executionMode: null, perTransactionLimit: 5_000 }] } }), action(5_001), 'PER_TRANSACTION_LIMIT_EXCEEDED'],
    ['daily count reached', subject({}, { usage: usedToday(0, 3) }), action(1), 'DAILY_TRANSACTION_LIMIT_EXCEEDED'],
    ['daily spend passed', subject({}, { usage: usedToday(90_000, 1) }), action(10_001), 'DAILY_LIMIT_EXCEEDED'],
    ['monthly spend passed', subject({}, { usage: usedToday(0, 0, 290_000) }), action(10_001), 'MONTHLY_LIMIT_EXCEEDED'],
    ['a euro amount above the dollar limit', subject(), action(43_104, { currency: 'EUR' }), 'PER_TRANSACTION_LIMIT_EXCEEDED'],
  ])('refused: %s', (_name, given, request, reason) => {
    expect(evaluateAction(given, request, USD_VALUES, NOW)).toMatchObject({ outcome: 'REFUSED', reason });
  });

  it.each([
    ['within every limit, AUTO, at the threshold', subject(), action(20_000), { outcome: 'AUTO', amountInPolicyCurrency: 20_000 }],
    ['above the threshold', subject(), action(20_001), { outcome: 'APPROVAL_REQUIRED', cause: 'APPROVAL_THRESHOLD' }],
    ['APPROVAL_REQUIRED by default', subject({ defaultExecutionMode: 'APPROVAL_REQUIRED' }), action(1), { outcome: 'APPROVAL_REQUIRED', cause: 'EXECUTION_MODE' }],
    [
      'an account rule overrides the mode and raises the limit',
      subject({ defaultExecutionMode: 'APPROVAL_REQUIRED', approvalThresholds: null, accountRestrictions: { allowedAccountIds: [ACCOUNT], accountRules: [{ accountId: ACCOUNT, executionMode: 'AUTO', perTransactionLimit: 60_000 }] } }),
      action(60_000),
      { outcome: 'AUTO', amountInPolicyCurrency: 60_000 },
    ],
    ['exactly what is left of the day', subject({}, { usage: usedToday(90_000, 2) }), action(10_000), { outcome: 'AUTO' }],
    ["yesterday's usage does not count", subject({}, { usage: { ...usedToday(100_000, 3), day: '2025-10-12' } }), action(10_000), { outcome: 'AUTO' }],
    ['USDC counts 1:1 against a USD limit', subject(), action(150_000_000, { currency: 'USDC' }), { outcome: 'AUTO', amountInPolicyCurrency: 15_000 }],
    ['a euro amount converts (rounded up)', subject(), action(10_000, { currency: 'EUR' }), { outcome: 'AUTO', amountInPolicyCurrency: 11_600 }],
  ])('allowed: %s', (_name, given, request, expected) => {
    expect(evaluateAction(given, request, USD_VALUES, NOW)).toMatchObject(expected);
  });

  it('a threshold in another currency compares in that currency', () => {
    const eurThreshold = subject({ approvalThresholds: { currency: 'EUR', amount: 10_000 } });
    expect(evaluateAction(eurThreshold, action(11_600), USD_VALUES, NOW)).toMatchObject({ outcome: 'AUTO' });
    expect(evaluateAction(eurThreshold, action(11_601), USD_VALUES, NOW)).toMatchObject({ outcome: 'APPROVAL_REQUIRED', cause: 'APPROVAL_THRESHOLD' });
  });

  it('access alone: paused, permission, account; null account skips the restriction', () => {
    expect(evaluateAccess(subject(), 'CREATE_QUOTES', null)).toMatchObject({ reason: 'AGENT_PERMISSION_MISSING', facts: { permission: 'CREATE_QUOTES' } });
    expect(evaluateAccess(subject({ permissions: ['CREATE_QUOTES'], accountRestrictions: { allowedAccountIds: [OTHER], accountRules: [] } }), 'CREATE_QUOTES', null)).toBeNull();
    expect(evaluateAccess(subject({ permissions: ['CREATE_QUOTES'] }), 'CREATE_QUOTES', ACCOUNT)).toBeNull();
  });

  it('converts exactly, rounding up, and refuses a currency without a rate', () => {
    expect(convertMinor(1_000, 'BTC', 'USD', USD_VALUES)).toBe(100);
    expect(convertMinor(1, 'BTC', 'USD', USD_VALUES)).toBe(1);
    expect(convertMinor(1, 'USD', 'BTC', USD_VALUES)).toBe(10);
    expect(convertMinor(100, 'USD', 'USDC', USD_VALUES)).toBe(1_000_000);
    expect(() => convertMinor(1, 'USD', 'MXN', USD_VALUES)).toThrow('No rate for MXN');
  });
});
