import { Browser } from 'playwright-core';
import { API_VERSION } from '../../../src/app.factory';
import { createIndividual } from '../../support/customer-fixtures';
import { TestApp, TestPlatform, eventually, startTestApp } from '../../support/test-app';
import { ConsolePage, ConsoleTraffic, consolePages, jsonOf, launchBrowser, makeTraffic } from './browser-support';

/**
 * The platform side of the console in a real browser, against the real service: sign-in, the
 * explorer (search, resource page, timeline, time travel, a transaction's chain), the webhook
 * delivery log and its retry button, and what a stranger sees (wrong credentials, another
 * platform's ids).
 */
describe('console in a browser: platform pages', () => {
  let t: TestApp;
  let browser: Browser;
  let traffic: ConsoleTraffic;
  let stranger: { platform: TestPlatform; customer: any };
  const pages = consolePages(() => browser, () => t.origin);

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp({ env: { WEBHOOK_TIMEOUT_MS: '2000' } }), launchBrowser()]);
    traffic = await makeTraffic(t.platform);
    const platform = await t.createPlatform();
    stranger = { platform, customer: await createIndividual(platform.api) };
  }, 60_000);

  afterEach(() => pages.closeAll());

  afterAll(async () => {
    await browser?.close();
    await traffic?.receiver.close();
    await t?.close();
  });

  it('wrong credentials show the sign-in error and nothing else', async () => {
    const page = await pages.open('/signin');
    page.expectHttpError(401, `/${API_VERSION}/`);
    await page.byTestId('signin-client-id').fill(t.platform.clientId);
    await page.byTestId('signin-client-secret').fill(`${t.platform.clientSecret}-wrong`);
    await page.byTestId('signin-submit').click();

    await page.byTestId('signin-error').waitFor();
    for (const hook of ['nav-explorer', 'nav-webhooks', 'search-input', 'resource-state', 'delivery-row']) {
      expect(await page.byTestId(hook).count()).toBe(0);
    }
  });

  it('finds a customer by id and by platformCustomerId', async () => {
    const page = await pages.open('/signin');
    await page.signInAsPlatform(t.platform);
    await page.byTestId('nav-explorer').click();

    for (const query of [traffic.customer.id, traffic.customer.platformCustomerId]) {
      await searchFor(page, query);
      await page.byTestId('search-result').waitFor();
      expect(await page.byTestId('search-result').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-id')))).toEqual([traffic.customer.id]);
    }
  });

  it("opens the customer's timeline and time-travels to an earlier event", async () => {
    const page = await pages.open('/signin');
    await page.signInAsPlatform(t.platform);
    await searchFor(page, traffic.customer.platformCustomerId);
    await page.byTestId('search-result').click();

    await expectJson(() => jsonOf(page.byTestId('resource-state')), (state) => state.id === traffic.customer.id && state.fullName === 'Ada King');
    await page.byTestId('timeline-event').first().waitFor();
    const revisions = await page.byTestId('timeline-event').evaluateAll((events) => events.map((event) => Number(event.getAttribute('data-revision'))));
    expect(revisions.length).toBeGreaterThanOrEqual(2);
    expect(revisions).toEqual([...revisions].sort((a, b) => a - b));

    // The first event is the creation: the customer was still "Ada Lovelace" then.
    const earliest = revisions[0];
    await page.page.locator(`[data-testid=timeline-event][data-revision="${earliest}"]`).click();
    await expectText(() => page.byTestId('time-travel-revision').textContent(), String(earliest));
    const answered = (await t.platform.api.get(`/console/resources/${traffic.customer.id}/state`).query({ revision: earliest }).expect(200)).body;
    const shown = await jsonOf(page.byTestId('time-travel-state'));
    expect(shown).toEqual(answered.state);
    expect(shown.fullName).toBe('Ada Lovelace');
    expect(shown).not.toEqual(await jsonOf(page.byTestId('resource-state')));
  });

  it("shows a transaction's chain: quote, holds, settlement, webhooks", async () => {
    const page = await pages.open('/signin');
    await page.signInAsPlatform(t.platform);
    await page.goto(`/resource/${traffic.transactionId}`);

    await expectJson(() => jsonOf(page.byTestId('resource-state')), (state) => state.id === traffic.transactionId);
    await page.byTestId('chain-step').first().waitFor();
    expect(await page.byTestId('chain-step').count()).toBeGreaterThanOrEqual(3);
    expect(await page.page.locator(`[data-testid=related-link][data-id="${traffic.quoteId}"]`).count()).toBeGreaterThanOrEqual(1);
  });

  it('filters the delivery log and retries a refused delivery: its row shows the new attempt', async () => {
    const page = await pages.open('/signin');
    await page.signInAsPlatform(t.platform);
    await page.byTestId('nav-webhooks').click();
    const row = page.page.locator(`[data-testid=delivery-row][data-id="${traffic.failedDeliveryId}"]`);
    await page.byTestId('delivery-filter-status').selectOption('FAILED');
    await eventually(async () => (await page.byTestId('delivery-row').count()) === 1 && (await row.count()) === 1);
    // Unfiltered again: the retried delivery (then DELIVERED) stays in the list.
    await page.byTestId('delivery-filter-status').selectOption('');
    await row.click();

    await page.byTestId('delivery-detail').waitFor();
    expect(await page.byTestId('delivery-attempt').count()).toBe(1);
    expect(await jsonOf(page.byTestId('delivery-body'))).toMatchObject({ type: 'TEST' });
    const receivedBefore = traffic.receiver.received.length;
    await page.byTestId('delivery-retry').click();

    await page.byTestId('delivery-retry-done').waitFor();
    await eventually(async () => (await page.byTestId('delivery-attempt').count()) === 2);
    await expectText(() => row.innerText(), /DELIVERED/);
    expect(traffic.receiver.received.length).toBe(receivedBefore + 1);
    const delivery = (await t.platform.api.get('/webhooks/deliveries').query({ status: 'DELIVERED', limit: 100 }).expect(200)).body.data.find(
      (entry: any) => entry.id === traffic.failedDeliveryId,
    );
    expect(delivery.attempts.map((attempt: any) => attempt.trigger)).toEqual(['AUTOMATIC', 'MANUAL']);
  });

  it("another platform's ids show nothing: an empty search, a not-found resource page", async () => {
    const page = await pages.open('/signin');
    await page.signInAsPlatform(t.platform);
    for (const query of [stranger.customer.id, stranger.customer.platformCustomerId]) {
      await searchFor(page, query);
      await page.byTestId('search-empty').waitFor();
      expect(await page.byTestId('search-result').count()).toBe(0);
    }

    page.expectHttpError(404, `/console/resources/${stranger.customer.id}`);
    await page.goto(`/resource/${stranger.customer.id}`);
    await expectText(() => page.page.locator('body').innerText(), /REFERENCE_NOT_FOUND/);
    for (const hook of ['resource-state', 'timeline-event', 'related-link', 'time-travel-state']) {
      expect(await page.byTestId(hook).count()).toBe(0);
    }
    expect(await page.page.locator('body').innerText()).not.toContain(stranger.customer.fullName);
  });
});

/** A search from a freshly loaded explorer, so no earlier query's results are on the page. */
async function searchFor(page: ConsolePage, query: string): Promise<void> {
  await page.goto('/explorer');
  await page.page.reload();
  await page.byTestId('search-input').fill(query);
  await page.byTestId('search-submit').click();
}

/** Waits until a `<pre>` shows JSON the predicate accepts (the page loads it asynchronously). */
async function expectJson(read: () => Promise<any>, accept: (value: any) => boolean): Promise<void> {
  await eventually(async () => accept(await read()), 10_000);
}

async function expectText(read: () => Promise<string | null>, expected: string | RegExp): Promise<void> {
  await eventually(async () => {
    const text = (await read()) ?? '';
    return typeof expected === 'string' ? text.trim() === expected : expected.test(text);
  }, 10_000);
}
