import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as dns from 'node:dns';
import { MAX_RESPONSE_BODY_BYTES, WebhookHttpClient } from './webhook-http-client';

describe('WebhookHttpClient', () => {
  let server: http.Server;
  let url: string;
  let hits = 0;

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      hits++;
      request.resume();
      request.on('end', () => {
        if (request.url === '/slow') return; // never answers
        if (request.url === '/redirect') return response.writeHead(307, { Location: '/ok' }).end();
        response.writeHead(request.url === '/busy' ? 429 : 201, { 'Retry-After': '7' }).end('x'.repeat(40_000));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('answers the status, the start of the body and Retry-After', async () => {
    const client = new WebhookHttpClient({ timeoutMs: 2000, refuseInternalAddresses: false });
    const result = await client.post(`${url}/ok`, '{}', {});
    expect(result.statusCode).toBe(201);
    expect(result.error).toBeNull();
    expect(result.responseBody).toBe('x'.repeat(MAX_RESPONSE_BODY_BYTES));
    expect((await client.post(`${url}/busy`, '{}', {})).retryAfterMs).toBe(7000);
    client.close();
  });

  it('gives up after the timeout and when interrupted', async () => {
    const client = new WebhookHttpClient({ timeoutMs: 200, refuseInternalAddresses: false });
    expect(await client.post(`${url}/slow`, '{}', {})).toEqual(
      expect.objectContaining({ statusCode: null, error: 'no answer within 200 ms' }),
    );
    const controller = new AbortController();
    const pending = client.post(`${url}/slow`, '{}', {}, controller.signal);
    controller.abort();
    expect((await pending).error).toBe('the try was interrupted (the worker is shutting down)');
    client.close();
  });

  it('refuses loopback and private endpoints without connecting when internal targets are refused', async () => {
    const client = new WebhookHttpClient({ timeoutMs: 2000, refuseInternalAddresses: true });
    const before = hits;
    for (const endpoint of [`${url}/ok`, 'http://localhost:1/x', 'http://10.0.0.8/x', 'http://[::1]:1/x']) {
      expect((await client.post(endpoint, '{}', {})).error).toBe('the webhook endpoint points at a loopback or private address');
    }
    expect((await client.post('ftp://example.com/x', '{}', {})).error).toBe('the webhook endpoint must use http or https');
    expect((await client.post('not a url', '{}', {})).error).toBe('the webhook endpoint is not a valid URL');
    expect(hits).toBe(before);
    client.close();
  });

  it('refuses a name that resolves to an internal address (DNS rebinding) without connecting', async () => {
    const port = new URL(url).port;
    // A resolver that answers a public-looking name with loopback, as a rebinding DNS server would.
    const resolve = ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
      if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
      else callback(null, '127.0.0.1', 4);
    }) as unknown as typeof dns.lookup;
    const client = new WebhookHttpClient({ timeoutMs: 2000, refuseInternalAddresses: true, resolve });
    const before = hits;
    const result = await client.post(`http://hooks.rebind.example:${port}/ok`, '{}', {});
    expect(result).toEqual(expect.objectContaining({ statusCode: null, error: 'EREFUSED_INTERNAL: hooks.rebind.example resolves to a loopback or private address' }));
    expect(hits).toBe(before);
    client.close();
  });

  it('does not follow redirects: a 3xx is the answer', async () => {
    const client = new WebhookHttpClient({ timeoutMs: 2000, refuseInternalAddresses: false });
    const before = hits;
    const result = await client.post(`${url}/redirect`, '{}', {});
    expect(result).toEqual(expect.objectContaining({ statusCode: 307, error: null }));
    expect(hits).toBe(before + 1);
    client.close();
  });
});
