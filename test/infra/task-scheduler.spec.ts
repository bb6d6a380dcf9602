import { Socket } from 'node:net';
import { QueueService } from '../../src/infra/queue/queue.service';
import { TaskPayload, TaskScheduler } from '../../src/infra/queue/task-scheduler';
import { currentContext } from '../../src/infra/request-context';
import { freshRedisPrefix, testRedisUrl } from '../support/database';
import { countSocketWrites } from '../support/socket-writes';
import { eventually } from '../support/test-app';

describe('TaskScheduler on real Redis', () => {
  let queues: QueueService;
  let scheduler: TaskScheduler;

  beforeEach(() => {
    queues = new QueueService(testRedisUrl(), freshRedisPrefix('tasks'), true);
    scheduler = new TaskScheduler(queues);
  });

  afterEach(async () => {
    await queues.close();
  });

  const payload = (subjectId: string): TaskPayload => ({
    subjectId,
    platformId: 'Platform:p1',
    correlationId: 'corr-1',
    causationId: 'event-1',
  });

  it('runs a delayed task once per key, inside a context carrying its correlation', async () => {
    const runs: Array<{ subjectId: string; correlationId?: string; actor?: string; at: number }> = [];
    scheduler.register('settle', async (task) => {
      const context = currentContext();
      runs.push({ subjectId: task.subjectId, correlationId: context?.correlationId, actor: context?.actor, at: Date.now() });
    });
    scheduler.start();
    const scheduledAt = Date.now();
    await scheduler.schedule('settle', 'Quote:a:settle', 150, payload('Quote:a'));
    await scheduler.schedule('settle', 'Quote:a:settle', 150, payload('Quote:a'));
    await scheduler.schedule('settle', 'Quote:b:settle', 0, payload('Quote:b'));
    await eventually(async () => runs.length >= 2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(runs.map((run) => run.subjectId).sort()).toEqual(['Quote:a', 'Quote:b']);
    const delayed = runs.find((run) => run.subjectId === 'Quote:a')!;
    expect(delayed.at - scheduledAt).toBeGreaterThanOrEqual(140);
    expect(delayed.correlationId).toBe('corr-1');
    expect(delayed.actor).toBe('system:task:settle');
  });

  it('retries a failing task until it succeeds', async () => {
    let attempts = 0;
    scheduler.register('flaky', async () => {
      attempts++;
      if (attempts < 3) throw new Error('not yet');
    });
    scheduler.start();
    await scheduler.schedule('flaky', 'k', 0, payload('X:1'));
    await eventually(async () => attempts >= 3, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(attempts).toBe(3);
  });

  it('cancels the tasks of one turn in one write to Redis, and each is gone', async () => {
    const keys = ['Quote:a:expire', 'Quote:b:expire', 'Quote:c:expire'];
    for (const key of keys) await scheduler.schedule('expire', key, 60_000, payload(key));
    const queue = queues.queue('tasks');
    expect(await queue.getDelayedCount()).toBe(3);
    const socket = (queues.redis() as unknown as { stream: Socket }).stream;
    const { writes } = await countSocketWrites(socket, () => Promise.all(keys.map((key) => scheduler.cancel('expire', key))));
    expect(writes).toBe(1);
    expect(await queue.getDelayedCount()).toBe(0);
  });

  it('refuses to register a task name twice', () => {
    scheduler.register('once', async () => undefined);
    expect(() => scheduler.register('once', async () => undefined)).toThrow('Task once is registered twice');
  });
});
