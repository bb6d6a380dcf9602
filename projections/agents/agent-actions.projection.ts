import { AGENT_ACTION_EVENT_TYPES, AgentActionEvent } from '../../src/agents';
import { Projection } from '../../src/infra/projections/projection';
import { AgentActionReadRecord, evolveAgentActionRecord } from './agent-action-record';

/**
 * `agent_actions`: one row per agent action (its record, and the columns the agent's list, the
 * platform's approval list and `POST /transactions/{id}/approve|reject` filter on:
 * `covered_transaction_id` is the transaction a pending EXECUTE_QUOTE will be). A deleted agent's
 * actions stay (their audit history is found through them) with `agent_deleted`: its pending
 * ones can no longer be approved and leave the approval list. `agent_quotes`: the
 * quotes each agent created (`GET /agents/me/quotes/{id}` answers only those).
 */
export const agentActionsProjection: Projection = {
  name: 'agent-actions',
  version: 1,
  tables: ['agent_actions', 'agent_quotes'],
  schema: (t) => [
    `CREATE TABLE IF NOT EXISTS ${t('agent_actions')} (
       platform_id text NOT NULL,
       action_id text NOT NULL,
       agent_id text NOT NULL,
       customer_id text NOT NULL,
       status text NOT NULL,
       covered_transaction_id text,
       agent_deleted boolean NOT NULL DEFAULT false,
       record text NOT NULL,
       created_at timestamptz NOT NULL,
       updated_at timestamptz NOT NULL,
       PRIMARY KEY (platform_id, action_id)
     )`,
    `CREATE INDEX ON ${t('agent_actions')} (platform_id, agent_id, created_at, action_id)`,
    `CREATE INDEX ON ${t('agent_actions')} (platform_id, status, created_at, action_id)`,
    `CREATE INDEX ON ${t('agent_actions')} (platform_id, covered_transaction_id) WHERE covered_transaction_id IS NOT NULL`,
    `CREATE TABLE IF NOT EXISTS ${t('agent_quotes')} (
       platform_id text NOT NULL,
       quote_id text NOT NULL,
       agent_id text NOT NULL,
       PRIMARY KEY (platform_id, quote_id)
     )`,
  ],
  handles: [...AGENT_ACTION_EVENT_TYPES, 'AgentDeleted'],
  async apply(event, tx) {
    const table = tx.table('agent_actions');
    if (event.type === 'AgentDeleted') {
      const { platformId, agentId } = event.data as { platformId: string; agentId: string };
      tx.execute(`UPDATE ${table} SET agent_deleted = true WHERE platform_id = $1 AND agent_id = $2`, [platformId, agentId]);
      return;
    }
    const typed = { type: event.type, data: event.data } as unknown as AgentActionEvent;
    if (typed.type === 'AgentQuoteCreated') {
      const { platformId, quoteId, agentId } = typed.data;
      tx.execute(`INSERT INTO ${tx.table('agent_quotes')} (platform_id, quote_id, agent_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [platformId, quoteId, agentId]);
      return;
    }
    const { platformId, actionId } = typed.data;
    const existing = await tx.query<{ record: string }>(`SELECT record FROM ${table} WHERE platform_id = $1 AND action_id = $2`, [platformId, actionId]);
    const previous: AgentActionReadRecord | null = existing.rows[0] ? JSON.parse(existing.rows[0].record) : null;
    const action = evolveAgentActionRecord(previous, typed);
    if (action === null || action === previous) return;
    tx.execute(
      `INSERT INTO ${table} (platform_id, action_id, agent_id, customer_id, status, covered_transaction_id, record, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (platform_id, action_id) DO UPDATE SET status = EXCLUDED.status, record = EXCLUDED.record, updated_at = EXCLUDED.updated_at`,
      [
        action.platformId, action.actionId, action.agentId, action.customerId, action.status, action.request.quoteTransactionId,
        JSON.stringify(action), action.createdAt, action.updatedAt,
      ],
    );
  },
};
