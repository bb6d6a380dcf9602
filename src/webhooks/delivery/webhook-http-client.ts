import * as dns from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import { isInternalHost } from '../../platforms/webhook-endpoint-policy';
import { parseRetryAfterMs } from './retry-policy';

/** What one POST gave: an answer (status, start of its body) or the reason there was none. */
export interface PostResult {
  statusCode: number | null;
  responseBody: string;
  latencyMs: number;
  error: string | null;
  retryAfterMs: number | null;
}

/** Enough of an answer to show a developer what their endpoint said; the rest is dropped. */
const MAX_RESPONSE_BODY_BYTES = 16 * 1024;
const USER_AGENT = 'PaymentsService-Webhooks/1';

interface ParsedEndpoint {
  url: URL;
  /** What http.request needs, computed once per endpoint. */
  target: { protocol: string; hostname: string; port: string | undefined; path: string };
}

export interface WebhookHttpClientOptions {
  timeoutMs: number;
  /** Production refuses endpoints that resolve to loopback or private addresses (SSRF). */
  refuseInternalAddresses: boolean;
}

/**
 * POSTs webhook bodies over keep-alive connections (node:http, no redirects followed). The
 * timeout covers the whole try: connect, send, and the answer's status and body.
 */
export class WebhookHttpClient {
  /** Parsed endpoints: a platform's endpoint is the same string for thousands of webhooks. */
  private readonly parsedUrls = new Map<string, ParsedEndpoint | null>();
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(private readonly options: WebhookHttpClientOptions) {
    const lookup = options.refuseInternalAddresses ? refusingInternalLookup : undefined;
    this.httpAgent = new http.Agent({ keepAlive: true, maxSockets: 256, lookup } as http.AgentOptions);
    this.httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 256, lookup } as https.AgentOptions);
  }

  post(endpoint: string, body: string, headers: Record<string, string>, signal?: AbortSignal): Promise<PostResult> {
    const started = process.hrtime.bigint();
    const elapsedMs = () => Number((process.hrtime.bigint() - started) / 1_000_000n);
    const failed = (error: string): PostResult => ({ statusCode: null, responseBody: '', latencyMs: elapsedMs(), error, retryAfterMs: null });

    const parsed = this.parse(endpoint);
    if (!parsed) return Promise.resolve(failed('the webhook endpoint is not a valid URL'));
    const { url, target } = parsed;
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.resolve(failed('the webhook endpoint must use http or https'));
    if (this.options.refuseInternalAddresses && isInternalHost(url.hostname)) {
      return Promise.resolve(failed('the webhook endpoint points at a loopback or private address'));
    }

    return new Promise<PostResult>((resolve) => {
      let settled = false;
      const finish = (result: PostResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(result);
      };
      const transport = url.protocol === 'https:' ? https : http;
      const request = transport.request({
        ...target,
        method: 'POST',
        agent: url.protocol === 'https:' ? this.httpsAgent : this.httpAgent,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': String(Buffer.byteLength(body)),
          'User-Agent': USER_AGENT,
          ...headers,
        },
      });
      const timer = setTimeout(() => {
        request.destroy();
        finish(failed(`no answer within ${this.options.timeoutMs} ms`));
      }, this.options.timeoutMs);
      const onAbort = () => {
        request.destroy();
        finish(failed('the try was interrupted (the worker is shutting down)'));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });

      request.on('error', (error: NodeJS.ErrnoException) => finish(failed(describeNetworkError(error))));
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on('data', (chunk: Buffer) => {
          if (kept >= MAX_RESPONSE_BODY_BYTES) return;
          chunks.push(chunk);
          kept += chunk.length;
        });
        response.on('error', (error) => finish(failed(describeNetworkError(error))));
        response.on('end', () => {
          const retryAfter = response.headers['retry-after'];
          finish({
            statusCode: response.statusCode ?? null,
            responseBody: Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BODY_BYTES).toString('utf8'),
            latencyMs: elapsedMs(),
            error: null,
            retryAfterMs: parseRetryAfterMs(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, new Date()),
          });
        });
      });
      request.end(body);
    });
  }

  private parse(endpoint: string): ParsedEndpoint | null {
    let parsed = this.parsedUrls.get(endpoint);
    if (parsed === undefined) {
      try {
        const url = new URL(endpoint);
        const target = {
          protocol: url.protocol,
          hostname: url.hostname.replace(/^\[|\]$/g, ''),
          port: url.port || undefined,
          path: `${url.pathname}${url.search}`,
        };
        parsed = { url, target };
      } catch {
        parsed = null;
      }
      if (this.parsedUrls.size > 10_000) this.parsedUrls.clear();
      this.parsedUrls.set(endpoint, parsed);
    }
    return parsed;
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

function describeNetworkError(error: NodeJS.ErrnoException): string {
  const code = error.code ? `${error.code}: ` : '';
  return `${code}${error.message}`.slice(0, 500);
}

/**
 * dns.lookup that refuses private answers, so a public name resolving to an internal address
 * (DNS rebinding) is refused as a literal internal address is.
 */
function refusingInternalLookup(
  hostname: string,
  options: dns.LookupOptions,
  callback: (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void,
): void {
  dns.lookup(hostname, options, (error, address, family) => {
    if (error) return callback(error, address as string, family);
    const addresses = Array.isArray(address) ? address.map((entry) => entry.address) : [address];
    if (addresses.some((candidate) => isInternalHost(candidate))) {
      const refused: NodeJS.ErrnoException = new Error(`${hostname} resolves to a loopback or private address`);
      refused.code = 'EREFUSED_INTERNAL';
      return callback(refused, address as string, family);
    }
    callback(null, address as string, family);
  });
}
