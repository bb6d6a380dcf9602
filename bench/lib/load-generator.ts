import http from 'node:http';
import { percentile } from './environment';

export interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  connections: number;
  durationMs: number;
}

export interface LoadResult {
  requests: number;
  requestsPerSecond: number;
  statuses: Record<string, number>;
  errors: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
}

/**
 * A small autocannon: `connections` keep-alive sockets, each sending the next request as soon as
 * the previous answer has been read, for `durationMs`.
 */
export async function generateLoad(options: LoadOptions): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const url = new URL(options.url);
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  const deadline = Date.now() + options.durationMs;
  const started = process.hrtime.bigint();
  const once = () =>
    new Promise<void>((resolve) => {
      const sent = process.hrtime.bigint();
      const request = http.request(
        { agent, hostname: url.hostname, port: url.port, path: url.pathname + url.search, method: 'GET', headers: options.headers },
        (response) => {
          response.on('data', () => undefined);
          response.on('end', () => {
            latencies.push(Number(process.hrtime.bigint() - sent) / 1e6);
            statuses[String(response.statusCode)] = (statuses[String(response.statusCode)] ?? 0) + 1;
            resolve();
          });
        },
      );
      request.on('error', () => {
        errors++;
        resolve();
      });
      request.end();
    });
  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      while (Date.now() < deadline) await once();
    }),
  );
  const elapsedSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    requestsPerSecond: latencies.length / elapsedSeconds,
    statuses,
    errors,
    latencyMs: {
      p50: percentile(latencies, 0.5),
      p90: percentile(latencies, 0.9),
      p99: percentile(latencies, 0.99),
      max: latencies[latencies.length - 1] ?? NaN,
    },
  };
}
