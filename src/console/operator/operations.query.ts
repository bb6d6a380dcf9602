import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { HealthController, HealthReport } from '../../health';
import { EVENT_STORE, EventStore } from '../../infra/event-store/event-store.port';
import { PG_POOL } from '../../infra/postgres/pool';
import { PROJECTIONS, Projection } from '../../infra/projections/projection';
import { ConsumerStatus, projectionsStatus } from '../../infra/projections/projection-status';
import { QUEUE_SERVICE, QueueService } from '../../infra/queue/queue.service';

/** One projection's or reactor's progress, as the operations page shows it. */
export interface ConsumerView {
  name: string;
  kind: 'projection' | 'reactor';
  /** `commit/prepare` of the last event it processed. */
  position: string;
  lagEvents: number;
  lagSeconds: number;
  /** `ok`, `failing` (stuck on an event: lastError), `not-started`, `version-changed`. */
  state: string;
  lastError?: string;
  lastErrorAt?: string;
  eventsApplied: number;
  updatedAt?: string;
}

/** A job queue's counts. */
export interface QueueCounts {
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

/** How long a queue count may take before the operations answer goes on without it. */
const QUEUE_COUNT_TIMEOUT_MS = 1000;

/**
 * What the operations page and the /metrics collectors read: the /health report, every
 * consumer's position and lag (the checkpoints every process commits), the queues' counts.
 */
@Injectable()
export class OperationsQuery {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PROJECTIONS) private readonly projections: Projection[],
    @Inject(QUEUE_SERVICE) private readonly queues: QueueService,
    private readonly health: HealthController,
  ) {}

  /** The body `GET /health` answers (whatever its status). */
  async healthReport(): Promise<HealthReport> {
    return (await this.health.ready()).body;
  }

  async consumers(): Promise<ConsumerView[]> {
    const status = await projectionsStatus(this.pool, this.store, this.projections);
    return status.consumers.map(consumerView);
  }

  /** Each queue's counts; none when Redis does not answer in time (the health report says why). */
  async queueCounts(): Promise<Record<string, QueueCounts>> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), QUEUE_COUNT_TIMEOUT_MS)));
    const counts = await Promise.race([this.queues.counts().catch(() => null), timeout]).finally(() => clearTimeout(timer));
    const result: Record<string, QueueCounts> = {};
    for (const [queue, count] of Object.entries(counts ?? {})) {
      result[queue] = { waiting: count.waiting ?? 0, active: count.active ?? 0, delayed: count.delayed ?? 0, failed: count.failed ?? 0 };
    }
    return result;
  }

  projectionNames(): string[] {
    return this.projections.map((projection) => projection.name);
  }
}

function consumerView(consumer: ConsumerStatus): ConsumerView {
  return {
    name: consumer.name,
    kind: consumer.kind,
    position: consumer.position,
    lagEvents: consumer.lagEvents,
    lagSeconds: consumer.lagSeconds,
    state: consumer.state,
    ...(consumer.lastError ? { lastError: consumer.lastError } : {}),
    ...(consumer.lastErrorAt ? { lastErrorAt: consumer.lastErrorAt } : {}),
    eventsApplied: consumer.eventsApplied,
    ...(consumer.updatedAt ? { updatedAt: consumer.updatedAt } : {}),
  };
}
