import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { logger } from '../../infra/logger';
import { OperationsQuery } from './operations.query';

/**
 * Every consumer's lag in events at one moment.
 * @example { "at": "2025-11-03T14:22:30.120Z", "consumers": { "quotes": 0, "webhook-dispatch": 3 } }
 */
export interface LagSample {
  at: string;
  consumers: Record<string, number>;
}

/** How far back the history goes. */
export const LAG_HISTORY_MS = 60 * 60 * 1000;

/**
 * Samples every projection's and reactor's lag (the checkpoints, as /health reads them) every
 * CONSOLE_LAG_SAMPLE_INTERVAL_MS in each api process, keeping the last hour in memory for the
 * operations page's lag chart. Nothing is stored: a restarted process starts a new history.
 */
@Injectable()
export class LagHistory implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly samples: LagSample[] = [];
  private timer: NodeJS.Timeout | null = null;
  private sampling = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly operations: OperationsQuery,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.roles.has('api')) return;
    this.timer = setInterval(() => void this.sample(), this.config.console.lagSampleIntervalMs);
    this.timer.unref();
    void this.sample();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Oldest first. */
  history(): LagSample[] {
    return this.samples.slice();
  }

  /** One sample; skipped while the previous one still runs (a slow database must not pile them up). */
  async sample(): Promise<void> {
    if (this.sampling) return;
    this.sampling = true;
    try {
      const consumers = await this.operations.consumers();
      const now = new Date();
      this.record({ at: now.toISOString(), consumers: Object.fromEntries(consumers.map((consumer) => [consumer.name, consumer.lagEvents])) }, now);
    } catch (error) {
      // The checkpoints are unreadable (Postgres is down): a gap in the chart says so.
      logger.debug('lag sample skipped', { error: error instanceof Error ? error.message : String(error) });
    } finally {
      this.sampling = false;
    }
  }

  private record(sample: LagSample, now: Date): void {
    this.samples.push(sample);
    const oldest = now.getTime() - LAG_HISTORY_MS;
    while (this.samples.length > 0 && Date.parse(this.samples[0].at) < oldest) this.samples.shift();
  }
}
