import { Controller, Get, Inject } from '@nestjs/common';
import { Pool } from 'pg';
import { EVENT_STORE, EventStore, positionToString } from '../infra/event-store/event-store.port';
import { HttpResult, withStatus } from '../infra/http/http-result';
import { Public } from '../infra/http/route-metadata';
import { PG_POOL } from '../infra/postgres/pool';
import { QUEUE_SERVICE, QueueService } from '../infra/queue/queue.service';
import { readCheckpoints } from '../infra/projections/checkpoints';

/** Projector lag (events) above which the service reports itself not ready. */
const MAX_READY_LAG_EVENTS = 10_000;

/**
 * `GET /health/live`: the process answers. `GET /health`: readiness with details: Postgres,
 * Redis, each projection's and reactor's position and lag, and the job queues' counts.
 */
@Controller('health')
@Public()
export class HealthController {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(QUEUE_SERVICE) private readonly queues: QueueService,
  ) {}

  @Get('live')
  live(): { status: string } {
    return { status: 'ok' };
  }

  @Get()
  async ready(): Promise<HttpResult> {
    const checks: Record<string, unknown> = {};
    let healthy = true;
    const started = Date.now();
    try {
      await this.pool.query('SELECT 1');
      checks.postgres = { status: 'ok', latencyMs: Date.now() - started };
    } catch (error) {
      healthy = false;
      checks.postgres = { status: 'down', error: String(error) };
    }
    const redisStarted = Date.now();
    try {
      await withTimeout(this.queues.redis().ping(), 1000);
      checks.redis = { status: 'ok', latencyMs: Date.now() - redisStarted };
    } catch (error) {
      healthy = false;
      checks.redis = { status: 'down', error: String(error) };
    }
    try {
      const head = await this.store.headPosition();
      const checkpoints = await readCheckpoints(this.pool);
      const consumers: Record<string, unknown> = {};
      for (const checkpoint of checkpoints.values()) {
        const lagEvents = await this.lagEvents(checkpoint.position.commit, checkpoint.position.prepare);
        if (checkpoint.kind === 'projection' && lagEvents > MAX_READY_LAG_EVENTS) healthy = false;
        consumers[checkpoint.name] = {
          kind: checkpoint.kind,
          version: checkpoint.version,
          position: positionToString(checkpoint.position),
          lagEvents,
          eventsApplied: checkpoint.eventsApplied,
          updatedAt: checkpoint.updatedAt,
        };
      }
      checks.projections = { status: 'ok', head: positionToString(head), consumers };
    } catch (error) {
      checks.projections = { status: 'unknown', error: String(error) };
    }
    try {
      checks.queues = await withTimeout(this.queues.counts(), 1000);
    } catch (error) {
      checks.queues = { status: 'unknown', error: String(error) };
    }
    return withStatus(healthy ? 200 : 503, { status: healthy ? 'ok' : 'degraded', checks });
  }

  /** Events in the log after a position (Postgres adapter); -1 when it cannot be counted. */
  private async lagEvents(commit: bigint, prepare: bigint): Promise<number> {
    try {
      const result = await this.pool.query(
        `SELECT count(*)::int AS lag FROM events WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)`,
        [commit < 0n ? '0' : commit.toString(), prepare.toString()],
      );
      return result.rows[0].lag;
    } catch {
      return -1;
    }
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms))]);
}
