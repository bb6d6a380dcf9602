import * as dns from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import { isInternalHost } from '../../platforms';
import { parseRetryAfterMs } from './retry-policy';

/** What one POST gave: an answer (status, start of its body) or the reason there was none. */
export interface PostResult {
  statusCode: number | null;
  responseBody: string;
  latencyMs: number;
  error: string | null;
  retryAfterMs: number | null;
}

/**
 * Enough of an answer to show a developer what their endpoint said (the sandbox test webhook's
 * `response_body`); the rest is read and dropped. Kept short so the test webhook cannot be used
 * to read pages back from wherever an endpoint points.
 */
export const MAX_RESPONSE_BODY_BYTES = 1024;
const USER_AGENT = 'PaymentsService-Webhooks/1';

interface ParsedEndpoint {
  url: URL;
  /** What http.request needs, computed once per endpoint. */
  target: { protocol: string; hostname: string; port: string | undefined; path: string };
}

export interface WebhookHttpClientOptions {
  timeoutMs: number;
  /**
   * Refuse endpoints that are, or resolve to, loopback, private or link-local addresses (SSRF):
   * everywhere but a sandbox bound to loopback or WEBHOOK_ALLOW_PRIVATE_TARGETS=true.
   */
  refuseInternalAddresses: boolean;
  /** DNS resolution (dns.lookup); tests hand in a resolver with answers of their own. */
  resolve?: typeof dns.lookup;
}

/**
 * POSTs webhook bodies over keep-alive connections (node:http, no redirects followed: a 3xx is an
 * answer like any other, so a public endpoint cannot bounce us inward). The timeout covers the
 * whole try: connect, send, and the answer's status and body. Internal targets are refused twice:
 * a literal address before connecting, a name by the agents' `lookup`, which checks every address
 * DNS returns and hands the checked one to the connect (no second resolution to rebind).
 */
export class WebhookHttpClient {
  /** Parsed endpoints: a platform's endpoint is the same string for thousands of webhooks. */
  private readonly parsedUrls = new Map<string, ParsedEndpoint | null>();
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(private readonly options: WebhookHttpClientOptions) {
    const lookup = options.refuseInternalAddresses ? refusingInternalLookup(options.resolve ?? dns.lookup) : undefined;
    this.httpAgent = new http.Agent({ keepAlive: true, maxSockets: 256, lookup } as http.AgentOptions);
    this.httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 256, lookup } as https.AgentOptions);
  }

  /** `maxResponseBytes`: how much of the answer's body to keep (more for answers that carry data). */
  post(endpoint: string, body: string, headers: Record<string, string>, signal?: AbortSignal, maxResponseBytes = MAX_RESPONSE_BODY_BYTES): Promise<PostResult> {
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
          if (kept >= maxResponseBytes) return;
          chunks.push(chunk);
          kept += chunk.length;
        });
        response.on('error', (error) => finish(failed(describeNetworkError(error))));
        response.on('end', () => {
          const retryAfter = response.headers['retry-after'];
          finish({
            statusCode: response.statusCode ?? null,
            responseBody: Buffer.concat(chunks).subarray(0, maxResponseBytes).toString('utf8'),
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

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A lookup that refuses private answers, so a public name resolving to an internal address
 * (DNS rebinding) is refused as a literal internal address is. The socket connects to the address
 * checked here: there is no second resolution between the check and the connect.
 */
const refusingInternalLookup = (resolve: typeof dns.lookup) => (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
  resolve(hostname, options, (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => {
    if (error) return callback(error, address as string, family);
    const addresses = Array.isArray(address) ? address.map((entry) => entry.address) : [address];
    if (addresses.some((candidate) => isInternalHost(candidate))) {
      const refused: NodeJS.ErrnoException = new Error(`${hostname} resolves to a loopback or private address`);
      refused.code = 'EREFUSED_INTERNAL';
      return callback(refused, address as string, family);
    }
    callback(null, address as string, family);
  });
};
