import { Pool } from 'pg';
import { AuditResourceLocator, eventNames } from '../../audit/audit-locators';
import { streamNameFor } from '../../infra/ids';

const TABLES: Record<string, { table: string; idColumn: string }> = {
  Document: { table: 'customer_documents', idColumn: 'document_id' },
  Verification: { table: 'customer_verifications', idColumn: 'verification_id' },
};

/**
 * Documents and verifications are recorded in their customer's stream (see customer.events.ts):
 * their audit history is the customer stream's events that name them, found through the
 * customers read model (which maps each id to its customer).
 */
export function customerAuditLocator(pool: Pool): AuditResourceLocator {
  return {
    prefixes: Object.keys(TABLES),
    async locate(resourceId, platformId) {
      const { table, idColumn } = TABLES[resourceId.slice(0, resourceId.indexOf(':'))];
      const params: unknown[] = [resourceId];
      let sql = `SELECT customer_id FROM ${table} WHERE ${idColumn} = $1`;
      if (platformId !== null) {
        params.push(platformId);
        sql += ' AND platform_id = $2';
      }
      const result = await pool.query<{ customer_id: string }>(sql, params).catch((error: { code?: string }) => {
        // A database whose read models were never created (an operator CLI on a fresh one).
        if (error.code === '42P01') return { rows: [] as Array<{ customer_id: string }> };
        throw error;
      });
      const customerId = result.rows[0]?.customer_id;
      if (!customerId) return null;
      return { streamName: streamNameFor(customerId), concerns: (event) => eventNames(event, resourceId) };
    },
  };
}
