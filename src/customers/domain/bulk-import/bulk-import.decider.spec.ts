import { deciderSpec } from '../../../../test/support/decider-spec';
import { BulkImportCommand, bulkImportDecider } from './bulk-import.decider';
import { BulkImportEvent, BulkImportRowResult } from './bulk-import.events';

const ref = { jobId: 'Job:019a4a19-1874-7c6d-8e2a-4b9f0a3d1c58', platformId: 'Platform:p' };
const AT = '2026-11-27T12:00:00.000Z';
const LATER = '2026-11-27T12:00:05.000Z';
const accepted: BulkImportEvent = { type: 'BulkImportAccepted', data: { ...ref, total: 3, fileSha256: 'ab', acceptedAt: AT } };
const created = (row: number): BulkImportRowResult => ({ row, platformCustomerId: `c${row}`, customerId: `Customer:${row}` });
const refused = (row: number): BulkImportRowResult => ({ row, platformCustomerId: `c${row}`, error: { code: 'INVALID_INPUT', message: 'bad' } });
const record = (fromRow: number, rows: BulkImportRowResult[]): BulkImportCommand => ({ type: 'RecordBulkImportRows', fromRow, rows, now: LATER });
const recorded = (fromRow: number, rows: BulkImportRowResult[]): BulkImportEvent => ({
  type: 'BulkImportRowsRecorded',
  data: { ...ref, fromRow, rows, recordedAt: LATER },
});
const finish: BulkImportCommand = { type: 'FinishBulkImport', now: LATER };
const spec = deciderSpec(bulkImportDecider);

describe('bulk import decider', () => {
  it('accepts a job once; accepting it again records nothing', () => {
    spec.given([]).when({ type: 'AcceptBulkImport', job: accepted.data as never }).then([accepted]);
    spec.given([accepted]).when({ type: 'AcceptBulkImport', job: accepted.data as never }).then([]);
    expect(spec.state([accepted])).toEqual({ ...accepted.data, status: 'PENDING', processed: 0, successful: 0, failed: 0, completedAt: null });
  });

  it('records rows in order and counts them; rows already recorded are a no-op (a resumed worker)', () => {
    spec.given([accepted]).when(record(1, [created(1), refused(2)])).then([recorded(1, [created(1), refused(2)])]);
    spec.given([accepted, recorded(1, [created(1), refused(2)])]).when(record(1, [created(1), refused(2)])).then([]);
    expect(spec.state([accepted, recorded(1, [created(1), refused(2)])])).toEqual(
      expect.objectContaining({ status: 'PROCESSING', processed: 2, successful: 1, failed: 1 }),
    );
  });

  it('refuses a gap, rows past the total or rows out of order', () => {
    spec.given([accepted]).when(record(2, [created(2)])).thenError('CONFLICT');
    spec.given([accepted]).when(record(1, [created(1), created(2), created(3), created(4)])).thenError('CONFLICT');
    spec.given([accepted]).when(record(1, [created(2)])).thenError('CONFLICT');
  });

  it('finishes COMPLETED when a customer was created, FAILED when none; once', () => {
    const all = recorded(1, [created(1), refused(2), refused(3)]);
    const completed: BulkImportEvent = { type: 'BulkImportFinished', data: { ...ref, status: 'COMPLETED', successful: 1, failed: 2, completedAt: LATER } };
    spec.given([accepted, all]).when(finish).then([completed]);
    spec.given([accepted, all, completed]).when(finish).then([]);
    spec.given([accepted, all, completed]).when(record(1, [created(1)])).then([]);
    const none = recorded(1, [refused(1), refused(2), refused(3)]);
    spec.given([accepted, none]).when(finish).then([{ type: 'BulkImportFinished', data: { ...ref, status: 'FAILED', successful: 0, failed: 3, completedAt: LATER } }]);
  });

  it('cannot finish before every row; an unknown job is BULK_UPLOAD_JOB_NOT_FOUND', () => {
    spec.given([accepted, recorded(1, [created(1)])]).when(finish).thenError('CONFLICT');
    spec.given([]).when(finish).thenError('BULK_UPLOAD_JOB_NOT_FOUND');
  });
});
