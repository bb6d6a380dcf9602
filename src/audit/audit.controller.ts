import { Controller, Get, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { DomainError } from '../infra/domain/domain-error';
import { AuthenticatedPlatform } from '../infra/http/platform-auth.guard';
import { assertNoQueryErrors } from '../infra/http/pagination';
import { parseAuditQuery } from './audit-query';
import { AuditPage, AuditService } from './audit.service';
import { RequiresPermission } from '../infra/http/permissions';

@Controller('audit')
@RequiresPermission('VIEW')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  /** `GET /audit/events?resourceId=<id>&limit=&cursor=`: the resource's event history. */
  @Get('events')
  async events(@Req() request: Request & { platform: AuthenticatedPlatform }, @Query() query: Record<string, unknown>): Promise<AuditPage> {
    const { query: parsed, errors } = parseAuditQuery(query);
    assertNoQueryErrors(errors);
    const page = await this.audit.history(parsed.resourceId, request.platform.platformId, parsed.fromRevision, parsed.limit);
    if (!page) throw new DomainError('REFERENCE_NOT_FOUND', `No history for ${parsed.resourceId}`);
    return page;
  }
}
