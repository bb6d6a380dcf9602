import { createHash } from 'node:crypto';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { streamNameFor, uuidv7 } from '../../infra/ids';
import { BulkImportFiles } from '../bulk-import/bulk-import-files';
import { BULK_IMPORT_STREAM } from '../streams';

/** Bulk import jobs are `Job:<uuid v7>`, as the reference's examples name them. */
export const BULK_IMPORT_JOB_PREFIX = 'Job';

export interface BulkImportAcceptedView {
  jobId: string;
  status: 'PENDING';
}

/** `POST /customers/bulk/csv`: a checked CSV file of `total` rows becomes a PENDING job. */
export class AcceptBulkImport extends Command<BulkImportAcceptedView> {
  constructor(
    readonly platformId: string,
    readonly csv: Buffer,
    readonly total: number,
  ) {
    super();
  }
}

/**
 * Keeps the file, then records the job: the `bulk-import` reactor schedules its worker from the
 * recorded event, so the answer does not wait for a single row. A crash between the two leaves
 * an orphan file and no job (nothing answered, nothing imported).
 */
@CommandHandler(AcceptBulkImport)
export class AcceptBulkImportHandler implements ICommandHandler<AcceptBulkImport, BulkImportAcceptedView> {
  constructor(
    private readonly commands: CommandStore,
    private readonly files: BulkImportFiles,
  ) {}

  async execute({ platformId, csv, total }: AcceptBulkImport): Promise<BulkImportAcceptedView> {
    const jobId = `${BULK_IMPORT_JOB_PREFIX}:${uuidv7()}`;
    await this.files.save(jobId, platformId, csv);
    const fileSha256 = createHash('sha256').update(csv).digest('hex');
    const acceptedAt = new Date().toISOString();
    await this.commands.handle(BULK_IMPORT_STREAM, streamNameFor(jobId), {
      type: 'AcceptBulkImport',
      job: { jobId, platformId, total, fileSha256, acceptedAt },
    });
    return { jobId, status: 'PENDING' };
  }
}
