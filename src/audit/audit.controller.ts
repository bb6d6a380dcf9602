import { Controller, Get, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { DomainError, FieldError } from '../infra/domain/domain-error';
import { AuthenticatedPlatform } from '../infra/http/platform-auth.guard';
import { assertNoQueryErrors } from '../infra/http/pagination';
import { AuditPage, AuditService } from './audit.service';

@Controller('audit')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  /** `GET /audit/events?resourceId=<id>&limit=&cursor=`: the resource's event history. */
  @Get('events')
  async events(@Req() request: Request & { platform: AuthenticatedPlatform }, @Query() query: Record<string, unknown>): Promise<AuditPage> {
    const errors: FieldError[] = [];
    const resourceId = typeof query.resourceId === 'string' ? query.resourceId : '';
    if (!resourceId) errors.push({ field: 'resourceId', constraint: 'REQUIRED', message: 'resourceId is required' });
    else if (!AuditService.isResourceId(resourceId)) {
      errors.push({ field: 'resourceId', constraint: 'FORMAT', message: 'resourceId must be a prefixed id such as Quote:<uuid>' });
    }
    let limit = 50;
    if (query.limit !== undefined) {
      const text = String(query.limit);
      if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 100) {
        errors.push({ field: 'limit', constraint: 'MAX', message: 'limit must be an integer from 1 to 100' });
      } else limit = Number(text);
    }
    let fromRevision = 0;
    if (query.cursor !== undefined) {
      const text = String(query.cursor);
      if (!/^\d{1,12}$/.test(text)) errors.push({ field: 'cursor', constraint: 'FORMAT', message: 'cursor is not a cursor this service issued' });
      else fromRevision = Number(text);
    }
    for (const name of Object.keys(query)) {
      if (!['resourceId', 'limit', 'cursor'].includes(name)) {
        errors.push({ field: name, constraint: 'UNKNOWN_FIELD', message: `Unknown query parameter ${name}` });
      }
    }
    assertNoQueryErrors(errors);
    const page = await this.audit.history(resourceId, request.platform.platformId, fromRevision, limit);
    if (!page) throw new DomainError('NOT_FOUND', `No history for ${resourceId}`);
    return page;
  }
}
