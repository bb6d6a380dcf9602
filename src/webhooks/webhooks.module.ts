import { Inject, Module, OnApplicationBootstrap, OnApplicationShutdown, OnModuleInit, BeforeApplicationShutdown } from '@nestjs/common';
import { Pool } from 'pg';
import { APP_CONFIG, AppConfig } from '../infra/config';
import { KEY_VAULT, KeyVault } from '../infra/crypto/key-vault';
import { ReactorRegistry } from '../infra/infra.module';
import { PG_POOL } from '../infra/postgres/pool';
import { QUEUE_SERVICE, QueueService } from '../infra/queue/queue.service';
import { RetentionRegistry } from '../infra/retention/retention.job';
import { PlatformsModule } from '../platforms';
import { PlatformConfigQuery } from '../platforms';
import { AnsweredWebhooks } from './answered-webhooks';
import { RequestTestWebhookHandler } from './commands/request-test-webhook';
import { RetryWebhookDeliveryHandler } from './commands/retry-webhook-delivery';
import { SendTestWebhookHandler } from './commands/send-test-webhook';
import { DeliveryQueues } from './delivery/delivery-queues';
import { DeliveryStore } from './delivery/delivery-store';
import { DeliveryWorkerPool } from './delivery/delivery-worker-pool';
import { WebhookDeliveryService } from './delivery/webhook-delivery.service';
import { WebhookHttpClient } from './delivery/webhook-http-client';
import { WebhookTries } from './delivery/webhook-tries';
import { SandboxWebhooksController } from './http/sandbox-webhooks.controller';
import { WebhookDeliveriesController } from './http/webhook-deliveries.controller';
import { testWebhookMapper } from './mappers/test-webhook.mapper';
import { WebhookDeliveriesQuery } from './queries/webhook-deliveries.query';
import { WebhookReactor } from './reactors/webhook.reactor';
import { WebhookMappers } from './webhook-mappers';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Webhooks (issue 5, DECISIONS.md section 6): other contexts register mappers in the exported
 * `WebhookMappers`; the reactor turns stored events into deliveries; per-platform BullMQ
 * workers deliver them (worker role); the delivery log and the sandbox test are HTTP.
 */
@Module({
  imports: [PlatformsModule],
  controllers: [WebhookDeliveriesController, SandboxWebhooksController],
  providers: [
    SendTestWebhookHandler,
    RequestTestWebhookHandler,
    RetryWebhookDeliveryHandler,
    WebhookMappers,
    AnsweredWebhooks,
    { provide: DeliveryStore, inject: [PG_POOL], useFactory: (pool: Pool) => new DeliveryStore(pool) },
    { provide: WebhookDeliveriesQuery, inject: [PG_POOL], useFactory: (pool: Pool) => new WebhookDeliveriesQuery(pool) },
    {
      provide: DeliveryQueues,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new DeliveryQueues(config.redisUrl, config.queuePrefix),
    },
    {
      provide: WebhookHttpClient,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        new WebhookHttpClient({ timeoutMs: config.webhooks.timeoutMs, refuseInternalAddresses: !config.webhooks.allowPrivateTargets }),
    },
    {
      provide: WebhookDeliveryService,
      inject: [DeliveryStore, PlatformConfigQuery, KEY_VAULT, WebhookHttpClient, APP_CONFIG, WebhookTries],
      useFactory: (store: DeliveryStore, configs: PlatformConfigQuery, vault: KeyVault, http: WebhookHttpClient, config: AppConfig, tries: WebhookTries) =>
        new WebhookDeliveryService(store, configs, vault, http, config.webhooks, tries),
    },
    WebhookTries,
    {
      provide: WebhookReactor,
      inject: [WebhookMappers, DeliveryStore, DeliveryQueues, WebhookDeliveryService, APP_CONFIG],
      useFactory: (mappers: WebhookMappers, store: DeliveryStore, queues: DeliveryQueues, deliveries: WebhookDeliveryService, config: AppConfig) =>
        new WebhookReactor(mappers, store, queues, deliveries, config.webhooks),
    },
    {
      provide: DeliveryWorkerPool,
      inject: [APP_CONFIG, DeliveryQueues, WebhookDeliveryService, DeliveryStore],
      useFactory: (config: AppConfig, queues: DeliveryQueues, deliveries: WebhookDeliveryService, store: DeliveryStore) =>
        new DeliveryWorkerPool(config.redisUrl, queues, deliveries, store, config.webhooks),
    },
  ],
  exports: [WebhookMappers, AnsweredWebhooks, WebhookTries],
})
export class WebhooksModule implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(QUEUE_SERVICE) private readonly queueService: QueueService,
    private readonly mappers: WebhookMappers,
    private readonly reactors: ReactorRegistry,
    @Inject(DeliveryStore) private readonly store: DeliveryStore,
    @Inject(DeliveryQueues) private readonly queues: DeliveryQueues,
    @Inject(WebhookReactor) private readonly reactor: WebhookReactor,
    @Inject(DeliveryWorkerPool) private readonly workers: DeliveryWorkerPool,
    @Inject(WebhookHttpClient) private readonly http: WebhookHttpClient,
    private readonly retention: RetentionRegistry,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.store.ensureSchema();
    this.mappers.register(testWebhookMapper);
    this.reactors.register(this.reactor);
    this.retention.register({
      name: 'webhookDeliveries',
      purge: (now, config) => this.store.purgeSettledBefore(new Date(now.getTime() - config.webhookDeliveryRetentionDays * DAY_MS)),
    });
    // Every role shows the per-platform delivery queues in GET /health, summed.
    this.queueService.registerCounts('webhooks', async () => ({ ...(await this.queues.counts()).total }));
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.roles.has('worker')) await this.workers.start();
  }

  /** Before the infrastructure closes Redis and Postgres: in-flight deliveries get to finish. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.workers.stop();
  }

  /** After the projector stopped (it may still have been queuing deliveries until then). */
  async onApplicationShutdown(): Promise<void> {
    await this.queues.close();
    this.http.close();
  }
}
