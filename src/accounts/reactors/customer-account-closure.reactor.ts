import { CommandBus } from '@nestjs/cqrs';
import { RecordedEvent } from '../../infra/event-store/event-store.port';
import { Reactor } from '../../infra/projections/projection';
import { CloseCustomerAccounts } from '../commands/close-customer-accounts';

interface CustomerDeletedData {
  platformId: string;
  customerId: string;
  deletedAt: string;
}

/**
 * A deleted customer's internal accounts are CLOSED (each an `InternalAccountStatusChanged`,
 * announced by `INTERNAL_ACCOUNT.STATUS_UPDATED`): they refuse new holds, so no payment leaves
 * them, while payments already under way settle. Checkpointed, at least once; closing is
 * idempotent. Deployed on a store with older deletions, it closes those customers' accounts too.
 */
export function customerAccountClosureReactor(commandBus: CommandBus): Reactor {
  return {
    name: 'customer-account-closure',
    handles: ['CustomerDeleted'],
    async react(event: RecordedEvent) {
      const data = event.data as unknown as CustomerDeletedData;
      await commandBus.execute(new CloseCustomerAccounts(data.platformId, data.customerId, data.deletedAt));
    },
  };
}
