import { Module, OnModuleInit } from '@nestjs/common';
import { ReactorRegistry } from '../infra/infra.module';
import { CustomerLifecycleHooks } from './customer-lifecycle-hooks';
import { CustomersService } from './customers.service';
import { CustomersQuery } from './queries/customers.query';
import { customerLifecycleReactor } from './reactors/customer-lifecycle.reactor';

/**
 * The customers context without its HTTP routes (see CustomersHttpModule): other contexts import
 * this module for `CustomersQuery` (customer views) and `CustomerLifecycleHooks`.
 */
@Module({
  providers: [CustomersService, CustomersQuery, CustomerLifecycleHooks],
  exports: [CustomersService, CustomersQuery, CustomerLifecycleHooks],
})
export class CustomersModule implements OnModuleInit {
  constructor(
    private readonly customers: CustomersService,
    private readonly hooks: CustomerLifecycleHooks,
    private readonly reactors: ReactorRegistry,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.customers.ensureSchema();
    this.reactors.register(customerLifecycleReactor(this.hooks, this.customers));
  }
}
