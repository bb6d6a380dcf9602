import { BulkImportEvent, BulkImportJobSummary } from '../../src/customers';

/**
 * The `bulk_import_jobs` read model's own state of one job: its counters, folded from the job's
 * events (not the write side's state). The rows' results are rows of `bulk_import_rows`.
 */
export type BulkImportJobRecord = BulkImportJobSummary & { createdAt: string; updatedAt: string };

/** Folds one event into the job's record; null while the job was never accepted. */
export function evolveBulkImportJobRecord(record: BulkImportJobRecord | null, event: BulkImportEvent): BulkImportJobRecord | null {
  switch (event.type) {
    case 'BulkImportAccepted': {
      const { data } = event;
      return {
        jobId: data.jobId, platformId: data.platformId, status: 'PENDING', total: data.total, processed: 0, successful: 0, failed: 0,
        completedAt: null, createdAt: data.acceptedAt, updatedAt: data.acceptedAt,
      };
    }
    case 'BulkImportRowsRecorded': {
      if (!record) return null;
      const successful = event.data.rows.filter((row) => row.customerId !== undefined).length;
      return {
        ...record,
        status: 'PROCESSING',
        processed: record.processed + event.data.rows.length,
        successful: record.successful + successful,
        failed: record.failed + event.data.rows.length - successful,
        updatedAt: event.data.recordedAt,
      };
    }
    case 'BulkImportFinished':
      if (!record) return null;
      return { ...record, status: event.data.status, completedAt: event.data.completedAt, updatedAt: event.data.completedAt };
  }
}
