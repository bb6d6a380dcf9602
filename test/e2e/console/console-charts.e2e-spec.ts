import { TestApp, eventually, startTestApp } from '../../support/test-app';
import { fundedCustomer, quoteToSuffix, transactionWithStatus } from '../../support/quote-fixtures';
import { WebhookReceiver } from '../../support/webhook-receiver';

const FIVE_MINUTES_MS = 5 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** `GET /console/charts`: counts after known traffic, bucketed in SQL (docs/console.md "Console API"). */
describe('console API: charts', () => {
  let testApp: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    testApp = await startTestApp();
    receiver = await WebhookReceiver.forPlatform(testApp.platform.api);
  });

  afterAll(async () => {
    await receiver?.close();
    await testApp?.close();
  });

  it('counts the transactions created per bucket and those that failed, and every delivery try by latency', async () => {
    const api = testApp.platform.api;
    const empty = await api.get('/console/charts').expect(200);
    expect(sum(empty.body.volume.map((bucket: any) => bucket.count))).toBe(0);
    expect(empty.body.webhookLatencyMs.p50).toBeUndefined();

    // A sandbox funding (INCOMING, COMPLETED), a payout that completes and one that fails.
    const owner = await fundedCustomer(api);
    const completed = await quoteToSuffix(api, owner, '789');
    const failing = await quoteToSuffix(api, owner, '002');
    await api.post(`/quotes/${completed.id}/execute`).expect(200);
    await api.post(`/quotes/${failing.id}/execute`).expect(200);
    await transactionWithStatus(api, completed.transactionId, 'COMPLETED');
    await transactionWithStatus(api, failing.transactionId, 'FAILED');
    const tries = await eventually(async () => {
      const deliveries = (await api.get('/webhooks/deliveries').query({ limit: 100 }).expect(200)).body.data;
      return deliveries.every((delivery: any) => delivery.status === 'DELIVERED') && deliveries.flatMap((delivery: any) => delivery.attempts);
    });

    const day = (await api.get('/console/charts').expect(200)).body;
    expect(sum(day.volume.map((bucket: any) => bucket.count))).toBe(3);
    expect(sum(day.volume.map((bucket: any) => bucket.failed))).toBe(1);
    const starts = day.volume.map((bucket: any) => Date.parse(bucket.bucketStart));
    expect(starts.every((start: number) => start % FIVE_MINUTES_MS === 0)).toBe(true);
    expect(starts.slice(1).every((start: number, index: number) => start - starts[index] === FIVE_MINUTES_MS)).toBe(true);
    expect(day.volume.length).toBeGreaterThanOrEqual(288);
    expect(day.volume.length).toBeLessThanOrEqual(289);

    expect(day.webhookLatencyMs.buckets.map((bucket: any) => bucket.le)).toEqual([10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000, 60000]);
    expect(sum(day.webhookLatencyMs.buckets.map((bucket: any) => bucket.count))).toBe(tries.length);
    const latencies = tries.map((attempt: any) => attempt.latencyMs);
    expect(day.webhookLatencyMs.p50).toBeGreaterThanOrEqual(Math.min(...latencies));
    expect(day.webhookLatencyMs.p99).toBeLessThanOrEqual(Math.max(...latencies));

    // Beyond a day, hourly buckets.
    const week = (await api.get('/console/charts').query({ hours: 168 }).expect(200)).body;
    expect(week.volume.every((bucket: any) => Date.parse(bucket.bucketStart) % HOUR_MS === 0)).toBe(true);
    expect(sum(week.volume.map((bucket: any) => bucket.count))).toBe(3);
    expect(week.volume.length).toBeGreaterThanOrEqual(168);

    // Another platform sees none of it.
    const other = await testApp.createPlatform();
    const theirs = (await other.api.get('/console/charts').expect(200)).body;
    expect(sum(theirs.volume.map((bucket: any) => bucket.count))).toBe(0);
    expect(sum(theirs.webhookLatencyMs.buckets.map((bucket: any) => bucket.count))).toBe(0);
  });

  it('answers 400 for hours outside 1..168 and unknown parameters', async () => {
    for (const hours of ['0', '169', 'abc', '1.5', '']) {
      const response = await testApp.platform.api.get('/console/charts').query({ hours }).expect(400);
      expect(response.body.code).toBe('INVALID_INPUT');
      expect(response.body.details.errors.map((error: { field: string }) => error.field)).toEqual(['hours']);
    }
    const unknown = await testApp.platform.api.get('/console/charts').query({ days: '2' }).expect(400);
    expect(unknown.body.details.errors.map((error: { field: string }) => error.field)).toEqual(['days']);
    const hourly = await testApp.platform.api.get('/console/charts').query({ hours: 1 }).expect(200);
    expect(hourly.body.volume.length).toBeGreaterThanOrEqual(12);
    expect(hourly.body.volume.length).toBeLessThanOrEqual(13);
  });
});
