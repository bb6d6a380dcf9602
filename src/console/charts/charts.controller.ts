import { Controller, Get, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { assertNoQueryErrors } from '../../infra/http/pagination';
import { RequiresPermission } from '../../infra/http/permissions';
import { QueryReader } from '../../infra/http/query-params';
import { ChartsAnswer, ChartsQuery } from './charts.query';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/** A day by default, a week at most. */
const DEFAULT_HOURS = 24;
const MAX_HOURS = 168;

/** The platform console's charts (docs/console.md "Console API"). */
@Controller('console')
@RequiresPermission('VIEW')
export class ChartsController {
  constructor(private readonly query: ChartsQuery) {}

  /** `GET /console/charts?hours=<1..168>`: transactions per bucket with failures, webhook latency distribution. */
  @Get('charts')
  async charts(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>): Promise<ChartsAnswer> {
    const reader = new QueryReader(query, ['hours']);
    const text = reader.string('hours');
    if (text !== undefined && !(/^\d{1,3}$/.test(text) && Number(text) >= 1 && Number(text) <= MAX_HOURS)) {
      reader.errors.push({ field: 'hours', constraint: { pattern: '^\\d{1,3}$' }, message: `hours must be an integer from 1 to ${MAX_HOURS}` });
    }
    assertNoQueryErrors(reader.errors);
    return this.query.charts(request.platform.platformId, text === undefined ? DEFAULT_HOURS : Number(text));
  }
}
