import { Pool } from 'pg';
import { AuditDataPresenter, AuditResourceLocator, eventNames } from '../../audit';
import { markErased } from '../../infra/crypto/personal-data';
import { CustomerPersonalDataErased } from '../domain/customer/customer.events';
import { streamNameFor } from '../../infra/ids';

const TABLES: Record<string, { table: string; idColumn: string }> = {
  Document: { table: 'customer_documents', idColumn: 'document_id' },
  Verification: { table: 'customer_verifications', idColumn: 'verification_id' },
  BeneficialOwner: { table: 'customer_beneficial_owners', idColumn: 'beneficial_owner_id' },
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

/**
 * In a customer stream's audit history, sealed personal fields keep their envelope (the events'
 * shape is unchanged); those whose key was erased later in the stream carry `"erased": true`.
 */
export const customerAuditPresenter: AuditDataPresenter = (event, stream) => {
  if (!event.streamName.startsWith('customer-')) return event.data;
  const erasedKeyIds = new Set(
    stream.filter((candidate) => candidate.type === 'CustomerPersonalDataErased').map((candidate) => (candidate.data as CustomerPersonalDataErased['data']).keyId),
  );
  return erasedKeyIds.size === 0 ? event.data : (markErased(event.data, erasedKeyIds) as Record<string, unknown>);
};
