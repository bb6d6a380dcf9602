import { Pool } from 'pg';
import { AuditResourceLocator, eventNames } from '../../audit';
import { streamNameFor } from '../../infra/ids';

/**
 * Agent actions are recorded in their agent's stream (agent-action.events.ts): an action's audit
 * history (`GET /audit/events?resourceId=AgentAction:...`) is the agent stream's events that name
 * it (submitted, approved or rejected with the actor, executed, failed), found through the
 * `agent_actions` read model, which maps each action to its agent. `AgentActionRunClaimed` (which
 * run took the approved action on: coordination between the request and the recovery task) stays
 * in the agent's own history only.
 */
export function agentActionAuditLocator(pool: Pool): AuditResourceLocator {
  return {
    prefixes: ['AgentAction'],
    async locate(resourceId, platformId) {
      const params: unknown[] = [resourceId];
      let sql = 'SELECT agent_id FROM agent_actions WHERE action_id = $1';
      if (platformId !== null) {
        params.push(platformId);
        sql += ' AND platform_id = $2';
      }
      const result = await pool.query<{ agent_id: string }>(sql, params).catch((error: { code?: string }) => {
        // A database whose read models were never created (an operator CLI on a fresh one).
        if (error.code === '42P01') return { rows: [] as Array<{ agent_id: string }> };
        throw error;
      });
      const agentId = result.rows[0]?.agent_id;
      if (!agentId) return null;
      return { streamName: streamNameFor(agentId), concerns: (event) => event.type !== 'AgentActionRunClaimed' && eventNames(event, resourceId) };
    },
  };
}
