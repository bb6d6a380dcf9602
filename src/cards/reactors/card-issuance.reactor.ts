import { AppConfig } from '../../infra/config';
import { Reactor } from '../../infra/projections/projection';
import { TaskScheduler } from '../../infra/queue/task-scheduler';
import { CardIssuanceRequested } from '../domain/card/card.events';

export const CARD_ISSUER_DECISION_TASK = 'card.issuer-decision';

/**
 * Card issuance (checkpointed, at least once): each `CardIssuanceRequested` schedules the
 * issuer's answer after the sandbox settlement delay (job id = card id: scheduled once). A card
 * whose issuer never answers (sandbox suffix `001`) gets no task and stays PROCESSING.
 */
export function cardIssuanceReactor(tasks: TaskScheduler, config: AppConfig): Reactor {
  return {
    name: 'card-issuance',
    handles: ['CardIssuanceRequested'],
    async react(event) {
      const data = event.data as CardIssuanceRequested['data'];
      if (data.issuerScenario === 'NO_ANSWER') return;
      await tasks.schedule(CARD_ISSUER_DECISION_TASK, data.cardId, config.sandbox.settlementDelayMs, {
        subjectId: data.cardId,
        platformId: data.platformId,
        correlationId: event.metadata.correlationId,
        causationId: event.id,
      });
    },
  };
}
