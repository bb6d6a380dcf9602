import { BULK_IMPORT_EVENT_TYPES, BulkImportEvent } from '../../src/customers';
import { Projection } from '../../src/infra/projections/projection';
import { BulkImportJobRecord, evolveBulkImportJobRecord } from './bulk-import-job-record';

/**
 * `bulk_import_jobs`: one row per bulk customer import job (its record: counters and status);
 * `bulk_import_rows`: one row per CSV row with a result (the created customer or the error), so
 * a 10,000-row job never rewrites one large document per chunk.
 */
export const bulkImportJobsProjection: Projection = {
  name: 'bulk-import-jobs',
  version: 1,
  tables: ['bulk_import_jobs', 'bulk_import_rows'],
  schema: (t) => [
    `CREATE TABLE IF NOT EXISTS ${t('bulk_import_jobs')} (
       job_id text PRIMARY KEY,
       platform_id text NOT NULL,
       status text NOT NULL,
       record text NOT NULL,
       created_at timestamptz NOT NULL,
       updated_at timestamptz NOT NULL
     )`,
    `CREATE TABLE IF NOT EXISTS ${t('bulk_import_rows')} (
       job_id text NOT NULL,
       row_number integer NOT NULL,
       result text NOT NULL,
       PRIMARY KEY (job_id, row_number)
     )`,
  ],
  handles: BULK_IMPORT_EVENT_TYPES,
  async apply(event, tx) {
    const typed = { type: event.type, data: event.data } as unknown as BulkImportEvent;
    const existing = await tx.query<{ record: string }>(`SELECT record FROM ${tx.table('bulk_import_jobs')} WHERE job_id = $1`, [typed.data.jobId]);
    const previous: BulkImportJobRecord | null = existing.rows[0] ? JSON.parse(existing.rows[0].record) : null;
    const job = evolveBulkImportJobRecord(previous, typed);
    if (job === null) return;
    if (typed.type === 'BulkImportRowsRecorded' && typed.data.rows.length > 0) {
      // A chunk's rows in one statement; a replayed event writes the same rows again.
      tx.execute(
        `INSERT INTO ${tx.table('bulk_import_rows')} (job_id, row_number, result)
         SELECT $1, r.row_number, r.result FROM unnest($2::int[], $3::text[]) AS r(row_number, result)
         ON CONFLICT (job_id, row_number) DO UPDATE SET result = EXCLUDED.result`,
        [job.jobId, typed.data.rows.map((row) => row.row), typed.data.rows.map((row) => JSON.stringify(row))],
      );
    }
    tx.execute(
      `INSERT INTO ${tx.table('bulk_import_jobs')} (job_id, platform_id, status, record, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (job_id) DO UPDATE SET status = EXCLUDED.status, record = EXCLUDED.record, updated_at = EXCLUDED.updated_at`,
      [job.jobId, job.platformId, job.status, JSON.stringify(job), job.createdAt, job.updatedAt],
    );
  },
};
