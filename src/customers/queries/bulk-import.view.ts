import { BulkImportJobStatus, BulkImportRowResult } from '../domain/bulk-import/bulk-import.events';

/** A row that did not become a customer (the reference's BulkCustomerImportErrorEntry). */
export interface BulkImportErrorEntryView {
  /** `row_<n>`: the row's number (1 is the first row after the header), as the reference's examples name it. */
  correlationId: string;
  code: string;
  message: string;
  /** `row`, the row's `platformCustomerId` when it has one, and the refusal's own details (e.g. `errors[]`, one per bad column). */
  details: Record<string, unknown>;
}

/** A row that became a customer. */
export interface BulkImportCreatedRowView {
  row: number;
  platformCustomerId: string;
  /** The created customer: `GET /customers/{customerId}`. */
  customerId: string;
}

/**
 * A bulk customer import job as `GET /customers/bulk/jobs/{jobId}` returns it (the reference's
 * BulkCustomerImportJob; null fields are left out on the wire), and as `BULK_UPLOAD.COMPLETED` /
 * `BULK_UPLOAD.FAILED` carry it (without `results`).
 */
export interface BulkImportJobView {
  /** @example "Job:019542f5-b3e7-1d02-0000-000000000006" */
  id: string;
  status: BulkImportJobStatus;
  progress: {
    /** Rows in the file. */
    total: number;
    /** Rows with a result so far. */
    processed: number;
    successful: number;
    failed: number;
  };
  /** One entry per failed row, in row order. */
  errors: BulkImportErrorEntryView[];
  /** One entry per created customer, in row order (not part of the webhooks). */
  results?: BulkImportCreatedRowView[];
  /** When the last row's result was recorded: only for COMPLETED or FAILED. */
  completedAt?: string;
}

/** The job's counters as the read model records them. */
export interface BulkImportJobSummary {
  jobId: string;
  platformId: string;
  status: BulkImportJobStatus;
  total: number;
  processed: number;
  successful: number;
  failed: number;
  completedAt: string | null;
}

export function bulkImportJobView(job: BulkImportJobSummary, rows: BulkImportRowResult[], withResults: boolean): BulkImportJobView {
  const view: BulkImportJobView = {
    id: job.jobId,
    status: job.status,
    progress: { total: job.total, processed: job.processed, successful: job.successful, failed: job.failed },
    errors: rows.filter((row) => row.error !== undefined).map(errorEntry),
  };
  if (withResults) {
    view.results = rows
      .filter((row) => row.customerId !== undefined)
      .map((row) => ({ row: row.row, platformCustomerId: row.platformCustomerId!, customerId: row.customerId! }));
  }
  if (job.completedAt !== null) view.completedAt = job.completedAt;
  return view;
}

function errorEntry(row: BulkImportRowResult): BulkImportErrorEntryView {
  const error = row.error!;
  const key = row.platformCustomerId === null ? {} : { platformCustomerId: row.platformCustomerId };
  return { correlationId: `row_${row.row}`, code: error.code, message: error.message, details: { row: row.row, ...key, ...error.details } };
}
