import { AGENT_EVENT_TYPES, AgentEvent } from '../../src/agents';
import { Projection, ProjectionTransaction } from '../../src/infra/projections/projection';
import { AgentReadRecord, evolveAgentRecord } from './agent-record';

/**
 * `agents`: one row per live agent (its record, the list filters' columns); `agent_device_codes`,
 * each code by its sha256 hash (what redemption and the status poll look up); `agent_tokens`,
 * the working access token of each installed agent by its sha256 hash (what the Bearer guard
 * looks up on every request). A deleted agent leaves no row in any of them: its token stops
 * working as soon as the DELETE answers (the answer waits for this read model).
 */
export const agentsProjection: Projection = {
  name: 'agents',
  version: 1,
  tables: ['agents', 'agent_device_codes', 'agent_tokens'],
  schema: (t) => [
    `CREATE TABLE IF NOT EXISTS ${t('agents')} (
       platform_id text NOT NULL,
       agent_id text NOT NULL,
       customer_id text NOT NULL,
       is_paused boolean NOT NULL,
       is_connected boolean NOT NULL,
       record text NOT NULL,
       created_at timestamptz NOT NULL,
       updated_at timestamptz NOT NULL,
       PRIMARY KEY (platform_id, agent_id)
     )`,
    `CREATE INDEX ON ${t('agents')} (platform_id, created_at, agent_id)`,
    `CREATE INDEX ON ${t('agents')} (platform_id, customer_id, created_at, agent_id)`,
    `CREATE TABLE IF NOT EXISTS ${t('agent_device_codes')} (
       code_hash text PRIMARY KEY,
       platform_id text NOT NULL,
       agent_id text NOT NULL,
       status text NOT NULL,
       expires_at timestamptz NOT NULL
     )`,
    `CREATE INDEX ON ${t('agent_device_codes')} (agent_id)`,
    `CREATE TABLE IF NOT EXISTS ${t('agent_tokens')} (
       token_hash text PRIMARY KEY,
       platform_id text NOT NULL,
       agent_id text NOT NULL,
       customer_id text NOT NULL
     )`,
    `CREATE INDEX ON ${t('agent_tokens')} (agent_id)`,
  ],
  handles: AGENT_EVENT_TYPES,
  async apply(event, tx) {
    const typed = { type: event.type, data: event.data } as unknown as AgentEvent;
    applyToCredentials(typed, tx);
    const { platformId, agentId } = typed.data;
    const existing = await tx.query<{ record: string }>(`SELECT record FROM ${tx.table('agents')} WHERE platform_id = $1 AND agent_id = $2`, [platformId, agentId]);
    const previous: AgentReadRecord | null = existing.rows[0] ? JSON.parse(existing.rows[0].record) : null;
    const agent = evolveAgentRecord(previous, typed);
    if (agent === null) {
      tx.execute(`DELETE FROM ${tx.table('agents')} WHERE platform_id = $1 AND agent_id = $2`, [platformId, agentId]);
      return;
    }
    if (agent === previous) return;
    tx.execute(
      `INSERT INTO ${tx.table('agents')} (platform_id, agent_id, customer_id, is_paused, is_connected, record, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (platform_id, agent_id) DO UPDATE SET
         is_paused = EXCLUDED.is_paused, is_connected = EXCLUDED.is_connected, record = EXCLUDED.record, updated_at = EXCLUDED.updated_at`,
      [agent.platformId, agent.agentId, agent.customerId, agent.isPaused, agent.isConnected, JSON.stringify(agent), agent.createdAt, agent.updatedAt],
    );
  },
};

/** Device codes and tokens, by hash. */
function applyToCredentials(event: AgentEvent, tx: ProjectionTransaction): void {
  const codes = tx.table('agent_device_codes');
  const tokens = tx.table('agent_tokens');
  switch (event.type) {
    case 'AgentDeviceCodeIssued': {
      const { codeHash, platformId, agentId, expiresAt } = event.data;
      tx.execute(`INSERT INTO ${codes} (code_hash, platform_id, agent_id, status, expires_at) VALUES ($1, $2, $3, 'ACTIVE', $4) ON CONFLICT (code_hash) DO NOTHING`, [
        codeHash, platformId, agentId, expiresAt,
      ]);
      return;
    }
    case 'AgentDeviceCodeInvalidated':
      tx.execute(`UPDATE ${codes} SET status = 'INVALIDATED' WHERE code_hash = $1`, [event.data.codeHash]);
      return;
    case 'AgentDeviceCodeRedeemed': {
      const { codeHash, tokenHash, previousTokenHash, platformId, agentId } = event.data;
      tx.execute(`UPDATE ${codes} SET status = 'REDEEMED' WHERE code_hash = $1`, [codeHash]);
      if (previousTokenHash) tx.execute(`DELETE FROM ${tokens} WHERE token_hash = $1`, [previousTokenHash]);
      // The customer is the agent's: read from its row, which exists since AgentCreated.
      tx.execute(
        `INSERT INTO ${tokens} (token_hash, platform_id, agent_id, customer_id)
         SELECT $1, platform_id, agent_id, customer_id FROM ${tx.table('agents')} WHERE platform_id = $2 AND agent_id = $3
         ON CONFLICT (token_hash) DO NOTHING`,
        [tokenHash, platformId, agentId],
      );
      return;
    }
    case 'AgentDeleted':
      tx.execute(`DELETE FROM ${tokens} WHERE agent_id = $1`, [event.data.agentId]);
      tx.execute(`DELETE FROM ${codes} WHERE agent_id = $1`, [event.data.agentId]);
      return;
    default:
      return;
  }
}
