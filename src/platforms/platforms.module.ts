import { Inject, Module, OnModuleInit } from '@nestjs/common';
import { Pool } from 'pg';
import { APP_CONFIG, AppConfig } from '../infra/config';
import { PLATFORM_AUTHENTICATOR } from '../infra/http/platform-auth.guard';
import { PG_POOL } from '../infra/postgres/pool';
import { CreateTokenHandler } from './commands/create-token';
import { RegisterPlatformHandler } from './commands/register-platform';
import { RevokeTokenHandler } from './commands/revoke-token';
import { UpdatePlatformConfigHandler } from './commands/update-platform-config';
import { ConfigController } from './http/config.controller';
import { TokensController } from './http/tokens.controller';
import { PlatformAuthenticatorService } from './platform-authenticator';
import { PlatformCredentialStore } from './platform-credentials';
import { PlatformsService } from './platforms.service';
import { PlatformConfigQuery } from './queries/platform-config.query';
import { TokensQuery } from './queries/tokens.query';

@Module({
  controllers: [ConfigController, TokensController],
  providers: [
    { provide: PlatformCredentialStore, inject: [PG_POOL], useFactory: (pool: Pool) => new PlatformCredentialStore(pool) },
    {
      provide: PlatformAuthenticatorService,
      inject: [PG_POOL, PlatformCredentialStore, APP_CONFIG],
      useFactory: (pool: Pool, credentials: PlatformCredentialStore, config: AppConfig) =>
        new PlatformAuthenticatorService(pool, credentials, config.platformAuth),
    },
    { provide: PLATFORM_AUTHENTICATOR, useExisting: PlatformAuthenticatorService },
    RegisterPlatformHandler,
    UpdatePlatformConfigHandler,
    CreateTokenHandler,
    RevokeTokenHandler,
    PlatformsService,
    PlatformConfigQuery,
    TokensQuery,
  ],
  exports: [PLATFORM_AUTHENTICATOR, PlatformsService, PlatformConfigQuery, PlatformCredentialStore],
})
export class PlatformsModule implements OnModuleInit {
  constructor(
    private readonly platforms: PlatformsService,
    private readonly authenticator: PlatformAuthenticatorService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.platforms.ensureSchema();
    await this.authenticator.ensureSchema();
  }
}
