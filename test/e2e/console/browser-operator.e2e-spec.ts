import { randomBytes } from 'node:crypto';
import { Browser } from 'playwright-core';
import { createIndividual } from '../../support/customer-fixtures';
import { TestApp, eventually, startTestApp } from '../../support/test-app';
import { ConsolePage, consolePages, launchBrowser } from './browser-support';

/** A rebuild of the customers read model over a few customers finishes within seconds. */
const JOB_TIMEOUT_MS = 20_000;

/**
 * The operator side of the console in a real browser: sign-in with the operator key (given to
 * the test app as OPERATOR_KEY), the operations page (consumers, queues, health), a rebuild and a
 * verify started from the page and followed to SUCCEEDED, and a wrong key.
 */
describe('console in a browser: operator pages', () => {
  const operatorKey = randomBytes(32).toString('hex');
  let t: TestApp;
  let browser: Browser;
  const pages = consolePages(() => browser, () => t.origin);

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp({ env: { OPERATOR_KEY: operatorKey } }), launchBrowser()]);
    // Events for the rebuild to replay.
    for (let index = 0; index < 3; index += 1) await createIndividual(t.platform.api);
  }, 60_000);

  afterEach(() => pages.closeAll());

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('a wrong operator key shows the sign-in error and nothing else', async () => {
    const page = await pages.open('/signin');
    page.expectHttpError(401, '/console/operations');
    await page.byTestId('signin-operator-key').fill(randomBytes(32).toString('hex'));
    await page.byTestId('signin-operator-submit').click();

    await page.byTestId('signin-error').waitFor();
    for (const hook of ['nav-operations', 'nav-explorer', 'consumer-row', 'queue-row', 'health-status']) {
      expect(await page.byTestId(hook).count()).toBe(0);
    }
  });

  it('shows every projection and reactor, the queues and the health', async () => {
    const page = await pages.open('/signin');
    await page.signInAsOperator(operatorKey);
    await page.byTestId('nav-operations').click();

    await page.byTestId('health-status').waitFor();
    await consumerRow(page, 'customers').waitFor();
    const operations = await operationsOf(t);
    const names = await page.byTestId('consumer-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-name')));
    expect([...names].sort()).toEqual(operations.consumers.map((consumer: any) => consumer.name).sort());
    expect(await page.byTestId('queue-row').count()).toBe(Object.keys(operations.queues).length);
  });

  it('starts a rebuild and a verify from the page and follows them to SUCCEEDED', async () => {
    const page = await pages.open('/signin');
    await page.signInAsOperator(operatorKey);
    await page.byTestId('nav-operations').click();

    // Two projections, so each job's bar is told apart by its totals.
    for (const [kind, projection] of [['rebuild', 'customers'], ['verify', 'platform-config']] as const) {
      await consumerRow(page, projection).getByTestId(`job-start-${kind}`).click();
      const job = await eventually(async () => {
        const found = (await operationsOf(t)).jobs.find((entry: any) => entry.kind === kind && entry.projection === projection);
        return found?.status === 'SUCCEEDED' && found;
      }, JOB_TIMEOUT_MS);
      const { total } = job.progress;
      expect(total).toBeGreaterThan(0);
      expect(job.progress.done).toBe(total);
      if (kind === 'verify') expect(job.result.differences).toBe(0);
      const bar = `[data-testid=job-progress][data-status=SUCCEEDED][data-done="${total}"][data-total="${total}"]`;
      await page.page.locator(bar).first().waitFor({ timeout: JOB_TIMEOUT_MS });
    }
  });

  function consumerRow(page: ConsolePage, name: string) {
    return page.page.locator(`[data-testid=consumer-row][data-name="${name}"]`);
  }

  async function operationsOf(app: TestApp): Promise<any> {
    const response = await fetch(`${app.baseUrl}/console/operations`, { headers: { Authorization: `Bearer ${operatorKey}` } });
    expect(response.status).toBe(200);
    return response.json();
  }
});
