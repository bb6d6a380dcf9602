import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { Browser } from 'playwright-core';
import { ConsolePage, PAGE_VISITS, launchBrowser, makeTraffic, visit } from '../test/e2e/console/browser-support';
import { TestApp, startTestApp } from '../test/support/test-app';

/**
 * `node scripts/run-ts.js scripts/console-screenshots.ts`: the README's screenshots of the console,
 * docs/console-<page>.png at 1280x800. Starts what `npm test` starts (a throwaway Postgres and
 * Redis through the jest global setup, which also builds the console bundle when stale) and the
 * test app on it, makes some traffic, and photographs each page as the browser suite visits it
 * (test/e2e/console/browser-pages.e2e-spec.ts). Nothing of `.data/` is touched.
 */
const REPOSITORY_ROOT = resolve(__dirname, '..');
const DOCS_DIR = join(REPOSITORY_ROOT, 'docs');
// The jest global setup and teardown: plain JS, loaded as jest loads them.
const globalSetup: () => Promise<void> = require('../test/support/global-setup.js');
const globalTeardown: () => Promise<void> = require('../test/support/global-teardown.js');

async function main(): Promise<void> {
  // The service's request logs would bury the list of files written (LOG_LEVEL=info shows them).
  process.env.LOG_LEVEL ??= 'warn';
  await globalSetup();
  let app: TestApp | undefined;
  let browser: Browser | undefined;
  try {
    const operatorKey = randomBytes(32).toString('hex');
    [app, browser] = await Promise.all([startTestApp({ env: { OPERATOR_KEY: operatorKey } }), launchBrowser()]);
    const traffic = await makeTraffic(app.platform, 6);
    try {
      for (const pageVisit of PAGE_VISITS) {
        const page = await ConsolePage.open(browser, app.origin);
        try {
          await visit(page, pageVisit, traffic, { platform: app.platform, operatorKey });
          const file = join(DOCS_DIR, `console-${pageVisit.name}.png`);
          writeFileSync(file, await page.page.screenshot());
          process.stdout.write(`wrote ${relative(REPOSITORY_ROOT, file)}\n`);
        } finally {
          await page.close();
        }
      }
    } finally {
      await traffic.receiver.close();
    }
  } finally {
    await browser?.close();
    await app?.close();
    await globalTeardown();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`console-screenshots: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
