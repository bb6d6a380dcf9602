import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { assertNoQueryErrors } from '../../infra/http/pagination';
import { RequiresPermission } from '../../infra/http/permissions';
import { QueryReader } from '../../infra/http/query-params';
import { ConsoleExplorer, ResourcePage, ResourceStateAt, SearchAnswer } from './console-explorer.service';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/** The longest search text: ids are under 60 characters, platformCustomerIds at most 255. */
const MAX_SEARCH_LENGTH = 255;

/**
 * The platform console's explorer (docs/console.md "Console API"): search any id or
 * platformCustomerId, a resource's page, and its state after any revision (time travel).
 */
@Controller('console')
@RequiresPermission('VIEW')
export class ExplorerController {
  constructor(private readonly explorer: ConsoleExplorer) {}

  /** `GET /console/search?q=<id or platformCustomerId>`: this platform's resources it names (none: empty). */
  @Get('search')
  async search(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>): Promise<SearchAnswer> {
    const reader = new QueryReader(query, ['q']);
    const text = reader.string('q', MAX_SEARCH_LENGTH);
    if (text === '' || (text === undefined && query.q === undefined)) {
      reader.errors.push({ field: 'q', constraint: { minLength: 1, maxLength: MAX_SEARCH_LENGTH }, message: 'q is required: an id or a platformCustomerId' });
    }
    assertNoQueryErrors(reader.errors);
    return this.explorer.search(request.platform.platformId, text!);
  }

  /** `GET /console/resources/{id}`: state, whole history and related resources; 404 for an unknown or another platform's id. */
  @Get('resources/:id')
  async resource(@Req() request: PlatformRequest, @Param('id') id: string): Promise<ResourcePage> {
    return this.explorer.page(request.platform.platformId, id);
  }

  /** `GET /console/resources/{id}/state?revision=<n>`: the resource right after its stream's revision n. */
  @Get('resources/:id/state')
  async stateAt(@Req() request: PlatformRequest, @Param('id') id: string, @Query() query: Record<string, unknown>): Promise<ResourceStateAt> {
    const reader = new QueryReader(query, ['revision']);
    const text = reader.string('revision');
    // Missing, empty or not a whole number (given twice is reported by the reader).
    if (text !== undefined ? !/^\d{1,12}$/.test(text) : query.revision === undefined) {
      reader.errors.push({ field: 'revision', constraint: { pattern: '^\\d{1,12}$' }, message: 'revision is required: a stream revision (an integer from 0)' });
    }
    assertNoQueryErrors(reader.errors);
    return this.explorer.stateAt(request.platform.platformId, id, Number(text));
  }
}
