import { RecordedEvent } from '../infra/event-store/event-store.port';
import { EventStoreService } from '../infra/event-store/event-store.service';
import { WebhookDraft, WebhookMapper, readStreamUpTo } from '../webhooks';
import { bulkImportDecider } from './domain/bulk-import/bulk-import.decider';
import { BulkImportEvent, BulkImportFinished, BulkImportRowResult } from './domain/bulk-import/bulk-import.events';
import { BulkImportJobView, bulkImportJobView } from './queries/bulk-import.view';

/**
 * `BULK_UPLOAD.COMPLETED` / `BULK_UPLOAD.FAILED` (the reference's BulkUploadWebhook) to the platform
 * that uploaded the file, once its last row has a result: `data` the job as GET shows it then,
 * without the per-row `results` (a 10,000-row job would make a megabyte webhook; GET has them).
 */
export function bulkImportWebhookMapper(events: EventStoreService): WebhookMapper {
  return {
    eventTypes: ['BulkImportFinished'],
    platformOf: (event) => (event.data as BulkImportFinished['data']).platformId,
    async toWebhooks(event: RecordedEvent): Promise<WebhookDraft[]> {
      const data = bulkImportJobViewFromEvents(await readStreamUpTo(events, event));
      if (!data) return [];
      const { platformId, status } = event.data as BulkImportFinished['data'];
      return [{ type: `BULK_UPLOAD.${status}`, data, platformId }];
    },
  };
}

/** The job as of the last of `events` (its stream), without results; null before it was accepted. */
export function bulkImportJobViewFromEvents(events: Array<Pick<RecordedEvent, 'type' | 'data'>>): BulkImportJobView | null {
  let state = bulkImportDecider.initialState();
  const rows: BulkImportRowResult[] = [];
  for (const event of events as unknown as BulkImportEvent[]) {
    state = bulkImportDecider.evolve(state, event);
    if (event.type === 'BulkImportRowsRecorded') rows.push(...event.data.rows);
  }
  if (state.status === 'none') return null;
  return bulkImportJobView({ ...state, completedAt: state.completedAt }, rows, false);
}
