import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { APP_CONFIG, AppConfig } from '../infra/config';
import { newId, streamNameFor } from '../infra/ids';
import { logger } from '../infra/logger';
import { PG_POOL } from '../infra/postgres/pool';
import { READ_MODEL_WAITER, READ_YOUR_WRITES_TIMEOUT_MS, ReadModelWaiter } from '../infra/projections/read-model-waiter';
import { DEFAULT_SANDBOX_CONFIG, platformDecider } from './domain/platform/platform.decider';
import { PlatformConfig } from './domain/platform/platform.events';
import { PLATFORM_CREDENTIALS_DDL, PlatformCredentialStore } from './platform-credentials';
import { CommandStore } from '../infra/commands/command-store';
import { PLATFORM_STREAM } from './streams';

export interface CreatedPlatform {
  platformId: string;
  clientId: string;
  clientSecret: string;
}

/** Registers platforms (tenants) and their credentials; bootstraps the sandbox platform. */
@Injectable()
export class PlatformsService {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly commands: CommandStore,
    private readonly credentials: PlatformCredentialStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(READ_MODEL_WAITER) private readonly waiter: ReadModelWaiter,
  ) {}

  async ensureSchema(): Promise<void> {
    await this.pool.query(PLATFORM_CREDENTIALS_DDL);
  }

  async createPlatform(
    options: { name?: string; clientId?: string; clientSecret?: string; config?: Partial<PlatformConfig> } = {},
  ): Promise<CreatedPlatform> {
    const platformId = newId('Platform');
    const clientId = options.clientId ?? `client_${randomBytes(8).toString('hex')}`;
    const clientSecret = options.clientSecret ?? `secret_${randomBytes(24).toString('base64url')}`;
    const registered = await this.commands.handle(PLATFORM_STREAM, streamNameFor(platformId), {
      type: 'RegisterPlatform',
      platformId,
      name: options.name ?? 'Sandbox platform',
      config: { ...DEFAULT_SANDBOX_CONFIG, ...options.config },
      now: new Date().toISOString(),
    });
    await this.credentials.store(platformId, clientId, clientSecret);
    // The credentials are usable at once: GET /config must find the platform's read model.
    if (registered.position) await this.waiter.waitFor(registered.position, READ_YOUR_WRITES_TIMEOUT_MS);
    return { platformId, clientId, clientSecret };
  }

  /**
   * The sandbox platform: from PLATFORM_CLIENT_ID / PLATFORM_CLIENT_SECRET when set, else
   * generated once, stored (secret hashed in Postgres, plain in DATA_DIR for the developer) and
   * printed.
   */
  async bootstrapSandboxPlatform(): Promise<void> {
    const { platformClientId, platformClientSecret, dataDir } = this.config;
    if (platformClientId && platformClientSecret) {
      const existing = await this.credentials.platformIdFor(platformClientId);
      if (existing) {
        await this.credentials.store(existing, platformClientId, platformClientSecret);
      } else {
        await this.createPlatform({ clientId: platformClientId, clientSecret: platformClientSecret });
      }
      logger.info('sandbox platform credentials from the environment', { clientId: platformClientId });
      return;
    }
    const file = path.join(dataDir, 'sandbox-credentials.json');
    if (fs.existsSync(file)) {
      const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as CreatedPlatform;
      if (await this.credentials.platformIdFor(saved.clientId)) {
        printCredentials(saved, file, false);
        return;
      }
    }
    const created = await this.createPlatform();
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(created, null, 2) + '\n', { mode: 0o600 });
    printCredentials(created, file, true);
  }
}

function printCredentials(platform: CreatedPlatform, file: string, fresh: boolean): void {
  // The secret is printed once, when generated; later starts point at the file that keeps it.
  const lines = fresh
    ? [
        'Sandbox platform credentials (generated now, also saved in ' + file + '):',
        `  PLATFORM_CLIENT_ID=${platform.clientId}`,
        `  PLATFORM_CLIENT_SECRET=${platform.clientSecret}`,
      ]
    : [`Sandbox platform PLATFORM_CLIENT_ID=${platform.clientId} (secret in ${file})`];
  process.stdout.write(lines.join('\n') + '\n');
}
