import { Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody, ApiConsumes } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import multer from 'multer';
import { FieldError, ValidationError } from '../../infra/domain/domain-error';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { RequiresPermission } from '../../infra/http/permissions';
import { isUuid } from '../../infra/ids';
import { MAX_CSV_BYTES, readCsvFile } from '../bulk-import/csv-file';
import { AcceptBulkImport, BULK_IMPORT_JOB_PREFIX, BulkImportAcceptedView } from '../commands/accept-bulk-import';
import { bulkImportJobNotFound } from '../domain/bulk-import/bulk-import.errors';
import { BulkImportQuery } from '../queries/bulk-import.query';
import { BulkImportJobView } from '../queries/bulk-import.view';

type PlatformRequest = Request & { platform: AuthenticatedPlatform; file?: Express.Multer.File };

const upload = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: MAX_CSV_BYTES, files: 1, fields: 0, parts: 1 },
}).single('file');

/**
 * `POST /customers/bulk/csv` (multipart, one CSV part named `file`) and
 * `GET /customers/bulk/jobs/{jobId}`. Registered before the customers routes, whose
 * `/customers/:customerId` would otherwise take `bulk` for an id.
 */
@Controller('customers/bulk')
export class BulkImportController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly query: BulkImportQuery,
  ) {}

  @Post('csv')
  @HttpCode(202)
  @RequiresPermission('MANAGE')
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['file'],
      properties: { file: { type: 'string', format: 'binary', description: 'The customers: a UTF-8 CSV of at most 10 MB and 10,000 rows' } },
    },
  })
  async upload(@Req() request: PlatformRequest, @Res({ passthrough: true }) response: Response): Promise<BulkImportAcceptedView> {
    if (!request.is('multipart/form-data')) {
      throw new ValidationError([{ field: 'body', constraint: {}, message: 'POST /customers/bulk/csv takes multipart/form-data with a file part' }]);
    }
    await new Promise<void>((resolve, reject) => upload(request, response, (error: unknown) => (error ? reject(uploadError(error)) : resolve())));
    if (!request.file) throw new ValidationError([{ field: 'file', constraint: {}, message: 'file is required (a CSV part named "file")' }]);
    const { table, errors } = readCsvFile(request.file.buffer);
    if (errors.length > 0) throw new ValidationError(errors);
    return this.commandBus.execute(new AcceptBulkImport(request.platform.platformId, request.file.buffer, table.records.length));
  }

  @Get('jobs/:jobId')
  @RequiresPermission('VIEW')
  async get(@Req() request: PlatformRequest, @Param('jobId') jobId: string): Promise<BulkImportJobView> {
    // The reference declares no 400 here: an id that cannot name a job is not found.
    if (!jobId.startsWith(`${BULK_IMPORT_JOB_PREFIX}:`) || !isUuid(jobId.slice(BULK_IMPORT_JOB_PREFIX.length + 1))) throw bulkImportJobNotFound();
    const view = await this.query.find(request.platform.platformId, jobId);
    if (!view) throw bulkImportJobNotFound();
    return view;
  }
}

function uploadError(error: unknown): ValidationError {
  const { code, field } = error as { code?: string; field?: string };
  const fieldError = (name: string, message: string): FieldError => ({ field: name, constraint: {}, message });
  switch (code) {
    case 'LIMIT_FILE_SIZE':
      return new ValidationError([fieldError('file', `file must be at most ${MAX_CSV_BYTES / (1024 * 1024)} MB`)]);
    case 'LIMIT_UNEXPECTED_FILE':
    case 'LIMIT_FILE_COUNT':
      return new ValidationError([fieldError(field ?? 'file', 'Only one file part, named "file", is accepted')]);
    case 'LIMIT_FIELD_COUNT':
    case 'LIMIT_PART_COUNT':
      return new ValidationError([fieldError(field ?? 'body', 'The form takes one part: the CSV file named "file"')]);
    default:
      return new ValidationError([fieldError('body', 'The multipart body is malformed')]);
  }
}
