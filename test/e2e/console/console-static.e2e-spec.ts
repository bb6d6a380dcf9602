import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { CONSOLE_CSP } from '../../../src/console/console-static.controller';
import { TestApp, startTestApp } from '../../support/test-app';

/** The built bundle (the jest global setup builds it when missing or stale). */
const DIST = join(__dirname, '..', '..', '..', 'dist', 'console');

/**
 * `GET /console`: the console's page and its two files, unversioned and without credentials,
 * under a CSP that allows this origin only; nothing else under /console is served.
 */
describe('console static files', () => {
  let testApp: TestApp;
  let origin: ReturnType<typeof request>;

  beforeAll(async () => {
    testApp = await startTestApp();
    origin = request(testApp.origin);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('serves index.html at /console with the CSP, never cached, loading only its own script and stylesheet', async () => {
    const response = await origin.get('/console').expect(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toBe(
      "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
    );
    expect(response.headers['content-security-policy']).toBe(CONSOLE_CSP);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.text).toBe(readFileSync(join(DIST, 'index.html'), 'utf8'));
    expect(response.text).toContain('<script defer src="/console/app.js"></script>');
    expect(response.text).toContain('<link rel="stylesheet" href="/console/app.css" />');
    // No inline script or style for the CSP to block, and nothing from another origin.
    expect(response.text).not.toMatch(/<script>|<style|style=|https?:\/\//);

    await origin.get('/console/').expect(200);
    expect((await origin.get('/console/index.html').expect(200)).text).toBe(response.text);
  });

  it('serves app.js and app.css with their types and the same headers, revalidated', async () => {
    const script = await origin.get('/console/app.js').expect(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['content-security-policy']).toBe(CONSOLE_CSP);
    expect(script.headers['cache-control']).toBe('no-cache');
    expect(script.text).toBe(readFileSync(join(DIST, 'app.js'), 'utf8'));
    // The contract's hooks for the browser tests are in the bundle.
    for (const hook of ['signin-client-id', 'signin-operator-key', 'search-input', 'timeline-event', 'delivery-retry', 'job-progress', 'chart-lag']) {
      expect(script.text).toContain(hook);
    }

    const stylesheet = await origin.get('/console/app.css').expect(200);
    expect(stylesheet.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(stylesheet.text).toBe(readFileSync(join(DIST, 'app.css'), 'utf8'));
  });

  it('answers 404 for any other file, and no path reaches outside the bundle', async () => {
    for (const path of ['/console/missing.js', '/console/app.js.map', '/console/../package.json', '/console/%2e%2e/package.json', '/console/..%2f..%2fpackage.json', '/console/%2e%2e%2f%2e%2e%2fpackage.json', '/console/web/main.tsx']) {
      const response = await origin.get(path);
      expect({ path, status: response.status, code: response.body.code }).toEqual({ path, status: 404, code: 'NOT_FOUND' });
    }
    // Only GET: the page takes no writes.
    const post = await origin.post('/console').send({});
    expect({ status: post.status, code: post.body.code, allow: post.headers.allow }).toEqual({ status: 405, code: 'METHOD_NOT_ALLOWED', allow: expect.stringContaining('GET') });
  });

  it('is not versioned and not part of the API document', async () => {
    expect((await origin.get('/2025-10-13/console')).status).toBe(404);
    const document = (await origin.get('/2025-10-13/openapi.json').expect(200)).body as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths).filter((path) => path === '/console' || path.startsWith('/console/app') || path.startsWith('/console/index'))).toEqual([]);
  });
});
