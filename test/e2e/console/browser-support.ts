import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Browser, BrowserContext, Locator, Page, chromium } from 'playwright-core';
import { FundedCustomer, fundedCustomer, quoteToSuffix, quoteWithStatus } from '../../support/quote-fixtures';
import { TestPlatform, eventually } from '../../support/test-app';
import { WebhookReceiver } from '../../support/webhook-receiver';

/**
 * The browser side of the console's tests: Debian's chromium (scripts/ensure-chromium.sh installs
 * it; CHROMIUM_PATH overrides) driven by playwright-core, one browser per suite and a fresh
 * context (so a fresh sessionStorage) per page. Every page records the console errors and the
 * uncaught exceptions it shows; `close()` fails the test on any that it did not expect.
 * Only the `data-testid` hooks of the console's contract are relied on.
 */

/** What screenshots and the README show: a laptop-sized window. */
export const VIEWPORT = { width: 1280, height: 800 };

/** Waits for the UI: the app polls and re-renders, so a few seconds, never the test's 30 s. */
export const UI_TIMEOUT_MS = 10_000;

export function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  try {
    return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('chromium is not installed: run `bash scripts/ensure-chromium.sh` (npm test does) or set CHROMIUM_PATH');
  }
}

export async function launchBrowser(): Promise<Browser> {
  // --no-sandbox: the tests run as root in CI, where chromium refuses its sandbox.
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox'] });
}

/** A browser's `Failed to load resource` line for an answer the test provokes on purpose. */
interface ExpectedHttpError {
  status: number;
  urlPart: string;
}

export class ConsolePage {
  /** Console errors and page errors, in order, each with where it came from. */
  readonly errors: string[] = [];
  private readonly expectedHttpErrors: ExpectedHttpError[] = [];

  private constructor(
    private readonly context: BrowserContext,
    readonly page: Page,
    private readonly origin: string,
  ) {
    page.setDefaultTimeout(UI_TIMEOUT_MS);
    page.on('pageerror', (error) => this.errors.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const url = message.location().url;
      if (this.isExpectedHttpError(message.text(), url)) return;
      this.errors.push(`console error: ${message.text()} (${url})`);
    });
  }

  /** A fresh context (no session) on `<origin>/console#<route>`. */
  static async open(browser: Browser, origin: string, route = '/signin'): Promise<ConsolePage> {
    const context = await browser.newContext({ viewport: VIEWPORT });
    const consolePage = new ConsolePage(context, await context.newPage(), origin);
    await consolePage.goto(route);
    return consolePage;
  }

  /**
   * The browser logs every 4xx answer to a fetch as a console error; a test that provokes one
   * (wrong credentials, another platform's id) declares it, and only that one is tolerated.
   */
  expectHttpError(status: number, urlPart: string): void {
    this.expectedHttpErrors.push({ status, urlPart });
  }

  async goto(route: string): Promise<void> {
    await this.page.goto(`${this.origin}/console#${route}`);
  }

  byTestId(testId: string): Locator {
    return this.page.getByTestId(testId);
  }

  async signInAsPlatform(platform: Pick<TestPlatform, 'clientId' | 'clientSecret'>): Promise<void> {
    await this.byTestId('signin-client-id').fill(platform.clientId);
    await this.byTestId('signin-client-secret').fill(platform.clientSecret);
    await this.byTestId('signin-submit').click();
    await this.landedOn('/explorer');
  }

  async signInAsOperator(operatorKey: string): Promise<void> {
    await this.byTestId('signin-operator-key').fill(operatorKey);
    await this.byTestId('signin-operator-submit').click();
    await this.landedOn('/operations');
  }

  /** A sign-in that the service accepted moves on to the credential's first page. */
  private async landedOn(route: string): Promise<void> {
    await eventually(async () => this.page.url().endsWith(`#${route}`), UI_TIMEOUT_MS);
    await this.byTestId('nav-signout').waitFor();
  }

  /** Closes the page's context and fails when the page showed an unexpected error. */
  async close(): Promise<void> {
    await this.context.close();
    if (this.errors.length > 0) throw new Error(`the console page showed errors:\n${this.errors.join('\n')}`);
  }

  private isExpectedHttpError(text: string, encodedUrl: string): boolean {
    const url = decodeURIComponent(encodedUrl);
    return this.expectedHttpErrors.some(
      (expected) => text.startsWith(`Failed to load resource: the server responded with a status of ${expected.status}`) && url.includes(expected.urlPart),
    );
  }
}

