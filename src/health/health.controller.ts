import { Controller, Get, Inject } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { Pool } from 'pg';
import { EVENT_STORE, EventStore } from '../infra/event-store/event-store.port';
import { HttpResult, withStatus } from '../infra/http/http-result';
import { Public } from '../infra/http/route-metadata';
import { PG_POOL } from '../infra/postgres/pool';
import { PROJECTIONS, Projection } from '../infra/projections/projection';
import { ConsumerStatus, projectionsStatus } from '../infra/projections/projection-status';
import { QUEUE_SERVICE, QueueService } from '../infra/queue/queue.service';

/** A projection further behind than this (events, or age of its oldest unprocessed event) makes the service not ready. */
export const MAX_READY_LAG_EVENTS = 10_000;
export const MAX_READY_LAG_SECONDS = 30;
/**
 * Each dependency check gives up after this (they run in parallel, so a whole answer takes about
 * as long at worst): a dead dependency must not hold a load balancer's probe.
 */
export const CHECK_TIMEOUT_MS = 1000;

type CheckStatus = 'ok' | 'degraded' | 'down';

/**
 * `GET /health/live`.
 * @example { "status": "ok" }
 */
export interface Liveness {
  status: string;
}

/**
 * `GET /health`: readiness, each dependency's check, each projection's and reactor's position.
 * @example
 * {
 *   "status": "ok",
 *   "checks": {
 *     "postgres": { "status": "ok", "latencyMs": 2 },
 *     "redis": { "status": "ok", "latencyMs": 1 },
 *     "projections": {
 *       "status": "ok",
 *       "head": "48213/48213",
 *       "consumers": {
 *         "quotes": { "kind": "projection", "state": "ok", "version": 3, "codeVersion": 3, "position": "48213/48213", "lagEvents": 0, "lagCapped": false, "lagSeconds": 0, "eventsApplied": 9120, "updatedAt": "2025-11-03T14:22:30.120Z", "lastError": null, "lastErrorAt": null },
 *         "webhook-dispatch": { "kind": "reactor", "state": "ok", "version": 1, "codeVersion": 1, "position": "48210/48210", "lagEvents": 3, "lagCapped": false, "lagSeconds": 0.4, "eventsApplied": 20417, "updatedAt": "2025-11-03T14:22:29.870Z", "lastError": null, "lastErrorAt": null }
 *       }
 *     },
 *     "queues": { "webhook-delivery": { "waiting": 0, "active": 1, "delayed": 2, "failed": 0 } }
 *   }
 * }
 */
export interface HealthReport {
  status: 'ok' | 'degraded' | 'unavailable';
  checks: {
    postgres: { status: CheckStatus; latencyMs?: number; error?: string };
    redis: { status: CheckStatus; latencyMs?: number; error?: string };
    projections: { status: CheckStatus; head?: string; reasons?: string[]; consumers?: Record<string, unknown>; error?: string };
    queues: Record<string, unknown>;
  };
}

/**
 * `GET /health/live`: the process answers. `GET /health`: readiness with details.
 * - 503 `unavailable` when Postgres or Redis does not answer, or a projection lags more than
 *   MAX_READY_LAG_EVENTS events or MAX_READY_LAG_SECONDS seconds (reads would be stale, and
 *   every write would wait out the read-your-writes bound);
 * - 200 `degraded` when a projection or reactor is stuck on an event (`lastError`) but still
 *   within those bounds, or a reactor lags: requests are served, an operator should look;
 * - 200 `ok` otherwise.
 * Details: each projection's and reactor's position, lag and error, and the job queues' counts.
 */
@Controller('health')
@Public()
export class HealthController {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(QUEUE_SERVICE) private readonly queues: QueueService,
    @Inject(PROJECTIONS) private readonly projections: Projection[],
  ) {}

  /** Touches no dependency: a process whose Postgres or Redis is down is alive (and recovers by itself). */
  @Get('live')
  live(): Liveness {
    return { status: 'ok' };
  }

  @Get()
  // Not ready answers the same report, with 503 (load balancers read the status).
  @ApiResponse({ status: 503, description: 'Not ready', content: { 'application/json': { schema: { $ref: '#/components/schemas/HealthReport' } } } })
  async ready(): Promise<HttpResult<HealthReport>> {
    const [postgres, redis, projections, queues] = await Promise.all([
      this.timed(() => this.pool.query('SELECT 1')),
      // A connection that is down says so without a round trip (a PING would only wait in its queue).
      this.timed(() => (this.queues.isRedisReady() ? this.queues.redis().ping() : Promise.reject(new Error(`redis connection ${this.queues.redis().status}`)))),
      this.projectionsCheck(),
      withTimeout(this.queues.counts(), CHECK_TIMEOUT_MS).catch((error) => ({ status: 'unknown', error: String(error) })),
    ]);
    const statuses: CheckStatus[] = [postgres.status, redis.status, projections.status];
    const overall: HealthReport['status'] = statuses.includes('down') ? 'unavailable' : statuses.includes('degraded') ? 'degraded' : 'ok';
    return withStatus(overall === 'unavailable' ? 503 : 200, {
      status: overall,
      checks: { postgres, redis, projections, queues },
    });
  }

  private async timed(probe: () => Promise<unknown>): Promise<{ status: CheckStatus; latencyMs?: number; error?: string }> {
    const started = Date.now();
    try {
      await withTimeout(probe(), CHECK_TIMEOUT_MS);
      return { status: 'ok', latencyMs: Date.now() - started };
    } catch (error) {
      return { status: 'down', error: String(error) };
    }
  }

  private async projectionsCheck(): Promise<{ status: CheckStatus; head?: string; reasons?: string[]; consumers?: Record<string, unknown>; error?: string }> {
    try {
      const status = await withTimeout(
        projectionsStatus(this.pool, this.store, this.projections, { lagCountCap: MAX_READY_LAG_EVENTS + 1 }),
        CHECK_TIMEOUT_MS,
      );
      const reasons: string[] = [];
      let worst: CheckStatus = 'ok';
      for (const consumer of status.consumers) {
        const tooFarBehind = consumer.lagEvents > MAX_READY_LAG_EVENTS || consumer.lagSeconds > MAX_READY_LAG_SECONDS;
        if (consumer.kind === 'projection' && tooFarBehind) {
          worst = 'down';
          reasons.push(`projection ${consumer.name} lags ${describeLag(consumer)}`);
        } else if (consumer.lastError || tooFarBehind) {
          if (worst === 'ok') worst = 'degraded';
          reasons.push(consumer.lastError ? `${consumer.kind} ${consumer.name} is stuck: ${consumer.lastError}` : `reactor ${consumer.name} lags ${describeLag(consumer)}`);
        }
      }
      const consumers: Record<string, unknown> = {};
      for (const { name, ...rest } of status.consumers) consumers[name] = rest;
      return { status: worst, head: status.head, ...(reasons.length ? { reasons } : {}), consumers };
    } catch (error) {
      // Postgres being down is reported by its own check.
      return { status: 'degraded', error: String(error) };
    }
  }
}

function describeLag(consumer: ConsumerStatus): string {
  return `${consumer.lagCapped ? 'over ' : ''}${consumer.lagEvents} events, ${consumer.lagSeconds} s`;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
