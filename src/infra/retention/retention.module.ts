import { BeforeApplicationShutdown, Global, Inject, Module, OnApplicationBootstrap } from '@nestjs/common';
import { Pool } from 'pg';
import { APP_CONFIG, AppConfig } from '../config';
import { IdempotencyService } from '../http/idempotency.service';
import { PG_POOL } from '../postgres/pool';
import { RetentionJob, RetentionRegistry } from './retention.job';

/**
 * The retention purge (docs/operations.md "Retention"), on a timer where the worker role runs.
 * Global: contexts register their purges in the RetentionRegistry (webhooks: its deliveries).
 */
@Global()
@Module({
  providers: [
    {
      provide: RetentionRegistry,
      inject: [IdempotencyService],
      useFactory: (idempotency: IdempotencyService) => {
        const registry = new RetentionRegistry();
        registry.register({ name: 'idempotencyKeys', purge: () => idempotency.purgeExpired() });
        return registry;
      },
    },
    {
      provide: RetentionJob,
      inject: [APP_CONFIG, PG_POOL, RetentionRegistry],
      useFactory: (config: AppConfig, pool: Pool, registry: RetentionRegistry) => new RetentionJob(pool, registry, config.retention),
    },
  ],
  exports: [RetentionJob, RetentionRegistry],
})
export class RetentionModule implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(RetentionJob) private readonly job: RetentionJob,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.roles.has('worker')) this.job.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.job.stop();
  }
}
