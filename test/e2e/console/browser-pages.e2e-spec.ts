import { randomBytes } from 'node:crypto';
import { Browser } from 'playwright-core';
import { TestApp, startTestApp } from '../../support/test-app';
import { ConsoleTraffic, PAGE_VISITS, VIEWPORT, colourCount, consolePages, launchBrowser, makeTraffic, visit } from './browser-support';

/** A page that rendered only its background has a handful of colours; text and charts have many. */
const MIN_COLOURS = 16;

/**
 * Every page of the console renders, with some traffic behind it, without a console error or an
 * uncaught exception (the page helper fails the test on any): its screenshot is checked to show
 * something, never compared pixel by pixel (docs/console-*.png are made by
 * scripts/console-screenshots.ts from the same visits).
 */
describe('console in a browser: every page renders without errors', () => {
  const operatorKey = randomBytes(32).toString('hex');
  let t: TestApp;
  let browser: Browser;
  let traffic: ConsoleTraffic;
  const pages = consolePages(() => browser, () => t.origin);

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp({ env: { OPERATOR_KEY: operatorKey } }), launchBrowser()]);
    traffic = await makeTraffic(t.platform);
  }, 60_000);

  afterEach(() => pages.closeAll());

  afterAll(async () => {
    await browser?.close();
    await traffic?.receiver.close();
    await t?.close();
  });

  it('the sign-in page', async () => {
    const page = await pages.open('/signin');
    await page.byTestId('signin-submit').waitFor();
    await expectRendered(await page.page.screenshot());
  });

  it.each(PAGE_VISITS.map((pageVisit) => [pageVisit.name, pageVisit] as const))('the %s page', async (_name, pageVisit) => {
    const page = await pages.open('/signin');
    await visit(page, pageVisit, traffic, { platform: t.platform, operatorKey });
    for (const testId of pageVisit.readyTestIds) {
      const box = await page.byTestId(testId).first().boundingBox();
      expect({ testId, drawn: Boolean(box && box.width > 0 && box.height > 0) }).toEqual({ testId, drawn: true });
    }
    await expectRendered(await page.page.screenshot());
  });

  async function expectRendered(png: Buffer): Promise<void> {
    const { width, height, colours } = await colourCount(browser, png);
    expect({ width, height }).toEqual(VIEWPORT);
    expect(colours).toBeGreaterThanOrEqual(MIN_COLOURS);
  }
});
