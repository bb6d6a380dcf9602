import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Finds `scripts/lib/<file>` of this repository, from the TypeScript sources (src/infra/runtime)
 * and from the build output (dist/src/infra/runtime) alike. Those plain-JS helpers hold the
 * process handling shared with jest's global setup, which cannot load TypeScript.
 */
export function locateHelperScript(file: string): string {
  for (let directory = __dirname; ; directory = dirname(directory)) {
    const candidate = join(directory, 'scripts', 'lib', file);
    if (existsSync(candidate)) return candidate;
    if (directory === dirname(directory)) {
      throw new Error(`scripts/lib/${file} not found above ${__dirname}; was the scripts folder copied?`);
    }
  }
}

/** What every helper's start function resolves to. */
export interface SupervisedServerHandle {
  /** The supervisor process; it stops the server when this process dies. */
  readonly supervisorPid: number;
  /** True when another live process of this service already ran the server and it is shared. */
  readonly shared: boolean;
  /** Resolves when the supervisor exits, expectedly or not. */
  readonly exited: Promise<number | null>;
  /** Stops the server (a shared one is left running) and waits for it to exit. Idempotent. */
  stop(): Promise<void>;
}
