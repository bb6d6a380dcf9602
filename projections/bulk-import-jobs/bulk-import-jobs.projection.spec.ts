import { projectionSpec, ProjectionSpec } from '../../test/support/projection-spec';
import { bulkImportJobsProjection } from './bulk-import-jobs.projection';

const JOB = 'Job:0199a000-0000-7000-8000-0000000000b1';
const PLATFORM = 'Platform:0199a000-0000-7000-8000-0000000000f1';
const stream = 'job-0199a000-0000-7000-8000-0000000000b1';
const ref = { jobId: JOB, platformId: PLATFORM };
const accepted = { stream, type: 'BulkImportAccepted', data: { ...ref, total: 3, fileSha256: 'ab', acceptedAt: '2025-10-13T12:00:00.000Z' } };
const created = { row: 1, platformCustomerId: 'a', customerId: 'Customer:0199a000-0000-7000-8000-000000000001' };
const refused = { row: 2, platformCustomerId: 'b', error: { code: 'INVALID_INPUT', message: 'fullName is required' } };
const recorded = { stream, type: 'BulkImportRowsRecorded', data: { ...ref, fromRow: 1, rows: [created, refused], recordedAt: '2025-10-13T12:00:01.000Z' } };
const last = { stream, type: 'BulkImportRowsRecorded', data: { ...ref, fromRow: 3, rows: [{ ...created, row: 3, platformCustomerId: 'c' }], recordedAt: '2025-10-13T12:00:02.000Z' } };
const finished = { stream, type: 'BulkImportFinished', data: { ...ref, status: 'COMPLETED', successful: 2, failed: 1, completedAt: '2025-10-13T12:00:03.000Z' } };

describe('bulk-import-jobs projection', () => {
  let spec: ProjectionSpec;
  beforeEach(async () => {
    spec = await projectionSpec(bulkImportJobsProjection);
  });
  afterEach(async () => {
    await spec.close();
  });

  it('an accepted job is one PENDING row with its counters at zero', async () => {
    await spec.given([accepted]);
    expect(await spec.rows('SELECT job_id, platform_id, status, record::json AS record FROM bulk_import_jobs')).toEqual([
      {
        job_id: JOB,
        platform_id: PLATFORM,
        status: 'PENDING',
        record: { ...ref, status: 'PENDING', total: 3, processed: 0, successful: 0, failed: 0, completedAt: null, createdAt: accepted.data.acceptedAt, updatedAt: accepted.data.acceptedAt },
      },
    ]);
  });

  it('recorded rows count and land one row each; the end fixes status and completedAt', async () => {
    await spec.given([accepted, recorded]);
    expect((await spec.rows<{ record: { status: string; processed: number } }>('SELECT record::json AS record FROM bulk_import_jobs'))[0].record).toEqual(
      expect.objectContaining({ status: 'PROCESSING', processed: 2, successful: 1, failed: 1 }),
    );
    await spec.given([last, finished]);
    expect((await spec.rows('SELECT status, record::json AS record FROM bulk_import_jobs'))[0]).toEqual({
      status: 'COMPLETED',
      record: expect.objectContaining({ status: 'COMPLETED', processed: 3, successful: 2, failed: 1, completedAt: finished.data.completedAt }),
    });
    expect(await spec.rows('SELECT row_number, result::json AS result FROM bulk_import_rows ORDER BY row_number')).toEqual([
      { row_number: 1, result: created },
      { row_number: 2, result: refused },
      { row_number: 3, result: { ...created, row: 3, platformCustomerId: 'c' } },
    ]);
  });
});
