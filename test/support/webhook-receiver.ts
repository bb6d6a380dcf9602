import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhookSignature } from '../../src/webhooks/verify-signature';
import { checkWebhook, warmUpWebhookChecks } from './contract-check';
import { PlatformClient, eventually } from './test-app';

/** One request the receiver got, with its signature checked against the published key. */
export interface ReceivedWebhook {
  path: string;
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  body: { id: string; type: string; timestamp: string; data: any };
  /** Whether `X-Service-Signature` verifies over the raw body (null when no key was given). */
  signatureValid: boolean | null;
  /** Position among every request this receiver got, from 0. */
  index: number;
}

/** What to answer: a status and body, or `hang` to hold the request open (a dead endpoint). */
export type ReceiverAnswer = { status: number; body?: string; headers?: Record<string, string> } | { hang: true };
export type Responder = (request: ReceivedWebhook) => ReceiverAnswer;

/**
 * A real HTTP endpoint on loopback for webhook tests: records every request, verifies its
 * signature with the helper platforms use (`verifyWebhookSignature`), and answers as the test
 * says. Tracks requests held open, so a test can see how many tries run at once.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  respond: Responder = () => ({ status: 200, body: '{"ok":true}' });
  publicKeyPem: string | null = null;
  inFlight = 0;
  maxInFlight = 0;
  private readonly held = new Set<http.ServerResponse>();

  private constructor(private readonly server: http.Server) {}

  static async start(options: { respond?: Responder; publicKeyPem?: string } = {}): Promise<WebhookReceiver> {
    warmUpWebhookChecks();
    let receiver: WebhookReceiver | undefined;
    const server = http.createServer((request, response) => receiver!.handle(request, response));
    server.keepAliveTimeout = 30_000;
    receiver = new WebhookReceiver(server);
    if (options.respond) receiver.respond = options.respond;
    if (options.publicKeyPem) receiver.publicKeyPem = options.publicKeyPem;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  /**
   * A receiver that checks signatures with the platform's published key and is the platform's
   * webhook endpoint (`PATCH /config`).
   */
  static async forPlatform(api: PlatformClient, options: { respond?: Responder } = {}): Promise<WebhookReceiver> {
    const config = await api.get('/config').expect(200);
    const receiver = await WebhookReceiver.start({ ...options, publicKeyPem: config.body.webhookPublicKey });
    await api.patch('/config').send({ webhookEndpoint: receiver.url() }).expect(200);
    return receiver;
  }

  url(path = '/hooks'): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  /** Ids of the webhooks received, in arrival order (repeats included). */
  ids(): string[] {
    return this.received.map((entry) => entry.body.id);
  }

  async waitForCount(count: number, timeoutMs = 15_000): Promise<ReceivedWebhook[]> {
    await eventually(async () => this.received.length >= count, timeoutMs);
    return this.received;
  }

  async waitFor(predicate: (entry: ReceivedWebhook) => boolean, timeoutMs = 15_000): Promise<ReceivedWebhook> {
    return eventually(async () => this.received.find(predicate), timeoutMs);
  }

  /** Ends every held request with the given answer (or drops the connections). */
  release(answer: { status: number; body?: string } | 'drop' = 'drop'): void {
    for (const response of this.held) {
      if (answer === 'drop') response.socket?.destroy();
      else response.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(answer.body ?? '');
    }
    this.held.clear();
  }

  async close(): Promise<void> {
    this.release('drop');
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(request: http.IncomingMessage, response: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: ReceivedWebhook['body'];
      try {
        body = JSON.parse(rawBody);
      } catch {
        body = { id: '', type: '', timestamp: '', data: null };
      }
      const entry: ReceivedWebhook = {
        path: request.url ?? '',
        headers: request.headers,
        rawBody,
        body,
        signatureValid: this.publicKeyPem ? verifyWebhookSignature(rawBody, request.headers['x-service-signature'], this.publicKeyPem) : null,
        index: this.received.length,
      };
      if (body.type !== '') checkWebhook(body);
      this.received.push(entry);
      this.inFlight++;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      response.on('close', () => {
        this.inFlight--;
        this.held.delete(response);
      });
      const answer = this.respond(entry);
      if ('hang' in answer) {
        this.held.add(response);
        return;
      }
      response.writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers }).end(answer.body ?? '');
    });
  }
}
