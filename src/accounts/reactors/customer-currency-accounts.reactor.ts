import { CommandBus } from '@nestjs/cqrs';
import { CustomersQuery } from '../../customers';
import { RecordedEvent } from '../../infra/event-store/event-store.port';
import { Reactor } from '../../infra/projections/projection';
import { ReadModelWaiter } from '../../infra/projections/read-model-waiter';
import { OpenCustomerAccounts } from '../commands/open-customer-accounts';
import { InternalAccountProvisioner } from '../provisioning/internal-account-provisioner';

/** How long the reactor waits for the customers read model to reach the configuration change. */
export const CUSTOMERS_CATCH_UP_TIMEOUT_MS = 30_000;

interface PlatformConfigUpdatedData {
  platformId: string;
  updatedAt?: string;
  changes?: { supportedCurrencies?: Array<{ currencyCode: string }> };
}

/**
 * When `PATCH /config` adds a supported currency, every existing customer of the platform gets
 * an internal account in it, as a customer created afterwards does (an EMBEDDED_WALLET account
 * when USDB is added). Account ids are deterministic, so a replay or a customer created at the
 * same moment opens nothing twice. Customers created before the change are in the customers
 * read model once it has reached the change's position (waited for here); customers created
 * after it read the new list themselves when they are provisioned (and the customer-lifecycle
 * reactor provisions them again with the list of its own moment).
 *
 * The read model only names candidates: leaving out the customers it shows deleted is safe, as a
 * deletion is final, but one deleted since may still be listed. Whether an account opens is
 * decided by OpenCustomerAccounts on the customer's own stream (refused once it is deleted).
 */
export function customerCurrencyAccountsReactor(
  provisioner: InternalAccountProvisioner,
  commandBus: CommandBus,
  customers: CustomersQuery,
  waiter: ReadModelWaiter,
): Reactor {
  return {
    name: 'customer-currency-accounts',
    handles: ['PlatformConfigUpdated'],
    async react(event: RecordedEvent) {
      const data = event.data as unknown as PlatformConfigUpdatedData;
      const next = data.changes?.supportedCurrencies?.map((entry) => entry.currencyCode);
      if (!next) return;
      const before = new Set(await provisioner.supportedCurrenciesBefore(data.platformId, event.revision));
      const added = next.filter((currency) => !before.has(currency));
      if (added.length === 0) return;
      if (!(await waiter.waitFor(event.position, CUSTOMERS_CATCH_UP_TIMEOUT_MS))) {
        // Thrown so the runner retries later: acting now could miss customers not projected yet.
        throw new Error('the customers read model has not reached this configuration change yet');
      }
      const openedAt = data.updatedAt ?? event.createdAt.toISOString();
      // Candidates only: OpenCustomerAccounts decides on each customer's stream.
      for await (const batch of customers.activeCustomerIds(data.platformId)) {
        for (const customerId of batch) {
          await commandBus.execute(new OpenCustomerAccounts(data.platformId, customerId, added, openedAt));
        }
      }
    },
  };
}
