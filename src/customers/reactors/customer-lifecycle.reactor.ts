import { CommandBus } from '@nestjs/cqrs';
import { RecordedEvent } from '../../infra/event-store/event-store.port';
import { Reactor } from '../../infra/projections/projection';
import { CustomerCreated, CustomerDeleted } from '../domain/customer/customer.events';
import { CustomerLifecycleHooks } from '../customer-lifecycle-hooks';
import { ReleaseCustomerKeys } from '../commands/release-customer-keys';

/**
 * Finishes what a request may not have: after `CustomerCreated` it runs the creation hooks
 * (internal accounts) and after `CustomerDeleted` it frees the customer's unique keys. The
 * request does both itself; this reactor makes them happen even if the request died in between.
 * Every step is idempotent (deterministic stream ids, expected revisions).
 */
export function customerLifecycleReactor(hooks: CustomerLifecycleHooks, commandBus: CommandBus): Reactor {
  return {
    name: 'customer-lifecycle',
    handles: ['CustomerCreated', 'CustomerDeleted'],
    async react(event: RecordedEvent) {
      if (event.type === 'CustomerCreated') {
        const data = event.data as CustomerCreated['data'];
        await hooks.runCustomerCreated({
          platformId: data.platformId,
          customerId: data.customerId,
          customerType: data.customerType,
          createdAt: data.createdAt,
        });
        return;
      }
      const data = event.data as CustomerDeleted['data'];
      await commandBus.execute(new ReleaseCustomerKeys(data.platformId, data.customerId, data.platformCustomerId, data.umaAddress));
    },
  };
}
