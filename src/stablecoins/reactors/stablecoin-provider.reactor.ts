import { AppConfig } from '../../infra/config';
import { RecordedEvent } from '../../infra/event-store/event-store.port';
import { Reactor } from '../../infra/projections/projection';
import { TaskScheduler } from '../../infra/queue/task-scheduler';
import { ProviderStep } from '../commands/advance-stablecoin-operation';
import { StablecoinOperationCreated, StablecoinOperationFunded } from '../domain/operation/operation.events';
import { StablecoinProviderAccountLinked } from '../domain/provider-account/provider-account.events';

/** One task per provider step of an operation, and one for a link's verdict. */
export const STABLECOIN_STEP_TASKS: Record<ProviderStep, string> = {
  FUND: 'stablecoin.operation-funded',
  SETTLE: 'stablecoin.operation-settled',
  EXPIRE: 'stablecoin.operation-expired',
};
export const STABLECOIN_LINK_TASK = 'stablecoin.link-verdict';

/**
 * The sandbox provider's timeline (checkpointed, at least once; job id = subject id, one task per
 * step, so a step is scheduled once): the funding an operation awaits arrives after
 * SANDBOX_SETTLEMENT_DELAY_MS or never (it expires at `expiresAt`); then, or at once for an
 * operation awaiting no funding, the provider settles it (completes or fails, as its scenario
 * says) after the same delay. Links the provider revokes or invalidates get their verdict after
 * that delay too. Operations whose provider never answers get no task.
 */
export function stablecoinProviderReactor(tasks: TaskScheduler, config: AppConfig): Reactor {
  const schedule = (taskName: string, subjectId: string, platformId: string, delayMs: number, event: RecordedEvent) =>
    tasks.schedule(taskName, subjectId, delayMs, { subjectId, platformId, correlationId: event.metadata.correlationId, causationId: event.id });
  return {
    name: 'stablecoin-provider',
    handles: ['StablecoinOperationCreated', 'StablecoinOperationFunded', 'StablecoinProviderAccountLinked'],
    async react(event) {
      const delayMs = config.sandbox.settlementDelayMs;
      switch (event.type) {
        case 'StablecoinProviderAccountLinked': {
          const data = event.data as StablecoinProviderAccountLinked['data'];
          if (data.providerOutcome !== 'KEEP') await schedule(STABLECOIN_LINK_TASK, data.stablecoinProviderAccountId, data.platformId, delayMs, event);
          return;
        }
        case 'StablecoinOperationFunded': {
          const data = event.data as StablecoinOperationFunded['data'];
          await schedule(STABLECOIN_STEP_TASKS.SETTLE, data.operationId, data.platformId, delayMs, event);
          return;
        }
        case 'StablecoinOperationCreated': {
          const data = event.data as StablecoinOperationCreated['data'];
          if (data.providerScenario === 'NO_ANSWER') return;
          if (data.status === 'PENDING_PROVIDER') return schedule(STABLECOIN_STEP_TASKS.SETTLE, data.operationId, data.platformId, delayMs, event);
          if (data.providerScenario !== 'EXPIRE') return schedule(STABLECOIN_STEP_TASKS.FUND, data.operationId, data.platformId, delayMs, event);
          const untilExpiryMs = Date.parse(data.expiresAt as string) - Date.parse(data.createdAt);
          return schedule(STABLECOIN_STEP_TASKS.EXPIRE, data.operationId, data.platformId, untilExpiryMs, event);
        }
      }
    },
  };
}
