import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Pool } from 'pg';
import { CommandStore } from '../../infra/commands/command-store';
import { PersonalDataKeys } from '../../infra/crypto/personal-data';
import { DomainError } from '../../infra/domain/domain-error';
import { streamNameFor } from '../../infra/ids';
import { PG_POOL } from '../../infra/postgres/pool';
import { documentNotFound } from '../customers.errors';
import { CustomerCommand, CustomerState } from '../domain/customer/customer.decider';
import { assertDocumentChangeable } from '../domain/customer/documents';
import { currentPersonalDataKeyId } from '../domain/customer/personal-data-fields';
import { DocumentView, documentView } from '../queries/customer.view';
import { DocumentsQuery } from '../queries/documents.query';
import { openDocumentView } from '../queries/personal-data-views';
import { CUSTOMER_STREAM } from '../streams';
import { assertSameDataKey } from './customer-guards';
import { DocumentMetadata, UploadedFile, documentRevision, storeDocumentFile } from './upload-document';

/** `PUT /documents/{documentId}`: a new file and metadata for the document; answers it with `updatedAt` moved. */
export class ReplaceDocument extends Command<DocumentView> {
  constructor(
    readonly platformId: string,
    readonly documentId: string,
    readonly file: UploadedFile,
    readonly metadata: DocumentMetadata,
  ) {
    super();
  }
}

/** Another platform's document, like a deleted or unknown one, is not found (the read model says whose it is). */
export function assertDocumentOwned(state: CustomerState, platformId: string): asserts state is Exclude<CustomerState, { status: 'none' }> {
  if (state.status === 'none' || state.platformId !== platformId) throw documentNotFound();
}

/**
 * Finds the document's customer, checks the change is allowed before storing the file (no file
 * is kept for a refused replacement), then records the revision on the customer's stream.
 */
@CommandHandler(ReplaceDocument)
export class ReplaceDocumentHandler implements ICommandHandler<ReplaceDocument, DocumentView> {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly commands: CommandStore,
    private readonly documents: DocumentsQuery,
    private readonly personalData: PersonalDataKeys,
  ) {}

  async execute({ platformId, documentId, file, metadata }: ReplaceDocument): Promise<DocumentView> {
    const customerId = await this.documents.customerOf(platformId, documentId);
    if (!customerId) throw documentNotFound();
    const stream = streamNameFor(customerId);
    const loaded = await this.commands.load(CUSTOMER_STREAM, stream);
    assertDocumentOwned(loaded.state, platformId);
    assertDocumentChangeable('ReplaceDocument', loaded.state, documentId);
    const keyId = currentPersonalDataKeyId(loaded.state);
    const revision = await documentRevision(this.personalData, { keyId, customerId, documentId }, file, metadata);
    await storeDocumentFile(this.pool, platformId, `${documentId}/${revision.sha256}`, file);
    const now = new Date().toISOString();
    const result = await this.commands.handle(
      CUSTOMER_STREAM,
      stream,
      (state): CustomerCommand => {
        assertDocumentOwned(state, platformId);
        assertSameDataKey(state, keyId);
        return { type: 'ReplaceDocument', document: revision, now };
      },
      { preloaded: loaded },
    );
    const document = result.state.status === 'none' ? undefined : result.state.documents.find((candidate) => candidate.documentId === documentId);
    if (!document) throw new DomainError('INTERNAL_ERROR', 'The replacement was not recorded');
    return openDocumentView(documentView(customerId, document), this.personalData);
  }
}
