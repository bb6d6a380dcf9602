import { AppConfig } from '../../infra/config';
import { RecordedEvent } from '../../infra/event-store/event-store.port';
import { Reactor } from '../../infra/projections/projection';
import { TaskScheduler } from '../../infra/queue/task-scheduler';
import { ExternalAccountCreated } from '../domain/external-account/external-account.events';

export const RESOLVE_BENEFICIARY_CHECK_TASK = 'external-account.resolve-beneficiary-check';
const DEFAULT_BENEFICIARY_CHECK_DELAY_MS = 30_000;

/**
 * A beneficiary name check that answered PENDING (sandbox suffix `104`) is resolved later by a
 * scheduled task (job id = external account id: scheduled once however often this replays).
 */
export function beneficiaryCheckReactor(tasks: TaskScheduler, config: AppConfig): Reactor {
  return {
    name: 'beneficiary-check',
    handles: ['ExternalAccountCreated'],
    async react(event: RecordedEvent) {
      const data = event.data as ExternalAccountCreated['data'];
      if (data.beneficiaryVerification?.status !== 'PENDING') return;
      await tasks.schedule(RESOLVE_BENEFICIARY_CHECK_TASK, data.externalAccountId, config.sandbox.beneficiaryCheckDelayMs ?? DEFAULT_BENEFICIARY_CHECK_DELAY_MS, {
        subjectId: data.externalAccountId,
        platformId: data.platformId,
        correlationId: event.metadata.correlationId,
        causationId: event.id,
      });
    },
  };
}
