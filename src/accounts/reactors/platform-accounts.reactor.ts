import { CommandBus } from '@nestjs/cqrs';
import { RecordedEvent } from '../../infra/event-store/event-store.port';
import { Reactor } from '../../infra/projections/projection';
import { OpenPlatformAccounts } from '../commands/open-platform-accounts';

interface PlatformEventData {
  platformId: string;
  registeredAt?: string;
  updatedAt?: string;
  config?: { supportedCurrencies: Array<{ currencyCode: string }> };
  changes?: { supportedCurrencies?: Array<{ currencyCode: string }> };
}

/**
 * Platform-owned internal accounts: one per supported currency, opened when the platform is
 * registered and when a configuration change adds a currency (accounts are never closed here).
 */
export function platformAccountsReactor(commandBus: CommandBus): Reactor {
  return {
    name: 'platform-accounts',
    handles: ['PlatformRegistered', 'PlatformConfigUpdated'],
    async react(event: RecordedEvent) {
      const data = event.data as unknown as PlatformEventData;
      const currencies = (event.type === 'PlatformRegistered' ? data.config?.supportedCurrencies : data.changes?.supportedCurrencies) ?? [];
      if (currencies.length === 0) return;
      await commandBus.execute(
        new OpenPlatformAccounts(
          data.platformId,
          currencies.map((entry) => entry.currencyCode),
          (event.type === 'PlatformRegistered' ? data.registeredAt : data.updatedAt) ?? event.createdAt.toISOString(),
        ),
      );
    },
  };
}
