import { Command, CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { DomainError } from '../../infra/domain/domain-error';
import { EventStoreService } from '../../infra/event-store/event-store.service';
import { streamNameFor } from '../../infra/ids';
import { logger } from '../../infra/logger';
import { BulkImportFiles } from '../bulk-import/bulk-import-files';
import { readCsvFile } from '../bulk-import/csv-file';
import { CustomerRow, customerInputOf, customerRows, duplicateRows } from '../bulk-import/customer-rows';
import { customerCreatedForRow } from '../bulk-import/own-customer';
import { ExistingBulkImport } from '../domain/bulk-import/bulk-import.decider';
import { BulkImportRowError, BulkImportRowResult } from '../domain/bulk-import/bulk-import.events';
import { BULK_IMPORT_STREAM } from '../streams';
import { CreateCustomer } from './create-customer';

/** Rows whose results are recorded together (one event); a resumed job redoes at most one chunk. */
export const BULK_IMPORT_CHUNK_ROWS = 400;
/** Rows of a chunk created at once: creation waits on Postgres round trips, not on this process. */
export const BULK_IMPORT_CONCURRENCY = 16;

/** The job's worker (task `customers.bulk-import`): imports every row not recorded yet, then finishes the job. */
export class RunBulkImport extends Command<void> {
  constructor(readonly jobId: string) {
    super();
  }
}

/**
 * Each row goes through `CreateCustomer` (the command of `POST /customers`: same checks, same
 * events, same sandbox KYC rules); a refused row is recorded with its error and never stops the
 * others. Runs at least once: a run cut short resumes after the last recorded chunk, and a row of
 * that chunk created before the cut is found again (`customerCreatedForRow`), never created twice.
 */
@CommandHandler(RunBulkImport)
export class RunBulkImportHandler implements ICommandHandler<RunBulkImport, void> {
  constructor(
    private readonly commands: CommandStore,
    private readonly commandBus: CommandBus,
    private readonly events: EventStoreService,
    private readonly files: BulkImportFiles,
  ) {}

  async execute({ jobId }: RunBulkImport): Promise<void> {
    const stream = streamNameFor(jobId);
    const { state } = await this.commands.load(BULK_IMPORT_STREAM, stream);
    if (state.status === 'none') return;
    if (state.status === 'COMPLETED' || state.status === 'FAILED') return this.files.remove(jobId);
    const csv = await this.files.read(jobId);
    if (!csv) throw new Error(`The file of bulk import job ${jobId} is missing`);
    const { table } = readCsvFile(csv);
    const rows = customerRows(table);
    const duplicates = duplicateRows(rows);
    for (let fromRow = state.processed + 1; fromRow <= state.total; fromRow += BULK_IMPORT_CHUNK_ROWS) {
      const rowNumbers = Array.from({ length: Math.min(BULK_IMPORT_CHUNK_ROWS, state.total - fromRow + 1) }, (_, index) => fromRow + index);
      const results = await mapConcurrently(rowNumbers, BULK_IMPORT_CONCURRENCY, (row) =>
        this.importRow(state, row, rows[row - 1], table.records[row - 1].length, table.header.length, duplicates.get(row)),
      );
      await this.commands.handle(BULK_IMPORT_STREAM, stream, { type: 'RecordBulkImportRows', fromRow, rows: results, now: new Date().toISOString() });
    }
    await this.commands.handle(BULK_IMPORT_STREAM, stream, { type: 'FinishBulkImport', now: new Date().toISOString() });
    await this.files.remove(jobId);
  }

  private async importRow(
    job: ExistingBulkImport,
    row: number,
    values: CustomerRow,
    cellCount: number,
    headerCount: number,
    duplicate: BulkImportRowError | undefined,
  ): Promise<BulkImportRowResult> {
    const platformCustomerId = values.platformCustomerId ?? null;
    if (duplicate) return { row, platformCustomerId, error: duplicate };
    const checked = customerInputOf(values, cellCount, headerCount);
    if ('error' in checked) return { row, platformCustomerId, error: checked.error };
    try {
      const customer = await this.commandBus.execute(new CreateCustomer(job.platformId, checked.input));
      return { row, platformCustomerId, customerId: customer.id };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error; // The store or the database: the task runs again.
      if (error.code === 'CONFLICT' || error.code === 'UMA_ADDRESS_EXISTS') {
        const key = { platformId: job.platformId, platformCustomerId: platformCustomerId!, umaAddress: values.umaAddress!, acceptedAt: job.acceptedAt };
        const earlier = await customerCreatedForRow(this.events, key);
        if (earlier) return { row, platformCustomerId, customerId: earlier };
      }
      logger.debug('bulk import row refused', { jobId: job.jobId, row, code: error.code });
      return { row, platformCustomerId, error: rowError(error) };
    }
  }
}

function rowError(error: DomainError): BulkImportRowError {
  const details = error.details as Record<string, unknown> | undefined;
  return details && Object.keys(details).length > 0 ? { code: error.code, message: error.message, details } : { code: error.code, message: error.message };
}

/** `work` over `items` with at most `limit` running at once; results in the items' order. */
async function mapConcurrently<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
