import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PlatformClient, TestApp, anonymousClient, eventually, startTestApp } from '../../support/test-app';
import { WebhookReceiver } from '../../support/webhook-receiver';

/** One sample line of the text format: `name{label="value",...} number`. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE_LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?(?:[0-9.e+-]+|NaN|\+Inf|-Inf))$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Parses the Prometheus text format strictly: every line a comment (HELP/TYPE) or a sample. */
function parseExposition(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      types.set(type[1], type[2]);
      continue;
    }
    if (/^# HELP [a-zA-Z_:][a-zA-Z0-9_:]* /.test(line)) continue;
    const sample = SAMPLE_LINE.exec(line);
    if (!sample) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (sample[2] ?? '').matchAll(LABEL)) labels[name] = value;
    samples.push({ name: sample[1], labels, value: Number(sample[3]) });
  }
  return { samples, types };
}

/** `GET /metrics`: this process's Prometheus metrics, for the operator key only. */
describe('GET /metrics', () => {
  let testApp: TestApp;
  let operatorKey: string;
  let anonymous: PlatformClient;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { WEBHOOK_TIMEOUT_MS: '1000' } });
    operatorKey = readFileSync(join(testApp.config.dataDir, 'operator-key'), 'utf8').trim();
    anonymous = anonymousClient(testApp.origin);
    receiver = await WebhookReceiver.forPlatform(testApp.platform.api);
  });

  afterAll(async () => {
    await receiver?.close();
    await testApp?.close();
  });

  const scrape = async () => {
    const response = await anonymous.get('/metrics').set('Authorization', `Bearer ${operatorKey}`).expect(200);
    // Express puts the charset first when it sends a string: the same media type.
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8; version=0.0.4');
    expect(response.headers['cache-control']).toBe('no-store');
    return parseExposition(response.text);
  };

  it('refuses a missing key and platform credentials with 401', async () => {
    for (const attempt of [anonymous.get('/metrics'), anonymous.get('/metrics').auth(testApp.platform.clientId, testApp.platform.clientSecret)]) {
      const response = await attempt.expect(401);
      expect(response.body).toEqual({ status: 401, code: 'UNAUTHORIZED', message: 'Missing or invalid operator key' });
      expect(response.headers['www-authenticate']).toBe('Bearer realm="operator"');
    }
  });

  it('is not served under the versioned prefix', async () => {
    await anonymousClient(testApp.baseUrl).get('/metrics').set('Authorization', `Bearer ${operatorKey}`).expect(404);
  });

  it('counts requests by route pattern, never the raw path, with their latency, and the webhook and append figures', async () => {
    // Unknown paths share one series, which the other tests' requests may have counted already.
    const unmatchedBefore = (await scrape()).samples.find(
      (sample) => sample.name === 'http_requests_total' && sample.labels.route === 'unmatched' && sample.labels.method === 'GET' && sample.labels.status === '404',
    )?.value ?? 0;
    const unknownCustomer = `Customer:${randomUUID()}`;
    await testApp.platform.api.get(`/customers/${unknownCustomer}`).expect(404);
    await testApp.platform.api.get('/config').expect(200);
    await anonymous.get('/no/such/path').expect(404);
    // A 2xx answer, then a 500: both outcomes counted.
    await testApp.platform.api.post('/sandbox/webhooks/test').send({}).expect(200);
    receiver.respond = () => ({ status: 500, body: 'down' });
    await testApp.platform.api.post('/sandbox/webhooks/test').send({}).expect(400);

    const { samples, types } = await scrape();
    const find = (name: string, labels: Record<string, string>) =>
      samples.find((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));

    expect(types.get('http_requests_total')).toBe('counter');
    expect(types.get('http_request_duration_seconds')).toBe('histogram');
    expect(find('http_requests_total', { route: '/2025-10-13/customers/:customerId', method: 'GET', status: '404' })?.value).toBe(1);
    expect(find('http_requests_total', { route: '/2025-10-13/config', method: 'GET', status: '200' })?.value).toBeGreaterThanOrEqual(1);
    expect(find('http_requests_total', { route: 'unmatched', method: 'GET', status: '404' })?.value).toBe(unmatchedBefore + 1);
    expect(find('http_request_duration_seconds_count', { route: '/2025-10-13/customers/:customerId', method: 'GET', status: '404' })?.value).toBe(1);
    expect(find('http_request_duration_seconds_bucket', { route: '/2025-10-13/config', le: '+Inf' })).toBeDefined();
    // Refused requests count too, under their route.
    expect(find('http_requests_total', { route: '/metrics', method: 'GET', status: '401' })?.value).toBe(2);
    const routes = samples.filter((sample) => sample.labels.route !== undefined).map((sample) => sample.labels.route);
    expect(routes.filter((route) => /[0-9a-f]{8}-[0-9a-f]{4}-|no\/such/.test(route))).toEqual([]);

    expect(types.get('webhook_deliveries_total')).toBe('counter');
    const outcomes = ['delivered', 'rejected', 'unreachable'].map((outcome) => find('webhook_deliveries_total', { outcome })?.value ?? 0);
    expect(outcomes[0]).toBeGreaterThanOrEqual(1);
    expect(outcomes[1]).toBeGreaterThanOrEqual(1);
    expect(types.get('webhook_delivery_duration_seconds')).toBe('histogram');
    expect(find('webhook_delivery_duration_seconds_count', {})?.value).toBe(outcomes.reduce((sum, count) => sum + count, 0));

    expect(types.get('event_store_append_duration_seconds')).toBe('histogram');
    expect(find('event_store_append_duration_seconds_count', {})!.value).toBeGreaterThan(0);
    expect(find('event_store_append_duration_seconds_bucket', { le: '+Inf' })!.value).toBe(find('event_store_append_duration_seconds_count', {})!.value);
  });

  it('reports every consumer lag and the queues the health check counts', async () => {
    const { samples, types } = await eventually(async () => {
      const scraped = await scrape();
      return scraped.samples.some((sample) => sample.name === 'projection_lag_events' && sample.labels.name === 'platform-config') ? scraped : null;
    });
    expect(types.get('projection_lag_events')).toBe('gauge');
    expect(types.get('projection_lag_seconds')).toBe('gauge');
    const health = (await anonymous.get('/health')).body;
    const consumers = Object.entries(health.checks.projections.consumers as Record<string, { kind: string }>);
    for (const [name, { kind }] of consumers) {
      expect(samples.find((sample) => sample.name === 'projection_lag_events' && sample.labels.name === name)?.labels.kind).toBe(kind);
      expect(samples.find((sample) => sample.name === 'projection_lag_seconds' && sample.labels.name === name)?.labels.kind).toBe(kind);
    }
    for (const queue of Object.keys(health.checks.queues)) {
      for (const state of ['waiting', 'active', 'delayed', 'failed']) {
        expect(samples.find((sample) => sample.name === 'queue_jobs' && sample.labels.queue === queue && sample.labels.state === state)?.value).toEqual(expect.any(Number));
      }
    }
  });
});
