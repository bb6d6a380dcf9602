import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { RequestMethod } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { REQUIRED_PERMISSION } from '../../../src/infra/http/permissions';
import { PUBLIC_ROUTE } from '../../../src/infra/http/route-metadata';
import { TestApp, startTestApp } from '../../support/test-app';

/** `| \`GET /customers/{customerId}\` | VIEW |` rows of docs/api.md "Permissions". */
const DOCS_ROW = /^\| `([A-Z]+ \/[^`]*)` \| (VIEW|TRANSACT|MANAGE) \|/;

/**
 * Every route declares the permission it needs (`@RequiresPermission`, on the handler or its
 * controller), and docs/api.md's table says the same: a new route without one fails here, as does
 * a table that drifted. Public routes (health) need none.
 */
describe('route permissions', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('every route but the public ones declares a permission, and docs/api.md lists each', () => {
    const routes = declaredRoutes(testApp);
    expect(routes.size).toBeGreaterThan(60);
    const undeclared = [...routes].filter(([, permission]) => permission === undefined).map(([route]) => route);
    expect(undeclared).toEqual([]);

    const documented = new Map<string, string>();
    for (const line of readFileSync(join(__dirname, '..', '..', '..', 'docs', 'api.md'), 'utf8').split('\n')) {
      const row = DOCS_ROW.exec(line);
      if (row) documented.set(row[1], row[2]);
    }
    const expected = [...routes].filter(([, permission]) => permission !== 'PUBLIC').map(([route, permission]) => `| \`${route}\` | ${permission} |`).sort();
    const actual = [...documented].map(([route, permission]) => `| \`${route}\` | ${permission} |`).sort();
    // On a mismatch the expected rows are the table to paste into docs/api.md.
    expect(actual).toEqual(expected);
  });
});

/** `METHOD /path/{param}` -> the permission its handler needs ('PUBLIC' for public routes; undefined: none declared). */
function declaredRoutes(testApp: TestApp): Map<string, string | undefined> {
  const routes = new Map<string, string | undefined>();
  for (const module of testApp.app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: unknown[]) => unknown) | null;
      if (!controller) continue;
      const base = Reflect.getMetadata(PATH_METADATA, controller) as string;
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = controller.prototype[name];
        if (name === 'constructor' || typeof handler !== 'function' || Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        const path = `/${[base, Reflect.getMetadata(PATH_METADATA, handler) as string].filter((part) => part && part !== '/').join('/')}`.replace(/:([A-Za-z]+)/g, '{$1}');
        const isPublic = Reflect.getMetadata(PUBLIC_ROUTE, handler) || Reflect.getMetadata(PUBLIC_ROUTE, controller);
        routes.set(`${method} ${path}`, isPublic ? 'PUBLIC' : (Reflect.getMetadata(REQUIRED_PERMISSION, handler) ?? Reflect.getMetadata(REQUIRED_PERMISSION, controller)));
      }
    }
  }
  return routes;
}
