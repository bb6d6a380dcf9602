import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Pool } from 'pg';
import { CommandStore } from '../../infra/commands/command-store';
import { streamNameFor } from '../../infra/ids';
import { PG_POOL } from '../../infra/postgres/pool';
import { documentNotFound } from '../customers.errors';
import { CustomerCommand } from '../domain/customer/customer.decider';
import { DocumentsQuery } from '../queries/documents.query';
import { CUSTOMER_STREAM } from '../streams';
import { assertDocumentOwned } from './replace-document';

/** `DELETE /documents/{documentId}`: the document leaves the customer's file (204). */
export class DeleteDocument extends Command<void> {
  constructor(
    readonly platformId: string,
    readonly documentId: string,
  ) {
    super();
  }
}

/**
 * Records the deletion, then removes the document's files (every revision): a crash in between
 * leaves files of a deleted document, never a document without its file. The events stay: the
 * audit history keeps what was on file and who deleted it.
 */
@CommandHandler(DeleteDocument)
export class DeleteDocumentHandler implements ICommandHandler<DeleteDocument, void> {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly commands: CommandStore,
    private readonly documents: DocumentsQuery,
  ) {}

  async execute({ platformId, documentId }: DeleteDocument): Promise<void> {
    const customerId = await this.documents.customerOf(platformId, documentId);
    if (!customerId) throw documentNotFound();
    const now = new Date().toISOString();
    await this.commands.handle(CUSTOMER_STREAM, streamNameFor(customerId), (state): CustomerCommand => {
      assertDocumentOwned(state, platformId);
      return { type: 'DeleteDocument', documentId, now };
    });
    await this.pool.query(`DELETE FROM customer_document_files WHERE platform_id = $1 AND (document_id = $2 OR starts_with(document_id, $2 || '/'))`, [
      platformId,
      documentId,
    ]);
  }
}
