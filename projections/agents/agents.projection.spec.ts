import { projectionSpec, ProjectionSpec } from '../../test/support/projection-spec';
import { agentsProjection } from './agents.projection';

const PLATFORM = 'Platform:0199a000-0000-7000-8000-0000000000f1';
const AGENT = 'Agent:0199a000-0000-7000-8000-0000000000a9';
const CUSTOMER = 'Customer:0199a000-0000-7000-8000-000000000001';
const ref = { agentId: AGENT, platformId: PLATFORM };
const stream = 'agent-0199a000-0000-7000-8000-0000000000a9';
const policy = {
  permissions: ['VIEW_TRANSACTIONS'],
  defaultExecutionMode: 'AUTO',
  spendingLimits: { currency: 'USD', perTransactionLimit: 50000, dailyLimit: null, dailyTransactionLimit: null, monthlyLimit: null },
  accountRestrictions: null,
  approvalThresholds: null,
};
const created = { stream, type: 'AgentCreated', data: { ...ref, customerId: CUSTOMER, name: 'Payroll', policy, createdAt: '2025-10-13T12:00:00.000Z' } };
const issued = (codeHash: string, issuedAt: string) => ({ stream, type: 'AgentDeviceCodeIssued', data: { ...ref, codeHash, expiresAt: '2025-10-14T12:00:00.000Z', issuedAt } });
const invalidated = { stream, type: 'AgentDeviceCodeInvalidated', data: { ...ref, codeHash: 'code-1', reason: 'REPLACED', invalidatedAt: '2025-10-13T12:01:00.000Z' } };
const redeemed = (codeHash: string, tokenHash: string, previousTokenHash: string | null, redeemedAt: string) => ({
  stream, type: 'AgentDeviceCodeRedeemed', data: { ...ref, codeHash, tokenHash, previousTokenHash, redeemedAt },
});
const paused = { stream, type: 'AgentPaused', data: { ...ref, pausedAt: '2025-10-13T12:03:00.000Z' } };
const deleted = { stream, type: 'AgentDeleted', data: { ...ref, customerId: CUSTOMER, tokenHash: 'token-2', deletedAt: '2025-10-13T12:09:00.000Z' } };

describe('agents projection', () => {
  let spec: ProjectionSpec;
  beforeEach(async () => {
    spec = await projectionSpec(agentsProjection);
  });
  afterEach(async () => {
    await spec.close();
  });

  it('a created agent is one row with its filter columns and record; its code is ACTIVE by hash', async () => {
    await spec.given([created, issued('code-1', '2025-10-13T12:00:00.000Z')]);
    expect(await spec.rows('SELECT platform_id, agent_id, customer_id, is_paused, is_connected, record::json AS record, updated_at FROM agents')).toEqual([
      {
        platform_id: PLATFORM, agent_id: AGENT, customer_id: CUSTOMER, is_paused: false, is_connected: false,
        record: {
          ...ref, customerId: CUSTOMER, name: 'Payroll', isPaused: false, isConnected: false, policy,
          usage: { day: null, dailySpend: 0, dailyTransactionCount: 0, month: null, monthlySpend: 0 },
          createdAt: '2025-10-13T12:00:00.000Z', updatedAt: '2025-10-13T12:00:00.000Z',
        },
        updated_at: new Date('2025-10-13T12:00:00.000Z'),
      },
    ]);
    expect(await spec.rows('SELECT code_hash, agent_id, status, expires_at FROM agent_device_codes')).toEqual([
      { code_hash: 'code-1', agent_id: AGENT, status: 'ACTIVE', expires_at: new Date('2025-10-14T12:00:00.000Z') },
    ]);
  });

  it('codes replaced and redeemed; a reinstall replaces the token; paused shows in the columns', async () => {
    await spec.given([
      created, issued('code-1', '2025-10-13T12:00:00.000Z'), invalidated, issued('code-2', '2025-10-13T12:01:00.000Z'),
      redeemed('code-2', 'token-1', null, '2025-10-13T12:02:00.000Z'), paused,
      issued('code-3', '2025-10-13T12:04:00.000Z'), redeemed('code-3', 'token-2', 'token-1', '2025-10-13T12:05:00.000Z'),
    ]);
    expect(await spec.rows('SELECT code_hash, status FROM agent_device_codes ORDER BY code_hash')).toEqual([
      { code_hash: 'code-1', status: 'INVALIDATED' },
      { code_hash: 'code-2', status: 'REDEEMED' },
      { code_hash: 'code-3', status: 'REDEEMED' },
    ]);
    expect(await spec.rows('SELECT token_hash, platform_id, agent_id, customer_id FROM agent_tokens')).toEqual([
      { token_hash: 'token-2', platform_id: PLATFORM, agent_id: AGENT, customer_id: CUSTOMER },
    ]);
    expect(await spec.rows('SELECT is_paused, is_connected, updated_at FROM agents')).toEqual([
      { is_paused: true, is_connected: true, updated_at: new Date('2025-10-13T12:05:00.000Z') },
    ]);
  });

  it('a deleted agent leaves no row: no agent, no code, no token', async () => {
    await spec.given([created, issued('code-1', '2025-10-13T12:00:00.000Z'), redeemed('code-1', 'token-2', null, '2025-10-13T12:02:00.000Z'), deleted]);
    expect(await spec.rows('SELECT agent_id FROM agents')).toEqual([]);
    expect(await spec.rows('SELECT code_hash FROM agent_device_codes')).toEqual([]);
    expect(await spec.rows('SELECT token_hash FROM agent_tokens')).toEqual([]);
  });
});
