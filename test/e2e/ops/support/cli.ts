import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { runAuditCli } from '../../../../scripts/operator/audit-cli';
import { runEraseCli } from '../../../../scripts/operator/customers-erase-cli';
import { CliOutput } from '../../../../scripts/operator/database';
import { runProjectionsCli } from '../../../../scripts/operator/projections-cli';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

const REPOSITORY_ROOT = resolve(__dirname, '../../../..');

/** Runs an operator CLI in this process against `databaseUrl`, capturing its output. */
export async function runCli(which: 'projections' | 'audit' | 'customers-erase', argv: string[], databaseUrl: string): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const output: CliOutput = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text), isTTY: false },
    env: { DATABASE_URL: databaseUrl },
  };
  const run = { projections: runProjectionsCli, audit: runAuditCli, 'customers-erase': runEraseCli }[which];
  const code = await run(argv, output);
  return { code, stdout, stderr };
}

/**
 * Runs `npm run <script> -- <args>` as a real child process, as an operator would (ts-node from
 * devDependencies), against `databaseUrl`.
 */
export function runNpmScript(script: string, args: string[], databaseUrl: string): Promise<CliRun> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
      cwd: REPOSITORY_ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl, EVENTSTORE_CONNECTION_STRING: '', JEST_WORKER_ID: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolvePromise({ code: code ?? -1, stdout, stderr }));
  });
}
