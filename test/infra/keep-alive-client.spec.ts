import http from 'node:http';
import { AddressInfo } from 'node:net';
import { KeepAliveClient } from '../../bench/keep-alive-client';

/** The bench's load client (bench/keep-alive-client.ts) against a real Node HTTP server. */
describe('KeepAliveClient (bench:quotes load client)', () => {
  let server: http.Server;
  let port: number;
  const seen: Array<{ method: string; url: string; authorization: string | undefined; body: string; socket: unknown }> = [];

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        seen.push({ method: request.method!, url: request.url!, authorization: request.headers.authorization, body, socket: request.socket });
        if (request.url === '/chunked') {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.write('{"a":');
          response.end('1}');
          return;
        }
        if (request.url === '/empty') {
          response.writeHead(204);
          response.end();
          return;
        }
        const text = JSON.stringify({ echoed: body ? JSON.parse(body) : null, path: request.url });
        response.writeHead(request.method === 'POST' ? 201 : 200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        response.end(text);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    seen.length = 0;
  });

  it('sends method, path, headers and JSON body, and answers status and parsed body, reusing one connection', async () => {
    const client = new KeepAliveClient(`http://127.0.0.1:${port}`, ['authorization: Basic abc']);
    const created = await client.request('POST', '/v1/quotes', { amount: 1_000, note: 'é' });
    const read = await client.request('GET', '/v1/quotes/1');
    const empty = await client.request('POST', '/empty');
    client.close();

    expect(created).toEqual({ status: 201, json: { echoed: { amount: 1_000, note: 'é' }, path: '/v1/quotes' } });
    expect(read).toEqual({ status: 200, json: { echoed: null, path: '/v1/quotes/1' } });
    expect(empty).toEqual({ status: 204, json: null });
    expect(seen.map(({ method, url, authorization }) => [method, url, authorization])).toEqual([
      ['POST', '/v1/quotes', 'Basic abc'],
      ['GET', '/v1/quotes/1', 'Basic abc'],
      ['POST', '/empty', 'Basic abc'],
    ]);
    expect(new Set(seen.map((request) => request.socket)).size).toBe(1);
  });

  it('opens one connection per request in flight', async () => {
    const client = new KeepAliveClient(`http://127.0.0.1:${port}`, []);
    const answers = await Promise.all([1, 2, 3].map((index) => client.request('POST', `/p${index}`, { index })));
    client.close();

    expect(answers.map((answer) => answer.json.echoed.index)).toEqual([1, 2, 3]);
    expect(new Set(seen.map((request) => request.socket)).size).toBe(3);
  });

  it('fails a response it does not understand (a chunked body) instead of guessing', async () => {
    const client = new KeepAliveClient(`http://127.0.0.1:${port}`, []);
    await expect(client.request('GET', '/chunked')).rejects.toThrow(/unexpected response head/);
    client.close();
  });
});
