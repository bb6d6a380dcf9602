import { Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody, ApiConsumes } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { Page } from '../../infra/http/pagination';
import { QueryReader } from '../../infra/http/query-params';
import { hasErrorAt, throwIfAny } from '../../infra/http/validation';
import { isUuid, parseId } from '../../infra/ids';
import { documentNotFound } from '../customers.errors';
import { DeleteDocument } from '../commands/delete-document';
import { ReplaceDocument } from '../commands/replace-document';
import { DocumentMetadata, UploadDocument, UploadedFile } from '../commands/upload-document';
import { DocumentView } from '../queries/customer.view';
import { DocumentsQuery } from '../queries/documents.query';
import { RequiresPermission } from '../../infra/http/permissions';
import { DOCUMENT_FILE_PART, DocumentFieldsDto, DocumentReplaceFieldsDto, readDocumentForm } from './document-form';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/** `POST`/`GET /documents` and `GET`/`PUT`/`DELETE /documents/{id}` (the multipart form: document-form.ts). */
@Controller('documents')
export class DocumentsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly query: DocumentsQuery,
  ) {}

  @Post()
  @RequiresPermission('MANAGE')
  @ApiConsumes('multipart/form-data')
  @ApiBody(DOCUMENT_FILE_PART)
  async upload(@Req() request: PlatformRequest, @Res({ passthrough: true }) response: Response): Promise<DocumentView> {
    const { value, errors, file } = await readDocumentForm(request, response, DocumentFieldsDto, 'POST /documents');
    if (!hasErrorAt(errors, 'documentHolder') && !isDocumentHolderId(value.documentHolder)) {
      errors.push({ field: 'documentHolder', constraint: { format: 'Customer-id' }, message: 'documentHolder must be a Customer:<uuid> or BeneficialOwner:<uuid> id' });
    }
    throwIfAny(errors);
    return this.commandBus.execute(new UploadDocument(request.platform.platformId, uploadedFile(file!), { documentHolder: value.documentHolder, ...metadataOf(value) }));
  }

  @Get()
  @RequiresPermission('VIEW')
  async list(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>): Promise<Page<DocumentView>> {
    const reader = new QueryReader(query, ['documentHolder']);
    const documentHolder = reader.string('documentHolder');
    if (documentHolder !== undefined && !isDocumentHolderId(documentHolder)) {
      reader.errors.push({
        field: 'documentHolder',
        constraint: { pattern: '^(Customer|BeneficialOwner):<uuid>$' },
        message: 'documentHolder must be a Customer:<uuid> or BeneficialOwner:<uuid> id',
      });
    }
    const page = reader.page('Document');
    reader.done();
    return this.query.list(request.platform.platformId, { documentHolder }, page);
  }

  @Get(':documentId')
  @RequiresPermission('VIEW')
  async get(@Req() request: PlatformRequest, @Param('documentId') documentId: string): Promise<DocumentView> {
    // The reference declares no 400 here: an id that cannot name a document is not found.
    if (!parseId('Document', documentId)) throw documentNotFound();
    const view = await this.query.find(request.platform.platformId, documentId);
    if (!view) throw documentNotFound();
    return view;
  }

  /** A replacement is the whole document again (the reference's DocumentReplaceRequest): optional fields left out are cleared. */
  @Put(':documentId')
  @RequiresPermission('MANAGE')
  @ApiConsumes('multipart/form-data')
  @ApiBody(DOCUMENT_FILE_PART)
  async replace(
    @Req() request: PlatformRequest,
    @Res({ passthrough: true }) response: Response,
    @Param('documentId') documentId: string,
  ): Promise<DocumentView> {
    if (!parseId('Document', documentId)) throw documentNotFound();
    const { value, errors, file } = await readDocumentForm(request, response, DocumentReplaceFieldsDto, 'PUT /documents/{documentId}');
    throwIfAny(errors);
    return this.commandBus.execute(new ReplaceDocument(request.platform.platformId, documentId, uploadedFile(file!), metadataOf(value)));
  }

  @Delete(':documentId')
  @RequiresPermission('MANAGE')
  @HttpCode(204)
  async remove(@Req() request: PlatformRequest, @Param('documentId') documentId: string): Promise<void> {
    // The reference declares no 400 here either.
    if (!parseId('Document', documentId)) throw documentNotFound();
    await this.commandBus.execute(new DeleteDocument(request.platform.platformId, documentId));
  }
}

/** The reference's `documentHolder`: a customer or one of its beneficial owners. */
function isDocumentHolderId(id: string): boolean {
  return parseId('Customer', id) !== null || (id.startsWith('BeneficialOwner:') && isUuid(id.slice('BeneficialOwner:'.length)));
}

function uploadedFile(file: Express.Multer.File): UploadedFile {
  return { buffer: file.buffer, originalName: file.originalname || 'document', contentType: file.mimetype };
}

function metadataOf(value: DocumentReplaceFieldsDto): DocumentMetadata {
  return {
    documentType: value.documentType,
    country: value.country,
    side: value.side ?? null,
    documentNumber: value.documentNumber ?? null,
    issuingAuthority: value.issuingAuthority ?? null,
  };
}
