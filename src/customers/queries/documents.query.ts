import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { PersonalDataKeys } from '../../infra/crypto/personal-data';
import { Page, PageRequest, toPage } from '../../infra/http/pagination';
import { PG_POOL } from '../../infra/postgres/pool';
import { DocumentView, StoredDocumentView } from './customer.view';
import { openDocumentView } from './personal-data-views';

export interface DocumentFilters {
  /** A Customer or BeneficialOwner id (the reference's `documentHolder`). */
  documentHolder?: string;
}

/**
 * Read side of documents (the `customer_documents` table of the `customers` projection): one
 * row per document, a deleted one kept with `deleted_at` for its audit history and skipped here.
 * Lists page by `(created_at, document_id)` on the platform's (or the holder's) index, never
 * through the platform's customers. Document numbers stay sealed until the view is opened.
 */
@Injectable()
export class DocumentsQuery {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly personalData: PersonalDataKeys,
  ) {}

  async find(platformId: string, documentId: string): Promise<DocumentView | null> {
    const result = await this.pool.query<{ view: StoredDocumentView }>(
      `SELECT view::json AS view FROM customer_documents WHERE platform_id = $1 AND document_id = $2 AND deleted_at IS NULL`,
      [platformId, documentId],
    );
    const view = result.rows[0]?.view;
    return view ? openDocumentView(view, this.personalData) : null;
  }

  /** The customer whose stream records the document (not deleted), or null: unknown, another platform's or deleted. */
  async customerOf(platformId: string, documentId: string): Promise<string | null> {
    const result = await this.pool.query<{ customer_id: string }>(
      `SELECT customer_id FROM customer_documents WHERE platform_id = $1 AND document_id = $2 AND deleted_at IS NULL`,
      [platformId, documentId],
    );
    return result.rows[0]?.customer_id ?? null;
  }

  async list(platformId: string, filters: DocumentFilters, page: PageRequest): Promise<Page<DocumentView>> {
    const conditions = ['platform_id = $1', 'deleted_at IS NULL'];
    const params: unknown[] = [platformId];
    if (filters.documentHolder !== undefined) {
      params.push(filters.documentHolder);
      conditions.push(`document_holder = $${params.length}`);
    }
    const total = await this.pool.query<{ count: string }>(`SELECT count(*) FROM customer_documents WHERE ${conditions.join(' AND ')}`, params);
    if (page.cursor) {
      params.push(String(page.cursor.createdAt), String(page.cursor.id));
      conditions.push(`(created_at, document_id) > ($${params.length - 1}::timestamptz, $${params.length})`);
    }
    params.push(page.limit + 1);
    const rows = await this.pool.query<{ view: StoredDocumentView; created_at: Date; document_id: string }>(
      `SELECT view::json AS view, created_at, document_id FROM customer_documents WHERE ${conditions.join(' AND ')}
        ORDER BY created_at, document_id LIMIT $${params.length}`,
      params,
    );
    const opened = await Promise.all(rows.rows.map(async (row) => ({ ...row, view: await openDocumentView(row.view, this.personalData) })));
    return toPage(
      opened,
      page.limit,
      (row) => row.view,
      (row) => ({ createdAt: row.created_at.toISOString(), id: row.document_id }),
      Number(total.rows[0].count),
    );
  }
}
