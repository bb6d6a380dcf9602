import { Inject, Module, OnModuleInit } from '@nestjs/common';
import { Pool } from 'pg';
import { AuditResourceLocators } from '../audit/audit-locators';
import { AuditModule } from '../audit/audit.module';
import { PG_POOL } from '../infra/postgres/pool';
import { EventStoreService } from '../infra/event-store/event-store.service';
import { ReactorRegistry } from '../infra/infra.module';
import { readStreamUpTo } from '../webhooks/read-stream-up-to';
import { WebhookMappers } from '../webhooks/webhook-mappers';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { CUSTOMER_WEBHOOK_EVENT_TYPES, customerWebhooks } from './customer-webhooks';
import { CustomerLifecycleHooks } from './customer-lifecycle-hooks';
import { CustomersService } from './customers.service';
import { customerAuditLocator } from './queries/customer-audit-locator';
import { CustomersQuery } from './queries/customers.query';
import { customerLifecycleReactor } from './reactors/customer-lifecycle.reactor';

/**
 * The customers context without its HTTP routes (see CustomersHttpModule): other contexts import
 * this module for `CustomersQuery` (customer views) and `CustomerLifecycleHooks`.
 */
@Module({
  imports: [WebhooksModule, AuditModule],
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
    private readonly auditLocators: AuditResourceLocators,
    @Inject(PG_POOL) private readonly pool: Pool,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.customers.ensureSchema();
    this.reactors.register(customerLifecycleReactor(this.hooks, this.customers));
    this.auditLocators.register(customerAuditLocator(this.pool));
    this.webhookMappers.register({
      eventTypes: CUSTOMER_WEBHOOK_EVENT_TYPES,
      toWebhooks: async (event) => customerWebhooks(event, await readStreamUpTo(this.events, event)),
    });
  }
}
