import { Decider } from '../../../infra/domain/decider';
import { DomainError } from '../../../infra/domain/domain-error';
import { bulkImportJobNotFound } from './bulk-import.errors';
import { BulkImportAccepted, BulkImportEvent, BulkImportJobStatus, BulkImportRowResult } from './bulk-import.events';

/** A job as the write side knows it: rows are recorded in order, so `processed` rows 1..processed have results. */
export type ExistingBulkImport = BulkImportAccepted['data'] & {
  status: BulkImportJobStatus;
  processed: number;
  successful: number;
  failed: number;
  completedAt: string | null;
};

export type BulkImportState = { status: 'none' } | ExistingBulkImport;

export type BulkImportCommand =
  | { type: 'AcceptBulkImport'; job: BulkImportAccepted['data'] }
  | { type: 'RecordBulkImportRows'; fromRow: number; rows: BulkImportRowResult[]; now: string }
  | { type: 'FinishBulkImport'; now: string };

/**
 * One stream per bulk import job, written by the job's worker only. Every command is idempotent
 * (a worker resumed after a crash repeats the last step it may have done): rows already recorded
 * and a finished job record nothing more.
 */
export const bulkImportDecider: Decider<BulkImportCommand, BulkImportState, BulkImportEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    if (command.type === 'AcceptBulkImport') {
      if (state.status !== 'none') return [];
      return [{ type: 'BulkImportAccepted', data: command.job }];
    }
    if (state.status === 'none') throw bulkImportJobNotFound();
    if (state.status === 'COMPLETED' || state.status === 'FAILED') return [];
    const ref = { jobId: state.jobId, platformId: state.platformId };
    if (command.type === 'RecordBulkImportRows') {
      const lastRow = command.fromRow + command.rows.length - 1;
      if (command.rows.length === 0 || lastRow <= state.processed) return [];
      if (command.fromRow !== state.processed + 1 || lastRow > state.total || !inOrder(command.fromRow, command.rows)) {
        throw new DomainError('CONFLICT', `Rows must be recorded in order: the next row of this job is ${state.processed + 1}`);
      }
      return [{ type: 'BulkImportRowsRecorded', data: { ...ref, fromRow: command.fromRow, rows: command.rows, recordedAt: command.now } }];
    }
    if (state.processed < state.total) {
      throw new DomainError('CONFLICT', `The job cannot finish before all its rows: ${state.processed} of ${state.total} recorded`);
    }
    const status = state.successful > 0 ? 'COMPLETED' : 'FAILED';
    return [{ type: 'BulkImportFinished', data: { ...ref, status, successful: state.successful, failed: state.failed, completedAt: command.now } }];
  },

  evolve(state, event) {
    switch (event.type) {
      case 'BulkImportAccepted':
        return { ...event.data, status: 'PENDING', processed: 0, successful: 0, failed: 0, completedAt: null };
      case 'BulkImportRowsRecorded': {
        if (state.status === 'none') return state;
        const successful = event.data.rows.filter((row) => row.customerId !== undefined).length;
        return {
          ...state,
          status: 'PROCESSING',
          processed: state.processed + event.data.rows.length,
          successful: state.successful + successful,
          failed: state.failed + event.data.rows.length - successful,
        };
      }
      case 'BulkImportFinished':
        if (state.status === 'none') return state;
        return { ...state, status: event.data.status, completedAt: event.data.completedAt };
    }
  },
};

function inOrder(fromRow: number, rows: BulkImportRowResult[]): boolean {
  return rows.every((row, index) => row.row === fromRow + index);
}
