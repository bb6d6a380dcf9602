import { Position, RecordedEvent } from '../../src/infra/event-store/event-store.port';
import { RecentEvents } from '../../src/infra/projections/recent-events';
import { REACTOR_WAKE_COALESCE_MS, Wakes } from '../../src/infra/projections/wakes';

/**
 * Two of the projection runner's parts on their own (the runner's spec covers them at work, on
 * Postgres): the recent-events cache the reactors read from, and the coalescing of their wake-ups.
 */
const at = (index: number): Position => ({ commit: 1n, prepare: BigInt(index) });

function eventsFrom(first: number, count: number): RecordedEvent[] {
  return Array.from({ length: count }, (_, offset) => ({
    id: `event-${first + offset}`,
    type: 'LineAdded',
    data: {},
    metadata: { correlationId: 'c', causationId: 'c', platformId: null, actor: 'test' },
    streamName: 'line',
    revision: first + offset,
    position: at(first + offset),
    createdAt: new Date(0),
  }));
}

describe('RecentEvents', () => {
  it('answers what follows a position inside the contiguous reads it holds, as a read of the log would', () => {
    const recent = new RecentEvents();
    recent.remember(at(0), eventsFrom(1, 3));
    recent.remember(at(3), eventsFrom(4, 3));
    expect(recent.after(at(0), 10)?.map((event) => event.revision)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(recent.after(at(2), 2)?.map((event) => event.revision)).toEqual([3, 4]);
  });

  it('answers null where the log must be read: before what it holds, at or past its end, after a gap', () => {
    const recent = new RecentEvents();
    expect(recent.after(at(0), 10)).toBeNull();
    recent.remember(at(5), eventsFrom(6, 2));
    expect(recent.after(at(4), 10)).toBeNull();
    expect(recent.after(at(7), 10)).toBeNull();
    // A read that does not follow on starts the cache over from there.
    recent.remember(at(20), eventsFrom(21, 2));
    expect(recent.after(at(5), 10)).toBeNull();
    expect(recent.after(at(20), 10)?.map((event) => event.revision)).toEqual([21, 22]);
  });

  it('keeps the latest 2,000 events only', () => {
    const recent = new RecentEvents();
    recent.remember(at(0), eventsFrom(1, 2500));
    expect(recent.after(at(499), 1)).toBeNull();
    expect(recent.after(at(500), 1)?.map((event) => event.revision)).toEqual([501]);
  });
});

describe('Wakes', () => {
  afterEach(() => jest.useRealTimers());

  it('wakes the projector at every append and the reactors once per coalescing window', async () => {
    jest.useFakeTimers();
    const wakes = new Wakes();
    wakes.start();
    let projectorWoken = 0;
    let reactorsWoken = 0;
    void wakes.idleProjector(60_000).then(() => projectorWoken++);
    void wakes.idleReactor(60_000).then(() => reactorsWoken++);
    wakes.appended();
    wakes.appended();
    await Promise.resolve();
    expect(projectorWoken).toBe(1);
    expect(wakes.projectorWakes).toBe(2);
    expect(reactorsWoken).toBe(0);
    expect(wakes.reactorWakePending).toBe(true);
    jest.advanceTimersByTime(REACTOR_WAKE_COALESCE_MS);
    await Promise.resolve();
    expect(reactorsWoken).toBe(1);
    expect(wakes.reactorWakes).toBe(1);
    expect(wakes.reactorWakePending).toBe(false);
    wakes.stop();
  });

  it('ends every idle wait at stop, and waits no more after it', async () => {
    const wakes = new Wakes();
    wakes.start();
    const idle = Promise.all([wakes.idleProjector(60_000), wakes.idleReactor(60_000)]);
    wakes.stop();
    await idle;
    await wakes.idleReactor(60_000);
  });
});
