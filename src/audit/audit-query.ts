import { FieldError } from '../infra/domain/domain-error';
import { ID_PREFIXES, idConstraint } from '../infra/ids';
import { AuditService } from './audit.service';

export const DEFAULT_AUDIT_PAGE_SIZE = 50;
export const MAX_AUDIT_PAGE_SIZE = 100;

export interface AuditQuery {
  resourceId: string;
  limit: number;
  /** First stream revision of the page (the cursor). */
  fromRevision: number;
}

/**
 * Reads `resourceId`, `limit` and `cursor` the same way for `GET /audit/events` and the
 * `npm run audit` CLI: every bad or unknown parameter is reported, none silently ignored.
 */
export function parseAuditQuery(query: Record<string, unknown>): { query: AuditQuery; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const resourceId = typeof query.resourceId === 'string' ? query.resourceId : '';
  if (!resourceId) errors.push({ field: 'resourceId', constraint: {}, message: 'resourceId is required' });
  else if (!AuditService.isResourceId(resourceId)) {
    errors.push({ field: 'resourceId', constraint: idConstraint(...ID_PREFIXES), message: 'resourceId must be a prefixed id such as Quote:<uuid>' });
  }
  let limit = DEFAULT_AUDIT_PAGE_SIZE;
  if (query.limit !== undefined) {
    const text = String(query.limit);
    if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > MAX_AUDIT_PAGE_SIZE) {
      errors.push({ field: 'limit', constraint: {}, message: `limit must be an integer from 1 to ${MAX_AUDIT_PAGE_SIZE}` });
    } else limit = Number(text);
  }
  let fromRevision = 0;
  if (query.cursor !== undefined) {
    const text = String(query.cursor);
    if (!/^\d{1,12}$/.test(text)) errors.push({ field: 'cursor', constraint: {}, message: 'cursor is not a cursor this service issued' });
    else fromRevision = Number(text);
  }
  for (const name of Object.keys(query)) {
    if (!['resourceId', 'limit', 'cursor'].includes(name)) {
      errors.push({ field: name, constraint: {}, message: `Unknown query parameter ${name}` });
    }
  }
  return { query: { resourceId, limit, fromRevision }, errors };
}
