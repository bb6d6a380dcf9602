import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

/**
 * The service started as its own OS process (`src/main.ts` through ts-node), for tests that
 * must kill it for real (SIGKILL: no shutdown hooks, jobs left active, locks left to expire).
 */
export interface ServiceProcess {
  readonly child: ChildProcess;
  /** Everything the process printed, for failure messages. */
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

const REPOSITORY_ROOT = join(__dirname, '..', '..');

export async function startServiceProcess(roles: string[], env: Record<string, string>, readyTimeoutMs = 60_000): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/main.ts', ...roles], {
    cwd: REPOSITORY_ROOT,
    env: { ...process.env, LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service process not ready in ${readyTimeoutMs} ms:\n${output}`)), readyTimeoutMs);
    const onData = () => {
      if (/Running roles|Service listening/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service process exited with ${code} before it was ready:\n${output}`));
    });
  });

  return {
    child,
    output: () => output,
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
