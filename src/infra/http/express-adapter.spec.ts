import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PrototypeStableExpressAdapter } from './express-adapter';

describe('PrototypeStableExpressAdapter', () => {
  let server: http.Server;
  let port: number;
  const seen: Array<{ request: object; response: object }> = [];

  beforeAll(async () => {
    const adapter = new PrototypeStableExpressAdapter();
    const app = adapter.getInstance();
    // The prototypes a request and response have once Express handles them.
    app.use((request: http.IncomingMessage, response: http.ServerResponse, next: () => void) => {
      seen.push({ request: Object.getPrototypeOf(request), response: Object.getPrototypeOf(response) });
      next();
    });
    app.get('/ping', (request: http.IncomingMessage & { query: Record<string, string> }, response: { status(code: number): { json(body: unknown): void } }) => {
      response.status(203).json({ query: request.query, isRequest: request instanceof http.IncomingMessage, isResponse: response instanceof http.ServerResponse });
    });
    adapter.initHttpServer({});
    server = adapter.getHttpServer() as http.Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it("creates requests and responses with Express's prototypes, so Express has nothing to switch", async () => {
    const answer = await get(`http://127.0.0.1:${port}/ping?a=1`);
    expect(answer).toEqual({ status: 203, body: { query: { a: '1' }, isRequest: true, isResponse: true } });
    expect(seen).toHaveLength(1);
    // The middleware runs after Express's switch. A request straight from the server, before
    // Express, already has the same prototypes.
    const [{ request, response }] = seen;
    const fromServer = await rawPrototypes();
    expect(fromServer.request).toBe(request);
    expect(fromServer.response).toBe(response);
    expect(fromServer.request).not.toBe(http.IncomingMessage.prototype);
  });

  /** The prototypes of a request and response as the HTTP server creates them, before Express. */
  async function rawPrototypes(): Promise<{ request: object; response: object }> {
    return new Promise((resolve) => {
      server.prependOnceListener('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
        resolve({ request: Object.getPrototypeOf(request), response: Object.getPrototypeOf(response) });
      });
      void get(`http://127.0.0.1:${port}/ping`);
    });
  }
});

function get(url: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
      })
      .on('error', reject);
  });
}
