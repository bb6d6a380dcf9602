import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { Page, PageRequest, toPage } from '../../infra/http/pagination';
import { PG_POOL } from '../../infra/postgres/pool';
import { AgentRecord, DeviceCodeStatus } from '../domain/agent.decider';
import { AgentView, agentView } from './agent.view';

export interface AgentFilters {
  customerId?: string;
  isPaused?: boolean;
  isConnected?: boolean;
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
  updatedBefore?: string;
}

/** A device code found by its hash (the code itself is never stored). */
export interface DeviceCodeEntry {
  agentId: string;
  platformId: string;
  status: DeviceCodeStatus;
}

/** Whose access token a hash is. */
export interface TokenHolder {
  agentId: string;
  platformId: string;
  customerId: string;
}

interface Row {
  record: string;
  created_at: Date;
  agent_id: string;
}

/**
 * Read side of agents (the `agents` projection). Agents are looked up by platform (an unknown id
 * and another platform's answer null alike); device codes and tokens by their sha256 hash, which
 * is the only thing the caller has (the platform check follows where one applies).
 */
@Injectable()
export class AgentsQuery {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async findById(platformId: string, agentId: string): Promise<AgentView | null> {
    const result = await this.pool.query<{ record: string }>(`SELECT record FROM agents WHERE platform_id = $1 AND agent_id = $2`, [platformId, agentId]);
    const row = result.rows[0];
    return row ? agentView(JSON.parse(row.record) as AgentRecord) : null;
  }

  /** Newest first, keyset-paginated on (created_at, agent_id); `totalCount` counts every match. */
  async list(platformId: string, filters: AgentFilters, page: PageRequest): Promise<Page<AgentView>> {
    const conditions = ['platform_id = $1'];
    const params: unknown[] = [platformId];
    const add = (condition: string, value: unknown) => {
      params.push(value);
      conditions.push(condition.replace('?', `$${params.length}`));
    };
    if (filters.customerId !== undefined) add('customer_id = ?', filters.customerId);
    if (filters.isPaused !== undefined) add('is_paused = ?', filters.isPaused);
    if (filters.isConnected !== undefined) add('is_connected = ?', filters.isConnected);
    if (filters.createdAfter !== undefined) add('created_at >= ?', filters.createdAfter);
    if (filters.createdBefore !== undefined) add('created_at <= ?', filters.createdBefore);
    if (filters.updatedAfter !== undefined) add('updated_at >= ?', filters.updatedAfter);
    if (filters.updatedBefore !== undefined) add('updated_at <= ?', filters.updatedBefore);
    const total = await this.pool.query<{ count: string }>(`SELECT count(*) FROM agents WHERE ${conditions.join(' AND ')}`, params);
    if (page.cursor) {
      params.push(String(page.cursor.createdAt), String(page.cursor.id));
      conditions.push(`(created_at, agent_id) < ($${params.length - 1}::timestamptz, $${params.length})`);
    }
    params.push(page.limit + 1);
    const rows = await this.pool.query<Row>(
      `SELECT record, created_at, agent_id FROM agents WHERE ${conditions.join(' AND ')} ORDER BY created_at DESC, agent_id DESC LIMIT $${params.length}`,
      params,
    );
    const now = new Date();
    return toPage(
      rows.rows,
      page.limit,
      (row) => agentView(JSON.parse(row.record) as AgentRecord, now),
      (row) => ({ createdAt: row.created_at.toISOString(), id: row.agent_id }),
      Number(total.rows[0].count),
    );
  }

  /** The ids of a customer's agents that are not deleted (the read model drops deleted agents). */
  async idsOfCustomer(platformId: string, customerId: string): Promise<string[]> {
    const result = await this.pool.query<{ agent_id: string }>(`SELECT agent_id FROM agents WHERE platform_id = $1 AND customer_id = $2`, [platformId, customerId]);
    return result.rows.map((row) => row.agent_id);
  }

  async deviceCodeByHash(codeHash: string): Promise<DeviceCodeEntry | null> {
    const result = await this.pool.query<{ agent_id: string; platform_id: string; status: DeviceCodeStatus }>(
      `SELECT agent_id, platform_id, status FROM agent_device_codes WHERE code_hash = $1`,
      [codeHash],
    );
    const row = result.rows[0];
    return row ? { agentId: row.agent_id, platformId: row.platform_id, status: row.status } : null;
  }

  /** Read on every agent request, never cached: a deleted agent's token stops in every process at once. */
  async tokenHolder(tokenHash: string): Promise<TokenHolder | null> {
    const result = await this.pool.query<{ agent_id: string; platform_id: string; customer_id: string }>(
      `SELECT agent_id, platform_id, customer_id FROM agent_tokens WHERE token_hash = $1`,
      [tokenHash],
    );
    const row = result.rows[0];
    return row ? { agentId: row.agent_id, platformId: row.platform_id, customerId: row.customer_id } : null;
  }
}
