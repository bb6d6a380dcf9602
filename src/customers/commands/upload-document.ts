import { createHash } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Pool } from 'pg';
import { CommandStore } from '../../infra/commands/command-store';
import { PersonalDataKeys } from '../../infra/crypto/personal-data';
import { DomainError } from '../../infra/domain/domain-error';
import { newId, streamNameFor } from '../../infra/ids';
import { PG_POOL } from '../../infra/postgres/pool';
import { deletedCustomerReference } from '../customers.errors';
import { CustomerCommand } from '../domain/customer/customer.decider';
import { DocumentRevision } from '../domain/customer/documents';
import { currentPersonalDataKeyId, documentNumberField } from '../domain/customer/personal-data-fields';
import { BeneficialOwnersQuery } from '../queries/beneficial-owners.query';
import { DocumentView, documentView } from '../queries/customer.view';
import { openDocumentView } from '../queries/personal-data-views';
import { CUSTOMER_STREAM } from '../streams';
import { ActiveCustomers } from './active-customers';
import { assertOwned, assertSameDataKey } from './customer-guards';

/**
 * The documents' files. `document_id` is the file's key: the document's id for the uploaded file,
 * `<document id>/<sha256>` for each replacement (replaced files stay, as the revisions the audit
 * history names; a retried replacement stores nothing twice). `DELETE /documents/{id}` removes them all.
 */
export const DOCUMENT_FILES_DDL = `
CREATE TABLE IF NOT EXISTS customer_document_files (
  platform_id text NOT NULL,
  document_id text NOT NULL,
  content_type text NOT NULL,
  content bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (platform_id, document_id)
)`;

export interface UploadedFile {
  buffer: Buffer;
  originalName: string;
  contentType: string;
}

export interface DocumentMetadata {
  documentType: string;
  country: string;
  side: string | null;
  documentNumber: string | null;
  issuingAuthority: string | null;
}

export interface DocumentFields extends DocumentMetadata {
  documentHolder: string;
}

/** Stores a file under its key; the file is stored before the event that names it (see DOCUMENT_FILES_DDL). */
export async function storeDocumentFile(pool: Pool, platformId: string, fileKey: string, file: UploadedFile): Promise<void> {
  await pool.query(
    `INSERT INTO customer_document_files (platform_id, document_id, content_type, content) VALUES ($1, $2, $3, $4)
     ON CONFLICT DO NOTHING`,
    [platformId, fileKey, file.contentType, file.buffer],
  );
}

/** The revision an event records: the file's description and the metadata, the number sealed with the customer's key. */
export async function documentRevision(
  personalData: PersonalDataKeys,
  target: { keyId: string; customerId: string; documentId: string },
  file: UploadedFile,
  metadata: DocumentMetadata,
): Promise<DocumentRevision> {
  const { keyId, customerId, documentId } = target;
  return {
    documentId,
    documentType: metadata.documentType,
    side: metadata.side,
    country: metadata.country,
    documentNumber:
      metadata.documentNumber === null ? null : await personalData.seal(keyId, customerId, documentNumberField(documentId), metadata.documentNumber),
    issuingAuthority: metadata.issuingAuthority,
    fileName: file.originalName,
    contentType: file.contentType,
    sizeBytes: file.buffer.length,
    sha256: createHash('sha256').update(file.buffer).digest('hex'),
  };
}

/** `POST /documents`: answers the document's metadata. */
export class UploadDocument extends Command<DocumentView> {
  constructor(
    readonly platformId: string,
    readonly file: UploadedFile,
    readonly fields: DocumentFields,
  ) {
    super();
  }
}

/**
 * Stores the file, then records the document on its holder: an active customer of the platform, or
 * one of an active business's beneficial owners (recorded on the business, naming the owner).
 */
@CommandHandler(UploadDocument)
export class UploadDocumentHandler implements ICommandHandler<UploadDocument, DocumentView> {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly commands: CommandStore,
    private readonly customers: ActiveCustomers,
    private readonly personalData: PersonalDataKeys,
    private readonly owners: BeneficialOwnersQuery,
  ) {}

  async execute({ platformId, file, fields }: UploadDocument): Promise<DocumentView> {
    const whenDeleted = () => deletedCustomerReference('documentHolder');
    // A beneficial owner's document lives in its business's stream, naming the owner.
    const ownerId = fields.documentHolder.startsWith('BeneficialOwner:') ? fields.documentHolder : null;
    const customerId = ownerId ? await this.owners.customerIdOf(platformId, ownerId) : fields.documentHolder;
    if (!customerId) throw new DomainError('REFERENCE_NOT_FOUND', 'Document holder not found');
    const holder = await this.customers.load(platformId, customerId, whenDeleted);
    const keyId = currentPersonalDataKeyId(holder);
    const documentId = newId('Document');
    const now = new Date().toISOString();
    // The file is stored before the event: a crash in between leaves an unreferenced file row,
    // never an event pointing at a missing file.
    await storeDocumentFile(this.pool, platformId, documentId, file);
    const revision = await documentRevision(this.personalData, { keyId, customerId, documentId }, file, fields);
    const document = { ...revision, ...(ownerId ? { holderId: ownerId } : {}), uploadedAt: now };
    await this.commands.handle(CUSTOMER_STREAM, streamNameFor(customerId), (state): CustomerCommand => {
      assertOwned(state, platformId);
      if (state.status === 'deleted') throw whenDeleted();
      assertSameDataKey(state, keyId);
      return { type: 'UploadDocument', document };
    });
    return openDocumentView(documentView(customerId, document), this.personalData);
  }
}
