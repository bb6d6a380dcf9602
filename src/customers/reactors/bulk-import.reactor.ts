import { Reactor } from '../../infra/projections/projection';
import { TaskScheduler } from '../../infra/queue/task-scheduler';
import { BulkImportAccepted } from '../domain/bulk-import/bulk-import.events';

export const BULK_IMPORT_TASK = 'customers.bulk-import';

/**
 * Each accepted bulk import schedules its worker at once (job id = the job's id: scheduled once,
 * however often the reactor replays). The worker carries the uploader's actor, so the customers
 * it creates show in the audit history as that credential's work.
 */
export function bulkImportReactor(tasks: TaskScheduler): Reactor {
  return {
    name: 'bulk-import',
    handles: ['BulkImportAccepted'],
    async react(event) {
      const data = event.data as BulkImportAccepted['data'];
      await tasks.schedule(BULK_IMPORT_TASK, data.jobId, 0, {
        subjectId: data.jobId,
        platformId: data.platformId,
        correlationId: event.metadata.correlationId,
        causationId: event.id,
        actor: event.metadata.actor,
      });
    },
  };
}
