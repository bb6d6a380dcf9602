import { BoundsCache } from './exchange-rate-listing';
import { RateSnapshot, rateSnapshotAt, rateSnapshotById } from './rate-table';

/**
 * The rate snapshot source a process uses: the current snapshot for its clock, snapshots by id
 * (a quote's locked one), and per-snapshot memo space. Snapshots are pure functions of time, so
 * every process agrees without sharing a cache; this only saves recomputing them.
 */
export class RateSnapshots {
  private latest: RateSnapshot | null = null;
  private readonly boundsCaches = new Map<string, BoundsCache>();

  constructor(private readonly clock: () => Date = () => new Date()) {}

  current(): RateSnapshot {
    const now = this.clock();
    if (!this.latest || now.toISOString() >= this.latest.validUntil || now.toISOString() < this.latest.validFrom) {
      this.latest = rateSnapshotAt(now);
    }
    return this.latest;
  }

  byId(id: string): RateSnapshot | null {
    return this.latest?.id === id ? this.latest : rateSnapshotById(id);
  }

  /** Seconds until `snapshot` stops being current (for Cache-Control), at least 0. */
  secondsRemaining(snapshot: RateSnapshot): number {
    return Math.max(0, Math.ceil((Date.parse(snapshot.validUntil) - this.clock().getTime()) / 1000));
  }

  /** Memo space for one snapshot; only the two most recent snapshots keep theirs. */
  boundsCacheFor(snapshot: RateSnapshot): BoundsCache {
    let cache = this.boundsCaches.get(snapshot.id);
    if (!cache) {
      cache = new Map();
      this.boundsCaches.set(snapshot.id, cache);
      while (this.boundsCaches.size > 2) this.boundsCaches.delete(this.boundsCaches.keys().next().value!);
    }
    return cache;
  }
}
