import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { PG_POOL } from '../../infra/postgres/pool';

/** Transactions that ended badly: payments FAILED or REJECTED, card transactions in EXCEPTION. */
const FAILED_STATUSES = ['FAILED', 'REJECTED', 'EXCEPTION'];

/**
 * Upper bounds (ms) of the webhook latency buckets. A try lasts at most WEBHOOK_TIMEOUT_MS (10 s
 * by default); the last bucket also holds any slower one.
 */
export const LATENCY_BOUNDS_MS = [10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000, 60_000];

/** Up to a day in 5-minute buckets (288 at most), longer windows hourly (168 at most). */
export function bucketSecondsFor(hours: number): number {
  return hours <= 24 ? 5 * 60 : 60 * 60;
}

/**
 * Transactions created in one bucket, how many of them failed (by their status now).
 * @example { "bucketStart": "2025-11-03T14:20:00.000Z", "count": 12, "failed": 1 }
 */
export interface VolumeBucket {
  bucketStart: string;
  count: number;
  failed: number;
}

/**
 * Tries whose latency was above the previous bucket's bound and at most `le` ms.
 * @example { "le": 100, "count": 37 }
 */
export interface LatencyBucket {
  le: number;
  count: number;
}

/**
 * `GET /console/charts`: what the charts page draws, computed in SQL over the `transactions`
 * read model and the webhook delivery log, for the last `hours` hours.
 * @example
 * {
 *   "volume": [{ "bucketStart": "2025-11-03T14:20:00.000Z", "count": 12, "failed": 1 }],
 *   "webhookLatencyMs": { "buckets": [{ "le": 10, "count": 0 }, { "le": 25, "count": 3 }], "p50": 21, "p99": 84 }
 * }
 */
export interface ChartsAnswer {
  volume: VolumeBucket[];
  webhookLatencyMs: {
    buckets: LatencyBucket[];
    /** Absent when no try happened in the window. */
    p50?: number;
    p99?: number;
  };
}

@Injectable()
export class ChartsQuery {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async charts(platformId: string, hours: number): Promise<ChartsAnswer> {
    const [volume, webhookLatencyMs] = await Promise.all([this.volume(platformId, hours), this.webhookLatency(platformId, hours)]);
    return { volume, webhookLatencyMs };
  }

  /** Every bucket of the window, empty ones included, the first aligned down to a whole bucket. */
  private async volume(platformId: string, hours: number): Promise<VolumeBucket[]> {
    const result = await this.pool.query<{ bucket_start: Date; count: number; failed: number }>(
      `WITH buckets AS (
         SELECT generate_series(
                  to_timestamp(floor(extract(epoch FROM now() - make_interval(hours => $2)) / $3) * $3),
                  now(), make_interval(secs => $3)) AS bucket_start
       )
       SELECT buckets.bucket_start, count(t.transaction_id)::int AS count,
              (count(t.transaction_id) FILTER (WHERE t.status = ANY($4)))::int AS failed
         FROM buckets
         LEFT JOIN transactions t
           ON t.platform_id = $1 AND t.visible
          AND t.created_at >= buckets.bucket_start AND t.created_at < buckets.bucket_start + make_interval(secs => $3)
        GROUP BY buckets.bucket_start ORDER BY buckets.bucket_start`,
      [platformId, hours, bucketSecondsFor(hours), FAILED_STATUSES],
    );
    return result.rows.map((row) => ({ bucketStart: row.bucket_start.toISOString(), count: row.count, failed: row.failed }));
  }

  /** The platform's delivery tries in the window (automatic, manual and test tries alike). */
  private async webhookLatency(platformId: string, hours: number): Promise<ChartsAnswer['webhookLatencyMs']> {
    const result = await this.pool.query<{ counts: number[]; p50: number | null; p99: number | null }>(
      `WITH tries AS (
         SELECT latency_ms FROM webhook_delivery_attempts
          WHERE platform_id = $1 AND attempted_at >= now() - make_interval(hours => $2)
       ), bounds AS (
         SELECT bound, ordinal, lag(bound, 1, -1) OVER (ORDER BY ordinal) AS above, ordinal = cardinality($3::int[]) AS last
           FROM unnest($3::int[]) WITH ORDINALITY AS b(bound, ordinal)
       )
       SELECT (SELECT array_agg((SELECT count(*)::int FROM tries WHERE latency_ms > above AND (latency_ms <= bound OR last)) ORDER BY ordinal) FROM bounds) AS counts,
              (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY latency_ms) FROM tries) AS p50,
              (SELECT percentile_cont(0.99) WITHIN GROUP (ORDER BY latency_ms) FROM tries) AS p99`,
      [platformId, hours, LATENCY_BOUNDS_MS],
    );
    const row = result.rows[0];
    const buckets = LATENCY_BOUNDS_MS.map((le, index) => ({ le, count: row.counts[index] }));
    return row.p50 === null || row.p99 === null ? { buckets } : { buckets, p50: Math.round(row.p50), p99: Math.round(row.p99) };
  }
}
