import { AppConfig } from '../../infra/config';
import { Reactor } from '../../infra/projections/projection';
import { TaskScheduler } from '../../infra/queue/task-scheduler';
import { CardTransactionAuthorized } from '../domain/card-transaction/card-transaction.events';

export const CARD_PULL_CONFIRMATION_TASK = 'card.pull-confirmation';

/** SANDBOX_CARD_DELAYED_PULL_MS when the configuration leaves it out. */
const DEFAULT_DELAYED_PULL_MS = 30_000;

/**
 * Funding pulls (checkpointed, at least once): each authorization that started a PENDING pull
 * schedules its confirmation after the sandbox settlement delay, or the delayed-pull delay for a
 * `005` descriptor (job id = transaction id: scheduled once). The task records what the
 * authorization's `pullScenario` fixed (ConfirmCardPull).
 */
export function cardPullConfirmationReactor(tasks: TaskScheduler, config: AppConfig): Reactor {
  return {
    name: 'card-pull-confirmation',
    handles: ['CardTransactionAuthorized'],
    async react(event) {
      const data = event.data as CardTransactionAuthorized['data'];
      if (data.pull?.status !== 'PENDING') return;
      const delayMs = data.pullScenario === 'CONFIRM_LATE' ? (config.sandbox.cardDelayedPullMs ?? DEFAULT_DELAYED_PULL_MS) : config.sandbox.settlementDelayMs;
      await tasks.schedule(CARD_PULL_CONFIRMATION_TASK, data.transactionId, delayMs, {
        subjectId: data.transactionId,
        platformId: data.platformId,
        correlationId: event.metadata.correlationId,
        causationId: event.id,
      });
    },
  };
}
