import * as fs from 'node:fs';
import * as path from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Pool } from 'pg';
import { APP_CONFIG, AppConfig } from '../infra/config';
import { logger } from '../infra/logger';
import { PG_POOL } from '../infra/postgres/pool';
import { CreatedPlatform, PlatformRegistration, RegisterPlatform } from './commands/register-platform';
import { PLATFORM_CREDENTIALS_DDL, PlatformCredentialStore } from './platform-credentials';

export type { CreatedPlatform, PlatformRegistration };

/** Registers platforms (tenants) through RegisterPlatform (start, tests, benches); bootstraps the sandbox platform. */
@Injectable()
export class PlatformsService {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly commandBus: CommandBus,
    private readonly credentials: PlatformCredentialStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async ensureSchema(): Promise<void> {
    await this.pool.query(PLATFORM_CREDENTIALS_DDL);
  }

  createPlatform(registration: PlatformRegistration = {}): Promise<CreatedPlatform> {
    return this.commandBus.execute(new RegisterPlatform(registration));
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
        await this.createPlatform({ clientId: platformClientId, clientSecret: platformClientSecret, config: this.sandboxConfig() });
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
    const created = await this.createPlatform({ config: this.sandboxConfig() });
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(created, null, 2) + '\n', { mode: 0o600 });
    printCredentials(created, file, true);
  }

  private sandboxConfig(): PlatformRegistration['config'] {
    return { isRegulatedFinancialInstitution: this.config.sandboxPlatformRegulated };
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
