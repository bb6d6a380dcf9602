import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookHttpClient } from './webhook-http-client';

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
    expect(result.responseBody).toHaveLength(16 * 1024);
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

  it('refuses loopback and private endpoints in production mode without connecting', async () => {
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
});
