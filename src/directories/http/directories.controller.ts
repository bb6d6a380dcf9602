import { Controller, Get, Query } from '@nestjs/common';
import { Page } from '../../infra/http/pagination';
import { QueryReader } from '../../infra/http/query-params';
import { SORT_ORDERS } from '../../infra/http/pagination';
import { DiscoveryWire, UmaProviderWire, listDiscoveries, listUmaProviders, listVasps } from '../queries/directory-listing';
import { VaspEntry } from '../tables/vasps';
import { countryCode, currencyCode, keysetPage, refusePaging } from './directory-query';
import { RequiresPermission } from '../../infra/http/permissions';

/**
 * `GET /uma-providers`, `GET /vasps`, `GET /discoveries`: the sandbox directories (docs/directories.md).
 * The same for every platform; every bad or unknown query parameter is listed in one 400.
 */
@Controller()
@RequiresPermission('VIEW')
export class DirectoriesController {
  @Get('uma-providers')
  umaProviders(@Query() query: Record<string, unknown>): Page<UmaProviderWire> & { totalCount: number } {
    const reader = new QueryReader(query, ['countryCode', 'currencyCode', 'hasBlockedProviders', 'sortOrder', 'limit', 'cursor']);
    const filters = {
      countryCode: countryCode(reader, 'countryCode'),
      currencyCode: currencyCode(reader, 'currencyCode'),
      hasBlockedProviders: reader.boolean('hasBlockedProviders'),
    };
    // Newest first is the contract's default order; providers have no age, so it is by name, Z to A.
    const sortOrder = reader.oneOf('sortOrder', SORT_ORDERS) ?? 'desc';
    const page = keysetPage(reader, query, 'name');
    reader.done();
    return listUmaProviders(filters, sortOrder, page);
  }

  @Get('vasps')
  vasps(@Query() query: Record<string, unknown>): Page<VaspEntry> {
    const reader = new QueryReader(query, ['limit', 'cursor']);
    const page = keysetPage(reader, query, 'vaspName');
    reader.done();
    return listVasps(page);
  }

  @Get('discoveries')
  discoveries(@Query() query: Record<string, unknown>): { data: DiscoveryWire[] } {
    const reader = new QueryReader(query, ['country', 'currency']);
    refusePaging(reader, query);
    const filters = { country: countryCode(reader, 'country'), currency: currencyCode(reader, 'currency') };
    reader.done();
    return listDiscoveries(filters);
  }
}
