import { CommandBus } from '@nestjs/cqrs';
import { RecordedEvent } from '../../infra/event-store/event-store.port';
import { Reactor } from '../../infra/projections/projection';
import { OpenInitialCredential } from '../commands/open-initial-credential';

/**
 * Opens the initial EMAIL_OTP credential of every embedded wallet from its `InternalAccountOpened`
 * event (published by the accounts context), so it exists even if the request that opened the
 * wallet died before doing it. Idempotent: deterministic credential id, decider no-op on repeat.
 */
export function initialCredentialReactor(commandBus: CommandBus): Reactor {
  return {
    name: 'wallet-initial-credential',
    handles: ['InternalAccountOpened'],
    async react(event: RecordedEvent) {
      const data = event.data as { platformId: string; accountId: string; customerId: string | null; accountType: string; openedAt: string };
      if (data.accountType !== 'EMBEDDED_WALLET' || data.customerId === null) return;
      await commandBus.execute(new OpenInitialCredential(data.platformId, data.accountId, data.customerId, data.openedAt));
    },
  };
}
