// A stand-in for src/projector-thread.ts in test/infra/projector-thread.spec.ts, started through
// ts-node as the real entry is from a checkout: it speaks the same messages. It is ready at
// progress 1, reports every appended position as its progress, ends with exit code 3 when told
// of position 13 (a crash), and stops when asked.
import { parentPort } from 'node:worker_threads';
import type { ProjectorThreadCommand, ProjectorThreadReport } from '../../src/infra/projections/projector-thread';

const port = parentPort!;
const report = (message: ProjectorThreadReport) => port.postMessage(message);
report({ kind: 'ready', progress: { commit: 1n, prepare: 1n } });
port.on('message', (command: ProjectorThreadCommand) => {
  if (command.kind === 'stop') process.exit(0);
  if (command.position.commit === 13n) process.exit(3);
  report({ kind: 'progress', progress: command.position });
});
