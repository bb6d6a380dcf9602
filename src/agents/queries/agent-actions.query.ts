import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { Page, PageRequest, toPage } from '../../infra/http/pagination';
import { PG_POOL } from '../../infra/postgres/pool';
import { AgentActionStatus } from '../domain/agent-action.events';
import { AgentActionSource, AgentActionView } from './agent-action.view';
import { AgentActionViews } from './agent-action-views';

export interface AgentActionFilters {
  agentId?: string;
  customerId?: string;
  status?: AgentActionStatus;
  createdAfter?: string;
  createdBefore?: string;
}

interface Row {
  record: string;
  created_at: Date;
  action_id: string;
}

/**
 * Read side of agent actions (the `agent_actions` projection), always within one platform: the
 * agent's own list and action, the platform's approval list, and the pending action covering a
 * transaction (`POST /transactions/{id}/approve|reject`).
 */
@Injectable()
export class AgentActionsQuery {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly views: AgentActionViews,
  ) {}

  /** The action when it is this agent's (another agent's answers null, like an unknown id). */
  async findForAgent(platformId: string, agentId: string, actionId: string): Promise<AgentActionView | null> {
    const result = await this.pool.query<{ record: string }>(
      `SELECT record FROM agent_actions WHERE platform_id = $1 AND action_id = $2 AND agent_id = $3`,
      [platformId, actionId, agentId],
    );
    const row = result.rows[0];
    return row ? this.views.present(JSON.parse(row.record) as AgentActionSource) : null;
  }

  /** Whether this agent created the quote (another agent's or the platform's own: false). */
  async isAgentsQuote(platformId: string, agentId: string, quoteId: string): Promise<boolean> {
    const result = await this.pool.query(`SELECT 1 FROM agent_quotes WHERE platform_id = $1 AND quote_id = $2 AND agent_id = $3`, [platformId, quoteId, agentId]);
    return result.rows.length > 0;
  }

  /** The pending action whose quote's transaction this is, if any. */
  async pendingCovering(platformId: string, transactionId: string): Promise<{ agentId: string; actionId: string } | null> {
    const result = await this.pool.query<{ agent_id: string; action_id: string }>(
      `SELECT agent_id, action_id FROM agent_actions WHERE platform_id = $1 AND covered_transaction_id = $2 AND status = 'PENDING_APPROVAL' AND NOT agent_deleted`,
      [platformId, transactionId],
    );
    const row = result.rows[0];
    return row ? { agentId: row.agent_id, actionId: row.action_id } : null;
  }

  /** Keyset-paginated on (created_at, action_id) in `sortOrder`; `totalCount` counts every match. */
  async list(platformId: string, filters: AgentActionFilters, page: PageRequest, sortOrder: 'asc' | 'desc'): Promise<Page<AgentActionView>> {
    // A deleted agent's actions are no one's to list (its pending ones can no longer be approved).
    const conditions = ['platform_id = $1', 'NOT agent_deleted'];
    const params: unknown[] = [platformId];
    const add = (condition: string, value: unknown) => {
      params.push(value);
      conditions.push(condition.replace('?', `$${params.length}`));
    };
    if (filters.agentId !== undefined) add('agent_id = ?', filters.agentId);
    if (filters.customerId !== undefined) add('customer_id = ?', filters.customerId);
    if (filters.status !== undefined) add('status = ?', filters.status);
    if (filters.createdAfter !== undefined) add('created_at >= ?', filters.createdAfter);
    if (filters.createdBefore !== undefined) add('created_at <= ?', filters.createdBefore);
    const total = await this.pool.query<{ count: string }>(`SELECT count(*) FROM agent_actions WHERE ${conditions.join(' AND ')}`, params);
    if (page.cursor) {
      params.push(String(page.cursor.createdAt), String(page.cursor.id));
      conditions.push(`(created_at, action_id) ${sortOrder === 'asc' ? '>' : '<'} ($${params.length - 1}::timestamptz, $${params.length})`);
    }
    params.push(page.limit + 1);
    const direction = sortOrder === 'asc' ? 'ASC' : 'DESC';
    const rows = await this.pool.query<Row>(
      `SELECT record, created_at, action_id FROM agent_actions WHERE ${conditions.join(' AND ')}
       ORDER BY created_at ${direction}, action_id ${direction} LIMIT $${params.length}`,
      params,
    );
    const sources = toPage(
      rows.rows,
      page.limit,
      (row) => JSON.parse(row.record) as AgentActionSource,
      (row) => ({ createdAt: row.created_at.toISOString(), id: row.action_id }),
      Number(total.rows[0].count),
    );
    return { ...sources, data: await this.views.presentAll(sources.data) };
  }
}
