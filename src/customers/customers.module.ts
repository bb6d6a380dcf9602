import { Module, OnModuleInit } from '@nestjs/common';
import { EventStoreService } from '../infra/event-store/event-store.service';
import { ReactorRegistry } from '../infra/infra.module';
import { readStreamUpTo } from '../webhooks/read-stream-up-to';
import { WebhookMappers } from '../webhooks/webhook-mappers';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { CUSTOMER_WEBHOOK_EVENT_TYPES, customerWebhooks } from './customer-webhooks';
import { CustomerLifecycleHooks } from './customer-lifecycle-hooks';
import { CustomersService } from './customers.service';
import { CustomersQuery } from './queries/customers.query';
import { customerLifecycleReactor } from './reactors/customer-lifecycle.reactor';

/**
 * The customers context without its HTTP routes (see CustomersHttpModule): other contexts import
 * this module for `CustomersQuery` (customer views) and `CustomerLifecycleHooks`.
 */
@Module({
  imports: [WebhooksModule],
  providers: [CustomersService, CustomersQuery, CustomerLifecycleHooks],
  exports: [CustomersService, CustomersQuery, CustomerLifecycleHooks],
})
export class CustomersModule implements OnModuleInit {
  constructor(
    private readonly customers: CustomersService,
    private readonly hooks: CustomerLifecycleHooks,
    private readonly reactors: ReactorRegistry,
    private readonly events: EventStoreService,
    private readonly webhookMappers: WebhookMappers,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.customers.ensureSchema();
    this.reactors.register(customerLifecycleReactor(this.hooks, this.customers));
    this.webhookMappers.register({
      eventTypes: CUSTOMER_WEBHOOK_EVENT_TYPES,
      toWebhooks: async (event) => customerWebhooks(event, await readStreamUpTo(this.events, event)),
    });
  }
}
