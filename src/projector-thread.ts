import 'reflect-metadata';
import { parentPort, workerData } from 'node:worker_threads';
import { createApp } from './app.factory';
import { EventStoreService } from './infra/event-store/event-store.service';
import { logger } from './infra/logger';
import { ProjectionRunner } from './infra/projections/projection-runner';
import { ProjectorThreadCommand, ProjectorThreadData, ProjectorThreadReport } from './infra/projections/projector-thread';

/**
 * The projector role in a worker thread (see `ProjectorThread`, which starts it): the projections
 * and reactors of this process, woken by the main thread's appends and reporting their progress
 * back for read-your-writes.
 */
async function run(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('projector-thread runs only as a worker thread (ProjectorThread starts it)');
  const { config } = workerData as ProjectorThreadData;
  const app = await createApp(config);
  const runner = app.get(ProjectionRunner);
  const events = app.get(EventStoreService);
  const report = (message: ProjectorThreadReport) => port.postMessage(message);
  runner.onProgress((progress) => report({ kind: 'progress', progress }));
  let stopping = false;
  port.on('message', (command: ProjectorThreadCommand) => {
    if (command.kind === 'appended') {
      events.noteAppendedElsewhere(command.position);
    } else if (command.kind === 'stop' && !stopping) {
      stopping = true;
      app
        .close()
        .catch((error: Error) => logger.error('projector thread: shutdown failed', { error: error.message }))
        .finally(() => process.exit(0));
    }
  });
  report({ kind: 'ready', progress: runner.progress() });
}

run().catch((error) => {
  logger.error('projector thread failed to start', { error: error instanceof Error ? error.stack : String(error) });
  process.exit(1);
});
