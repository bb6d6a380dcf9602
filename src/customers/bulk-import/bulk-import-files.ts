import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { PG_POOL } from '../../infra/postgres/pool';

/**
 * The uploaded CSV of a job, kept beside the log (not in it: its rows are personal data the
 * event log must not hold, see docs/customers.md) until the job has finished.
 */
export const BULK_IMPORT_FILES_DDL = `CREATE TABLE IF NOT EXISTS bulk_import_files (
  job_id text PRIMARY KEY,
  platform_id text NOT NULL,
  csv bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
)`;

@Injectable()
export class BulkImportFiles {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async save(jobId: string, platformId: string, csv: Buffer): Promise<void> {
    await this.pool.query(`INSERT INTO bulk_import_files (job_id, platform_id, csv) VALUES ($1, $2, $3) ON CONFLICT (job_id) DO NOTHING`, [jobId, platformId, csv]);
  }

  /** The CSV as uploaded, or null once the job finished (the file is then gone). */
  async read(jobId: string): Promise<Buffer | null> {
    const result = await this.pool.query<{ csv: Buffer }>(`SELECT csv FROM bulk_import_files WHERE job_id = $1`, [jobId]);
    return result.rows[0]?.csv ?? null;
  }

  async remove(jobId: string): Promise<void> {
    await this.pool.query(`DELETE FROM bulk_import_files WHERE job_id = $1`, [jobId]);
  }
}
