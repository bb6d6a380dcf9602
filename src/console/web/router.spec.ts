import { describe, expect, it } from '@jest/globals';
import { parseRoute, routeHref } from './router';

describe('console routes', () => {
  it('parses each page from the hash, sign-in for anything else', () => {
    expect(parseRoute('')).toEqual({ page: 'signin' });
    expect(parseRoute('#/nowhere')).toEqual({ page: 'signin' });
    expect(parseRoute('#/explorer')).toEqual({ page: 'explorer' });
    expect(parseRoute('#/explorer?q=cust%20%231')).toEqual({ page: 'explorer', query: 'cust #1' });
    expect(parseRoute('#/resource/Customer%3A019a4a19-19f8-7a6b-9e05-c3d18b7f2e40')).toEqual({ page: 'resource', id: 'Customer:019a4a19-19f8-7a6b-9e05-c3d18b7f2e40' });
    expect(parseRoute('#/resource/Customer:019a')).toEqual({ page: 'resource', id: 'Customer:019a' });
    expect(parseRoute('#/resource/')).toEqual({ page: 'explorer' });
    expect(parseRoute('#/resource/%E0%A4%A')).toEqual({ page: 'resource', id: '%E0%A4%A' });
    for (const page of ['webhooks', 'operations', 'charts', 'signin'] as const) expect(parseRoute(`#/${page}`)).toEqual({ page });
  });

  it('builds hashes that parse back to the same route', () => {
    for (const route of [{ page: 'explorer' as const, query: 'req-6f1d 2c9a&x=1' }, { page: 'resource' as const, id: 'Transaction:019a4a17-d638' }, { page: 'charts' as const }]) {
      expect(parseRoute(routeHref(route))).toEqual(route);
    }
  });
});
