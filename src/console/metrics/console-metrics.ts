import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { logger } from '../../infra/logger';
import { OperationsQuery } from '../operator/operations.query';
import { FixedHistogram } from './fixed-histogram';
import { RequestHistograms } from './request-histograms';

/** Seconds: from a cached read (a few ms) to a request that waited out a dependency. */
const HTTP_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds: a webhook endpoint's answer, up to the 10 s default try timeout. */
const WEBHOOK_BUCKETS_SECONDS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds: one append's commit, from a fast local disk to a contended lock. */
const APPEND_BUCKETS_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];
/** A scrape answers within this even when Postgres or Redis does not: those gauges are then left out. */
const COLLECT_TIMEOUT_MS = 2000;

/** How a webhook try ended: a 2xx answer, another answer, or no answer (network error, timeout). */
export type WebhookTryOutcome = 'delivered' | 'rejected' | 'unreachable';

/**
 * This process's Prometheus metrics (`GET /metrics`): a registry of its own (each app in a test
 * process has its own), the request, webhook and append figures recorded as they happen, and the
 * lag and queue gauges read from the checkpoints and BullMQ at each scrape.
 */
@Injectable()
export class ConsoleMetrics {
  private readonly registry = new Registry();
  /** Recorded on every request (RequestObservers): allocation-free once a route was seen. */
  private readonly requests = new RequestHistograms(HTTP_BUCKETS_SECONDS);
  private readonly lagEvents = new Gauge({
    name: 'projection_lag_events',
    help: 'Events in the log after the projection or reactor position (counting stops at 100000).',
    labelNames: ['name', 'kind'],
    registers: [this.registry],
  });
  private readonly lagSeconds = new Gauge({
    name: 'projection_lag_seconds',
    help: 'Age of the oldest event the projection or reactor has not processed yet.',
    labelNames: ['name', 'kind'],
    registers: [this.registry],
  });
  private readonly queueJobs = new Gauge({
    name: 'queue_jobs',
    help: 'Jobs in each BullMQ queue by state (the counts GET /health shows).',
    labelNames: ['queue', 'state'],
    registers: [this.registry],
  });
  private readonly webhookTries = new Counter({
    name: 'webhook_deliveries_total',
    help: 'Webhook POSTs this process made, by outcome: delivered (2xx), rejected (another status), unreachable (no answer).',
    labelNames: ['outcome'],
    registers: [this.registry],
  });
  private readonly webhookDuration = new Histogram({
    name: 'webhook_delivery_duration_seconds',
    help: 'Time a webhook POST took, to the answer or the failure.',
    buckets: WEBHOOK_BUCKETS_SECONDS,
    registers: [this.registry],
  });
  /** Observed on every append: allocation-free (see FixedHistogram). */
  readonly appendDuration = new FixedHistogram(
    'event_store_append_duration_seconds',
    'Time an append through this process took to commit (appends refused for a conflict are not counted).',
    APPEND_BUCKETS_SECONDS,
  );

  constructor(private readonly operations: OperationsQuery) {
    processMetrics(this.registry);
  }

  recordRequest(route: string, method: string, status: number, seconds: number): void {
    this.requests.observe(route, method, status, seconds);
  }

  recordWebhookTry(outcome: WebhookTryOutcome, seconds: number): void {
    this.webhookTries.inc({ outcome });
    this.webhookDuration.observe(seconds);
  }

  /** The Prometheus text exposition (format 0.0.4), the gauges read now. */
  async render(): Promise<string> {
    await Promise.all([this.collectLag(), this.collectQueues()]);
    return `${await this.registry.metrics()}\n${this.requests.exposition()}${this.appendDuration.exposition()}`;
  }

  /** Reads first, then resets and sets at once, so concurrent scrapes never see half a set. */
  private async collectLag(): Promise<void> {
    const consumers = await withinCollectTimeout(this.operations.consumers(), 'projection lag');
    this.lagEvents.reset();
    this.lagSeconds.reset();
    for (const consumer of consumers ?? []) {
      const labels = { name: consumer.name, kind: consumer.kind };
      this.lagEvents.set(labels, consumer.lagEvents);
      this.lagSeconds.set(labels, consumer.lagSeconds);
    }
  }

  private async collectQueues(): Promise<void> {
    const queues = await withinCollectTimeout(this.operations.queueCounts(), 'queue counts');
    this.queueJobs.reset();
    for (const [queue, counts] of Object.entries(queues ?? {})) {
      for (const [state, count] of Object.entries(counts)) this.queueJobs.set({ queue, state }, count);
    }
  }
}

/** The value, or null (logged) when it failed or took longer than COLLECT_TIMEOUT_MS. */
async function withinCollectTimeout<T>(promise: Promise<T>, what: string): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${COLLECT_TIMEOUT_MS} ms`)), COLLECT_TIMEOUT_MS)));
  try {
    return await Promise.race([promise, timeout]);
  } catch (error) {
    logger.warn('metrics: left out of this scrape', { what, error: error instanceof Error ? error.message : String(error) });
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The process's CPU, memory and heap, read at each scrape. Not prom-client's default metrics:
 * their GC observer and event-loop monitor run all the time, and cost 3 to 9% of bench:quotes'
 * flows (bench/RESULTS.md, 2026-11-27).
 */
function processMetrics(registry: Registry): void {
  new Counter({
    name: 'process_cpu_seconds_total',
    help: 'User and system CPU time this process spent, in seconds.',
    registers: [registry],
    collect() {
      const usage = process.cpuUsage();
      this.reset();
      this.inc((usage.user + usage.system) / 1e6);
    },
  });
  new Gauge({
    name: 'process_resident_memory_bytes',
    help: 'Resident memory size of this process, in bytes.',
    registers: [registry],
    collect() {
      this.set(process.memoryUsage.rss());
    },
  });
  new Gauge({
    name: 'nodejs_heap_size_used_bytes',
    help: 'V8 heap in use, in bytes.',
    registers: [registry],
    collect() {
      this.set(process.memoryUsage().heapUsed);
    },
  });
}
