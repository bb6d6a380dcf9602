import { DomainEvent } from '../../../infra/domain/decider';

/** A row that could not become a customer: the reference's error entry (GridError) without its correlation id. */
export interface BulkImportRowError {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/**
 * What became of one CSV row (row 1 is the first data row, after the header): the customer it
 * created, or why it could not. Only keys and codes: the row's personal data never enters the log.
 */
export interface BulkImportRowResult {
  row: number;
  platformCustomerId: string | null;
  customerId?: string;
  error?: BulkImportRowError;
}

export type BulkImportJobStatus = 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED';

/** The CSV was read and kept (its rows in `bulk_import_files`, not in the log): `total` rows to import. */
export type BulkImportAccepted = DomainEvent<
  'BulkImportAccepted',
  { jobId: string; platformId: string; total: number; fileSha256: string; acceptedAt: string }
>;

/** The results of the rows `fromRow` .. `fromRow + rows.length - 1`, recorded together. */
export type BulkImportRowsRecorded = DomainEvent<
  'BulkImportRowsRecorded',
  { jobId: string; platformId: string; fromRow: number; rows: BulkImportRowResult[]; recordedAt: string }
>;

/** Every row has its result: COMPLETED when at least one customer was created, FAILED when none. */
export type BulkImportFinished = DomainEvent<
  'BulkImportFinished',
  { jobId: string; platformId: string; status: 'COMPLETED' | 'FAILED'; successful: number; failed: number; completedAt: string }
>;

export type BulkImportEvent = BulkImportAccepted | BulkImportRowsRecorded | BulkImportFinished;

export const BULK_IMPORT_EVENT_TYPES: BulkImportEvent['type'][] = ['BulkImportAccepted', 'BulkImportRowsRecorded', 'BulkImportFinished'];
