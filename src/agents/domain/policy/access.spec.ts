import { DomainError } from '../../../infra/domain/domain-error';
import { accessRefusal, allowedAccountIds, isAccountAllowed, isTransactionVisible } from './access';
import { AgentPolicy } from './agent-policy';

const USD = 'InternalAccount:0199a000-0000-7000-8000-000000000001';
const EUR = 'InternalAccount:0199a000-0000-7000-8000-000000000002';
const PAYEE = 'ExternalAccount:0199a000-0000-7000-8000-000000000003';

function policy(extra: Partial<AgentPolicy> = {}): AgentPolicy {
  return {
    permissions: ['VIEW_TRANSACTIONS'],
    defaultExecutionMode: 'AUTO',
    spendingLimits: { currency: 'USD', perTransactionLimit: 100, dailyLimit: null, dailyTransactionLimit: null, monthlyLimit: null },
    accountRestrictions: null,
    approvalThresholds: null,
    ...extra,
  };
}

function restrictedTo(...accountIds: string[]): AgentPolicy {
  return policy({ accountRestrictions: { allowedAccountIds: accountIds, accountRules: [] } });
}

function refusalOf(error: DomainError | null): unknown {
  return error && { code: error.code, details: error.details };
}

describe('agent access', () => {
  it('a permission the policy lacks is 403 naming it, for reads and changes alike', () => {
    for (const kind of ['READ', 'CHANGE'] as const) {
      expect(refusalOf(accessRefusal({ isPaused: false, policy: policy() }, 'MANAGE_EXTERNAL_ACCOUNTS', kind))).toEqual({
        code: 'FORBIDDEN',
        details: { reason: 'AGENT_PERMISSION_MISSING', permission: 'MANAGE_EXTERNAL_ACCOUNTS' },
      });
    }
    expect(accessRefusal({ isPaused: false, policy: policy() }, 'VIEW_TRANSACTIONS', 'READ')).toBeNull();
  });

  it('a paused agent reads, but changes nothing; a missing permission is named first', () => {
    const manager = policy({ permissions: ['MANAGE_EXTERNAL_ACCOUNTS'] });
    expect(accessRefusal({ isPaused: true, policy: manager }, 'MANAGE_EXTERNAL_ACCOUNTS', 'READ')).toBeNull();
    expect(refusalOf(accessRefusal({ isPaused: true, policy: manager }, 'MANAGE_EXTERNAL_ACCOUNTS', 'CHANGE'))).toEqual({ code: 'FORBIDDEN', details: { reason: 'AGENT_PAUSED' } });
    expect(refusalOf(accessRefusal({ isPaused: true, policy: policy() }, 'MANAGE_EXTERNAL_ACCOUNTS', 'CHANGE'))).toMatchObject({ details: { reason: 'AGENT_PERMISSION_MISSING' } });
    expect(accessRefusal({ isPaused: false, policy: manager }, 'MANAGE_EXTERNAL_ACCOUNTS', 'CHANGE')).toBeNull();
  });

  it('without restrictions every account is allowed; with them only the listed ones, and an empty list allows none', () => {
    expect(allowedAccountIds(policy())).toBeNull();
    expect(allowedAccountIds(policy({ accountRestrictions: { allowedAccountIds: null, accountRules: [] } }))).toBeNull();
    expect(isAccountAllowed(policy(), EUR)).toBe(true);
    expect(isAccountAllowed(restrictedTo(USD), USD)).toBe(true);
    expect(isAccountAllowed(restrictedTo(USD), EUR)).toBe(false);
    expect(isAccountAllowed(restrictedTo(), USD)).toBe(false);
  });

  it('under restrictions a transaction is visible when either side is an allowed account', () => {
    const incoming = { source: { accountId: PAYEE }, destination: { accountId: USD } };
    const outgoing = { source: { accountId: EUR }, destination: { accountId: PAYEE } };
    const deposited = { source: null, destination: { accountId: PAYEE } };
    const umaIn = { source: { accountId: undefined }, destination: { accountId: USD } };
    expect([incoming, outgoing, deposited].every((transaction) => isTransactionVisible(policy(), transaction))).toBe(true);
    expect(isTransactionVisible(restrictedTo(USD), incoming)).toBe(true);
    expect(isTransactionVisible(restrictedTo(USD), umaIn)).toBe(true);
    expect(isTransactionVisible(restrictedTo(USD), outgoing)).toBe(false);
    expect(isTransactionVisible(restrictedTo(USD), deposited)).toBe(false);
    expect(isTransactionVisible(restrictedTo(USD, EUR), outgoing)).toBe(true);
    expect(isTransactionVisible(restrictedTo(), incoming)).toBe(false);
  });
});
