import { deciderSpec } from '../../../test/support/decider-spec';
import { AgentCommand, agentDecider } from './agent.decider';
import { AgentEvent } from './agent.events';
import { AgentPolicy } from './policy/agent-policy';

const NOW = '2025-10-13T12:00:00.000Z';
const LATER = '2025-10-13T12:05:00.000Z';
const EXPIRES = '2025-10-14T12:00:00.000Z';
const PLATFORM = 'Platform:0199a000-0000-7000-8000-0000000000f1';
const AGENT = 'Agent:0199a000-0000-7000-8000-0000000000a9';
const CUSTOMER = 'Customer:0199a000-0000-7000-8000-000000000001';
const ref = { agentId: AGENT, platformId: PLATFORM };

const policy: AgentPolicy = {
  permissions: ['VIEW_TRANSACTIONS'],
  defaultExecutionMode: 'AUTO',
  spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 500_000, dailyTransactionLimit: null, monthlyLimit: null },
  accountRestrictions: null,
  approvalThresholds: null,
};

const created: AgentEvent = { type: 'AgentCreated', data: { ...ref, customerId: CUSTOMER, name: 'Payroll', policy, createdAt: NOW } };
const firstCode: AgentEvent = { type: 'AgentDeviceCodeIssued', data: { ...ref, codeHash: 'hash-1', expiresAt: EXPIRES, issuedAt: NOW } };
const redeemed: AgentEvent = { type: 'AgentDeviceCodeRedeemed', data: { ...ref, codeHash: 'hash-1', tokenHash: 'token-1', previousTokenHash: null, redeemedAt: LATER } };
const deleted: AgentEvent = { type: 'AgentDeleted', data: { ...ref, customerId: CUSTOMER, tokenHash: null, deletedAt: LATER } };

const spec = deciderSpec(agentDecider);
const redeem = (codeHash: string, now = LATER): AgentCommand => ({ type: 'RedeemDeviceCode', codeHash, tokenHash: 'token-2', now });

describe('agent decider', () => {
  it('creating records the agent and its first device code', () => {
    spec
      .given([])
      .when({ type: 'CreateAgent', ...ref, customerId: CUSTOMER, name: 'Payroll', policy, codeHash: 'hash-1', codeExpiresAt: EXPIRES, now: NOW })
      .then([created, firstCode]);
  });

  it('updates record only what changes; another platform is 404', () => {
    spec.given([created, firstCode]).when({ type: 'UpdateAgent', platformId: PLATFORM, changes: { name: 'Payroll', isPaused: true }, now: LATER }).then([
      { type: 'AgentPaused', data: { ...ref, pausedAt: LATER } },
    ]);
    spec.given([created]).when({ type: 'UpdateAgent', platformId: PLATFORM, changes: { isPaused: false }, now: LATER }).then([]);
    spec.given([created]).when({ type: 'UpdateAgent', platformId: 'Platform:other', changes: { name: 'x' }, now: LATER }).thenError('REFERENCE_NOT_FOUND');
  });

  it('a policy change merges spending limits field by field; null removes a limit', () => {
    const outcome = spec.given([created]).when({ type: 'ChangeAgentPolicy', platformId: PLATFORM, usdValues: { USD: '1' }, update: { spendingLimits: { dailyLimit: null, monthlyLimit: 9_000_000 } }, now: LATER });
    outcome.then([
      {
        type: 'AgentPolicyChanged',
        data: { ...ref, previousPolicy: policy, policy: { ...policy, spendingLimits: { ...policy.spendingLimits, dailyLimit: null, monthlyLimit: 9_000_000 } }, changedAt: LATER },
      },
    ]);
    spec.given([created]).when({ type: 'ChangeAgentPolicy', platformId: PLATFORM, usdValues: { USD: '1' }, update: { defaultExecutionMode: 'AUTO' }, now: LATER }).then([]);
  });

  it('a new spending currency must restate every amount limit set', () => {
    spec
      .given([created])
      .when({ type: 'ChangeAgentPolicy', platformId: PLATFORM, usdValues: { USD: '1' }, update: { spendingLimits: { currency: 'EUR', perTransactionLimit: 40_000 } }, now: LATER })
      .thenError('INVALID_INPUT', { reason: 'LIMITS_NOT_RESTATED' });
  });

  it('a new device code invalidates the unredeemed, unexpired ones', () => {
    spec.given([created, firstCode]).when({ type: 'IssueDeviceCode', platformId: PLATFORM, codeHash: 'hash-2', expiresAt: EXPIRES, now: LATER }).then([
      { type: 'AgentDeviceCodeInvalidated', data: { ...ref, codeHash: 'hash-1', reason: 'REPLACED', invalidatedAt: LATER } },
      { type: 'AgentDeviceCodeIssued', data: { ...ref, codeHash: 'hash-2', expiresAt: EXPIRES, issuedAt: LATER } },
    ]);
  });

  it('redemption: once, before expiry, newest code only, and it replaces the previous token', () => {
    spec.given([created, firstCode]).when(redeem('hash-1')).then([
      { type: 'AgentDeviceCodeRedeemed', data: { ...ref, codeHash: 'hash-1', tokenHash: 'token-2', previousTokenHash: null, redeemedAt: LATER } },
    ]);
    spec.given([created, firstCode, redeemed]).when(redeem('hash-1')).thenError('INVALID_INPUT', { reason: 'DEVICE_CODE_ALREADY_REDEEMED' });
    spec.given([created, firstCode]).when(redeem('hash-1', EXPIRES)).thenError('INVALID_INPUT', { reason: 'DEVICE_CODE_EXPIRED' });
    spec.given([created, firstCode]).when(redeem('unknown')).thenError('REFERENCE_NOT_FOUND');
    const reinstall: AgentEvent = { type: 'AgentDeviceCodeIssued', data: { ...ref, codeHash: 'hash-2', expiresAt: EXPIRES, issuedAt: LATER } };
    spec.given([created, firstCode, redeemed, reinstall]).when(redeem('hash-2')).then([
      { type: 'AgentDeviceCodeRedeemed', data: { ...ref, codeHash: 'hash-2', tokenHash: 'token-2', previousTokenHash: 'token-1', redeemedAt: LATER } },
    ]);
    const invalidated: AgentEvent = { type: 'AgentDeviceCodeInvalidated', data: { ...ref, codeHash: 'hash-1', reason: 'REPLACED', invalidatedAt: LATER } };
    spec.given([created, firstCode, invalidated]).when(redeem('hash-1')).thenError('INVALID_INPUT', { reason: 'DEVICE_CODE_INVALIDATED' });
  });

  it('deletion carries the token hash; a deleted agent is 404 and its codes unknown', () => {
    spec.given([created, firstCode, redeemed]).when({ type: 'DeleteAgent', platformId: PLATFORM, now: LATER }).then([
      { type: 'AgentDeleted', data: { ...ref, customerId: CUSTOMER, tokenHash: 'token-1', deletedAt: LATER } },
    ]);
    spec.given([created, deleted]).when({ type: 'DeleteAgent', platformId: PLATFORM, now: LATER }).thenError('REFERENCE_NOT_FOUND');
    spec.given([created, firstCode, deleted]).when(redeem('hash-1')).thenError('REFERENCE_NOT_FOUND');
  });
});
