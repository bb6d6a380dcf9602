import { ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const REPOSITORY_ROOT = resolve(__dirname, '../../../..');
/**
 * The build the tests run: inside node_modules (never committed, never the developer's dist/),
 * below the repository so the runtime finds scripts/lib by walking up, as it does from dist/.
 */
export const BUILD_DIR = join(REPOSITORY_ROOT, 'node_modules', '.cache', 'payments-e2e-build');

/** `tsc -p tsconfig.build.json` into BUILD_DIR (incremental, so a second run is quick). */
export async function buildService(): Promise<string> {
  await promisify(execFile)(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', BUILD_DIR], {
    cwd: REPOSITORY_ROOT,
    maxBuffer: 16 * 1024 * 1024,
  });
  return join(BUILD_DIR, 'src', 'main.js');
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

/** `node <build>/src/main.js` as `npm start` runs it, with its output collected. */
export class ServiceProcess {
  readonly child: ChildProcessWithoutNullStreams;
  stdout = '';
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(mainScript: string, env: NodeJS.ProcessEnv) {
    this.child = spawn(process.execPath, [mainScript], { cwd: REPOSITORY_ROOT, env, stdio: 'pipe' });
    this.child.stdout.on('data', (chunk) => (this.stdout += chunk));
    this.child.stderr.on('data', (chunk) => (this.stderr += chunk));
    this.exited = new Promise((resolveExit) => this.child.once('exit', (code, signal) => resolveExit({ code, signal })));
  }

  /** Resolves once stdout holds `text`; rejects if the process exits first or time runs out. */
  async waitForOutput(text: string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.stdout.includes(text)) {
      if (this.child.exitCode !== null || this.child.signalCode !== null) {
        throw new Error(`service exited before printing "${text}":\n${this.stdout}\n${this.stderr}`);
      }
      if (Date.now() > deadline) throw new Error(`service did not print "${text}" within ${timeoutMs} ms:\n${this.stdout}\n${this.stderr}`);
      await new Promise((resolveWait) => setTimeout(resolveWait, 50));
    }
  }

  /** The pid a JSON log line with `msg` reports (the embedded servers log theirs at start). */
  loggedPid(msg: string): number {
    for (const line of this.stdout.split('\n')) {
      if (!line.startsWith('{')) continue;
      const entry = JSON.parse(line) as { msg?: string; pid?: number };
      if (entry.msg === msg && typeof entry.pid === 'number') return entry.pid;
    }
    throw new Error(`no "${msg}" line with a pid in:\n${this.stdout}`);
  }

  /** Ends the process if a test failed before stopping it. */
  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
