import { ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import * as ts from 'typescript';

/**
 * The service started as its own OS process (`src/main.ts` through ts-node, or the JavaScript
 * `transpileService` wrote), for tests that must kill it for real (SIGKILL: no shutdown hooks,
 * jobs left active, locks left to expire).
 */
export interface ServiceProcess {
  readonly child: ChildProcess;
  /** Resolves with how the process ended. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Everything the process printed, for failure messages. */
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

const REPOSITORY_ROOT = join(__dirname, '..', '..');
/**
 * Where `transpileService` writes: inside node_modules (never committed), below the repository so
 * the runtime finds scripts/lib by walking up, as it does from dist/.
 */
const TRANSPILED_DIR = join(REPOSITORY_ROOT, 'node_modules', '.cache', 'payments-e2e-transpiled');
const SOURCE_FOLDERS = ['src', 'projections'];

/**
 * Translates the service's TypeScript to JavaScript file by file (what ts-node's transpile-only
 * mode does on every start, in each thread), once: a process started from it is up in seconds
 * instead of compiling everything again, its projector thread a second time. No type check (the
 * test run's `tsc` does that). Returns the main script to give `startServiceProcess`.
 */
export function transpileService(): string {
  const compilerOptions: ts.CompilerOptions = {
    module: ts.ModuleKind.CommonJS,
    target: ts.ScriptTarget.ES2022,
    emitDecoratorMetadata: true,
    experimentalDecorators: true,
    esModuleInterop: true,
    allowSyntheticDefaultImports: true,
    resolveJsonModule: true,
    sourceMap: false,
  };
  for (const folder of SOURCE_FOLDERS) {
    for (const file of filesUnder(join(REPOSITORY_ROOT, folder))) {
      const target = join(TRANSPILED_DIR, relative(REPOSITORY_ROOT, file));
      mkdirSync(dirname(target), { recursive: true });
      if (file.endsWith('.json')) {
        copyFileSync(file, target);
      } else if (file.endsWith('.ts') && !file.endsWith('.spec.ts') && !file.endsWith('.d.ts')) {
        const output = ts.transpileModule(readFileSync(file, 'utf8'), { compilerOptions, fileName: file });
        writeFileSync(target.replace(/\.ts$/, '.js'), output.outputText);
      }
    }
  }
  return join(TRANSPILED_DIR, 'src', 'main.js');
}

function filesUnder(directory: string): string[] {
  return readdirSync(directory).flatMap((entry) => {
    const path = join(directory, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/**
 * Starts the service with `roles` (none: all, as `npm start`) and `env` over this process's
 * environment; resolves once it listens (or runs its roles). `mainScript`: a script from
 * `transpileService`, else `src/main.ts` runs through ts-node.
 */
export async function startServiceProcess(
  roles: string[],
  env: Record<string, string>,
  readyTimeoutMs = 60_000,
  mainScript?: string,
): Promise<ServiceProcess> {
  const argv = mainScript ? [mainScript, ...roles] : ['-r', 'ts-node/register/transpile-only', 'src/main.ts', ...roles];
  const child = spawn(process.execPath, argv, {
    cwd: REPOSITORY_ROOT,
    env: { ...process.env, LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Not left running behind a failed test (its supervisors stop its servers with it).
      child.kill('SIGKILL');
      reject(new Error(`service process not ready in ${readyTimeoutMs} ms:\n${output}`));
    }, readyTimeoutMs);
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
    exited,
    output: () => output,
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
