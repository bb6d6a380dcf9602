import { BeforeApplicationShutdown, Inject, Module, OnApplicationBootstrap } from '@nestjs/common';
import { Pool } from 'pg';
import { DeliveryStore } from '../../webhooks/delivery/delivery-store';
import { APP_CONFIG, AppConfig } from '../config';
import { IdempotencyService } from '../http/idempotency.service';
import { PG_POOL } from '../postgres/pool';
import { RetentionJob } from './retention.job';

/** The retention purge (docs/operations.md "Retention"), on a timer where the worker role runs. */
@Module({
  providers: [
    {
      provide: RetentionJob,
      inject: [APP_CONFIG, PG_POOL, IdempotencyService],
      useFactory: (config: AppConfig, pool: Pool, idempotency: IdempotencyService) =>
        new RetentionJob(pool, idempotency, new DeliveryStore(pool), config.retention),
    },
  ],
  exports: [RetentionJob],
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
