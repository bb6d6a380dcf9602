import { Inject, Module, OnModuleInit } from '@nestjs/common';
import { Pool } from 'pg';
import { APP_CONFIG, AppConfig } from '../infra/config';
import { PLATFORM_AUTHENTICATOR } from '../infra/http/platform-auth.guard';
import { PG_POOL } from '../infra/postgres/pool';
import { ConfigController } from './http/config.controller';
import { PlatformCredentialStore } from './platform-credentials';
import { PlatformsService } from './platforms.service';
import { PlatformConfigQuery } from './queries/platform-config.query';

@Module({
  controllers: [ConfigController],
  providers: [
    { provide: PlatformCredentialStore, inject: [PG_POOL], useFactory: (pool: Pool) => new PlatformCredentialStore(pool) },
    { provide: PLATFORM_AUTHENTICATOR, useExisting: PlatformCredentialStore },
    PlatformsService,
    PlatformConfigQuery,
  ],
  exports: [PLATFORM_AUTHENTICATOR, PlatformsService, PlatformConfigQuery, PlatformCredentialStore],
})
export class PlatformsModule implements OnModuleInit {
  constructor(
    private readonly platforms: PlatformsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.platforms.ensureSchema();
  }
}
