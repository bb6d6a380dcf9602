import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Controller, Get, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { DomainError } from '../infra/domain/domain-error';
import { HttpResult } from '../infra/http/http-result';
import { Public } from '../infra/http/route-metadata';

/**
 * The console's files (scripts/build-console.js writes them to dist/console) and their types.
 * Only these names are routed: any other path under /console is the service's 404, and no part
 * of a request path ever reaches the file system (no directory traversal to guard against).
 */
const ASSETS: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};

/** The routes served outside the versioned prefix (src/app.factory.ts excludes exactly these). */
export const CONSOLE_STATIC_PATHS = ['console', ...Object.keys(ASSETS).map((name) => `console/${name}`)];

/**
 * The page allows this origin only: no inline script or style, no CDN, no framing (clickjacking).
 * `data:` images for the page's empty favicon.
 */
export const CONSOLE_CSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

const SECURITY_HEADERS = {
  'Content-Security-Policy': CONSOLE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

/**
 * `GET /console`: the console's single page, and `GET /console/{index.html,app.js,app.css}`.
 * Public (the page signs in itself, docs/console.md), unversioned like /health, and not in the
 * OpenAPI document: it serves a web page, not the API. The page is never cached (a new build is
 * seen at once); its script and stylesheet are revalidated (their names carry no hash).
 */
@ApiExcludeController()
@Public()
@Controller('console')
export class ConsoleStaticController {
  @Get()
  page(): Promise<HttpResult<string>> {
    return serveAsset('index.html');
  }

  @Get(Object.keys(ASSETS))
  asset(@Req() request: Request): Promise<HttpResult<string>> {
    // The routed path's last segment is one of ASSETS' names (a trailing slash is routed too).
    return serveAsset(request.path.replace(/\/+$/, '').split('/').pop() ?? '');
  }
}

async function serveAsset(name: string): Promise<HttpResult<string>> {
  const type = ASSETS[name];
  if (!type) throw new DomainError('NOT_FOUND', `No console file ${name}`);
  const directory = consoleAssetsDir();
  const body = directory ? await readFile(join(directory, name), 'utf8').catch(() => undefined) : undefined;
  if (body === undefined) throw new DomainError('SERVICE_UNAVAILABLE', 'The console is not built: run npm run build');
  return new HttpResult(200, body, {
    ...SECURITY_HEADERS,
    'Content-Type': type,
    'Cache-Control': name === 'index.html' ? 'no-store' : 'no-cache',
  });
}

/**
 * dist/console, from the compiled service (dist/src/console) or from the sources (src/console,
 * as the tests run them). Looked up per request: a build after start is served without restart.
 */
function consoleAssetsDir(): string | undefined {
  return [join(__dirname, '..', '..', 'console'), join(__dirname, '..', '..', 'dist', 'console')].find((directory) => existsSync(join(directory, 'index.html')));
}
