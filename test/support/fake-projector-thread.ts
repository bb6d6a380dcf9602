// A stand-in for src/projector-thread.ts in test/infra/projector-thread.spec.ts, started through
// ts-node as the real entry is from a checkout: it speaks the same messages. It is ready at
// progress 1, reports every appended position as its progress, ends with exit code 3 when told
// of position 13 (a crash), and stops when asked. While the file `fail-starts` in the config's
// data directory holds a count above zero, a start counts it down and fails instead.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { ProjectorThreadCommand, ProjectorThreadData, ProjectorThreadReport } from '../../src/infra/projections/projector-thread';

const failStarts = join((workerData as ProjectorThreadData).config.dataDir, 'fail-starts');
const failuresLeft = existsSync(failStarts) ? Number(readFileSync(failStarts, 'utf8')) : 0;
if (failuresLeft > 0) {
  writeFileSync(failStarts, String(failuresLeft - 1));
  throw new Error('the stand-in was told to fail this start');
}
const port = parentPort!;
const report = (message: ProjectorThreadReport) => port.postMessage(message);
report({ kind: 'ready', progress: { commit: 1n, prepare: 1n } });
port.on('message', (command: ProjectorThreadCommand) => {
  if (command.kind === 'stop') process.exit(0);
  if (command.position.commit === 13n) process.exit(3);
  report({ kind: 'progress', progress: command.position });
});