/**
 * Opens one page per test and closes it after, so a test that throws still closes its page and
 * a page's unexpected errors fail the test that opened it.
 */
export function consolePages(browser: () => Browser, origin: () => string): { open(route?: string): Promise<ConsolePage>; closeAll(): Promise<void> } {
  const opened: ConsolePage[] = [];
  return {
    async open(route) {
      const consolePage = await ConsolePage.open(browser(), origin(), route);
      opened.push(consolePage);
      return consolePage;
    },
    async closeAll() {
      const failures: string[] = [];
      for (const consolePage of opened.splice(0)) {
        await consolePage.close().catch((error: Error) => failures.push(error.message));
      }
      if (failures.length > 0) throw new Error(failures.join('\n'));
    },
  };
}

/** The JSON a `<pre>` hook shows. */
export async function jsonOf(locator: Locator): Promise<any> {
  return JSON.parse((await locator.textContent()) ?? '');
}

/** What `makeTraffic` made, for the tests to look for in the pages. */
export interface ConsoleTraffic {
  /** Created as "Ada Lovelace", then renamed "Ada King": two states to travel between. */
  customer: { id: string; platformCustomerId: string };
  /** A completed quote and its transaction: a chain of quote, holds, settlement, webhooks. */
  quoteId: string;
  transactionId: string;
  /** A TEST webhook the endpoint refused (400): FAILED after one try, to retry from the page. */
  failedDeliveryId: string;
  /** The platform's endpoint, answering 200 (a test may change its `respond`). */
  receiver: WebhookReceiver;
}

/**
 * Traffic through the public API, enough for every page to show something: a renamed customer,
 * `completedQuotes` settled payments and one failed, their webhooks, one refused delivery.
 */
export async function makeTraffic(platform: TestPlatform, completedQuotes = 2): Promise<ConsoleTraffic> {
  const { api } = platform;
  const receiver = await WebhookReceiver.forPlatform(api, { respond: () => ({ status: 200, body: '{"ok":true}' }) });
  const owner = await fundedCustomer(api, 1_000_000, { fullName: 'Ada Lovelace' });
  await api.patch(`/customers/${owner.customer.id}`).send({ fullName: 'Ada King' }).expect(200);

  const quotes = [];
  for (let index = 0; index < completedQuotes; index += 1) quotes.push(await executedQuote(platform, owner, '789', 10_000 + index * 2_500));
  const failed = await executedQuote(platform, owner, '002', 4_000);
  await Promise.all(quotes.map((quote) => quoteWithStatus(api, quote.id, 'COMPLETED')));
  await quoteWithStatus(api, failed.id, 'FAILED');

  const failedDeliveryId = await refusedTestWebhook(platform, receiver);
  return {
    customer: { id: owner.customer.id, platformCustomerId: owner.customer.platformCustomerId },
    quoteId: quotes[0].id,
    transactionId: quotes[0].transactionId,
    failedDeliveryId,
    receiver,
  };
}

async function executedQuote(platform: TestPlatform, owner: FundedCustomer, suffix: string, amount: number): Promise<any> {
  const quote = await quoteToSuffix(platform.api, owner, suffix, amount);
  await platform.api.post(`/quotes/${quote.id}/execute`).expect(200);
  return quote;
}

/** A TEST webhook answered 400 (permanent: FAILED after one try); the endpoint answers 200 again after. */
async function refusedTestWebhook(platform: TestPlatform, receiver: WebhookReceiver): Promise<string> {
  const answerOk = receiver.respond;
  receiver.respond = (entry) => (entry.body.type === 'TEST' ? { status: 400, body: '{"error":"refused by the test"}' } : answerOk(entry));
  try {
    const { webhookId, deliveryId } = (await platform.api.post('/sandbox/webhooks/test/async').expect(202)).body;
    await eventually(async () => {
      const delivery = (await platform.api.get('/webhooks/deliveries').query({ webhookId }).expect(200)).body.data[0];
      return delivery?.status === 'FAILED';
    });
    return deliveryId;
  } finally {
    receiver.respond = answerOk;
  }
}

