import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { PG_POOL, lookup } from '../../infra/postgres/pool';
import { BulkImportRowResult } from '../domain/bulk-import/bulk-import.events';
import { BulkImportJobSummary, BulkImportJobView, bulkImportJobView } from './bulk-import.view';

/** Read side of bulk imports (the `bulk-import-jobs` projection): null for an unknown job and for another platform's alike. */
@Injectable()
export class BulkImportQuery {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async find(platformId: string, jobId: string): Promise<BulkImportJobView | null> {
    const job = await lookup(this.pool, `SELECT record FROM bulk_import_jobs WHERE job_id = $1 AND platform_id = $2`, [jobId, platformId]);
    if (!job.rows[0]) return null;
    const rows = await this.pool.query<{ result: string }>(`SELECT result FROM bulk_import_rows WHERE job_id = $1 ORDER BY row_number`, [jobId]);
    const results = rows.rows.map((row) => JSON.parse(row.result) as BulkImportRowResult);
    return bulkImportJobView(JSON.parse(job.rows[0].record) as BulkImportJobSummary, results, true);
  }
}