/**
 * The console's pages as the screenshots show them: where each is, who signs in, and what it
 * shows once loaded (the hook to wait for, after `prepare` clicked what makes it interesting).
 */
export interface PageVisit {
  name: 'explorer' | 'resource' | 'webhooks' | 'operations' | 'charts';
  /** Who signs in: the charts page shows the platform's charts and, to an operator too, the lag. */
  as: 'platform' | 'operator' | 'both';
  route(traffic: ConsoleTraffic): string;
  prepare(page: ConsolePage, traffic: ConsoleTraffic): Promise<void>;
  readyTestIds: string[];
}

export const PAGE_VISITS: PageVisit[] = [
  {
    name: 'explorer',
    as: 'platform',
    route: () => '/explorer',
    prepare: async (page, traffic) => {
      await page.byTestId('search-input').fill(traffic.customer.platformCustomerId);
      await page.byTestId('search-submit').click();
    },
    readyTestIds: ['search-result'],
  },
  {
    name: 'resource',
    as: 'platform',
    route: (traffic) => `/resource/${traffic.customer.id}`,
    prepare: async (page) => {
      await page.byTestId('timeline-event').first().click();
    },
    readyTestIds: ['resource-state', 'time-travel-state', 'related-link'],
  },
  {
    name: 'webhooks',
    as: 'platform',
    route: () => '/webhooks',
    prepare: async (page, traffic) => {
      await page.page.locator(`[data-testid=delivery-row][data-id="${traffic.failedDeliveryId}"]`).click();
    },
    readyTestIds: ['delivery-detail', 'delivery-attempt', 'delivery-body'],
  },
  {
    name: 'operations',
    as: 'operator',
    route: () => '/operations',
    prepare: async (page) => {
      // A finished rebuild in the jobs table shows what the page is for.
      await page.page.locator('[data-testid=consumer-row][data-name=customers]').getByTestId('job-start-rebuild').click();
      await page.page.locator('[data-testid=job-progress][data-status=SUCCEEDED]').waitFor();
    },
    readyTestIds: ['health-status', 'consumer-row', 'queue-row'],
  },
  { name: 'charts', as: 'both', route: () => '/charts', prepare: async () => undefined, readyTestIds: ['chart-volume', 'chart-failure-rate', 'chart-webhook-latency', 'chart-lag'] },
];

/** Signs in as the visit says, opens its page, prepares it and waits until it shows its content. */
export async function visit(page: ConsolePage, pageVisit: PageVisit, traffic: ConsoleTraffic, credentials: { platform: TestPlatform; operatorKey: string }): Promise<void> {
  if (pageVisit.as !== 'operator') await page.signInAsPlatform(credentials.platform);
  if (pageVisit.as === 'both') await page.goto('/signin');
  if (pageVisit.as !== 'platform') await page.signInAsOperator(credentials.operatorKey);
  await page.goto(pageVisit.route(traffic));
  await pageVisit.prepare(page, traffic);
  // Each hook is drawn from the page's data, so once all are there the page shows its content.
  for (const testId of pageVisit.readyTestIds) await page.byTestId(testId).first().waitFor();
  await page.page.evaluate(() => document.fonts.ready);
}

/**
 * How many different colours a PNG has, up to `cap` (decoded by the browser itself, on a blank
 * page of its own): a page that rendered nothing is one colour, a rendered page many.
 */
export async function colourCount(browser: Browser, png: Buffer, cap = 64): Promise<{ width: number; height: number; colours: number }> {
  const page = await browser.newPage();
  try {
    return await page.evaluate(
      async ({ base64, limit }) => {
        const image = new Image();
        image.src = `data:image/png;base64,${base64}`;
        await image.decode();
        const canvas = document.createElement('canvas');
        [canvas.width, canvas.height] = [image.width, image.height];
        const context = canvas.getContext('2d')!;
        context.drawImage(image, 0, 0);
        const pixels = new Uint32Array(context.getImageData(0, 0, image.width, image.height).data.buffer);
        const seen = new Set<number>();
        for (let index = 0; index < pixels.length && seen.size < limit; index += 1) seen.add(pixels[index]);
        return { width: image.width, height: image.height, colours: seen.size };
      },
      { base64: png.toString('base64'), limit: cap },
    );
  } finally {
    await page.close();
  }
}
