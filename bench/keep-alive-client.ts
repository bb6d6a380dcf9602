import net from 'node:net';

export interface RawResponse {
  status: number;
  /** The parsed JSON body, or null for an empty one. */
  json: any;
}

const HEADER_END = Buffer.from('\r\n\r\n');

/**
 * The load client's HTTP/1.1 client: keep-alive connections to one server, each carrying one
 * request at a time, the most recently freed one reused first (as `http.Agent` with `lifo`).
 *
 * It exists because the load client shares the machine it measures: Node's `http.request` cost
 * about 0.45 ms of CPU per request on the 2-core bench machine (some 7% of a quote flow's CPU at
 * 100 flows/s), spent on the same cores as the service. This one writes each request as one
 * string and reads only the status line, Content-Length and the body. It understands exactly what
 * the service sends: bodies with a Content-Length (Express always sets it), or none. Anything else
 * (a chunked body, a malformed head) fails the request loudly, never silently.
 */
export class KeepAliveClient {
  private readonly idle: Connection[] = [];
  private readonly host: string;
  private readonly port: number;
  /** The base URL's path (e.g. `/2025-10-13`), put before every request's path. */
  private readonly basePath: string;
  /** The header lines every request carries, ready to send. */
  private readonly fixedHead: string;

  /** @param headers header lines sent with every request, e.g. `authorization: Basic ...` (no line breaks). */
  constructor(baseUrl: string, headers: string[]) {
    const url = new URL(baseUrl);
    this.host = url.hostname;
    this.port = Number(url.port);
    this.basePath = url.pathname.replace(/\/$/, '');
    this.fixedHead = `host: ${this.host}:${this.port}\r\n` + headers.map((line) => `${line}\r\n`).join('');
  }

  request(method: string, path: string, body?: unknown): Promise<RawResponse> {
    const payload = body === undefined ? '' : JSON.stringify(body);
    const head =
      `${method} ${this.basePath}${path} HTTP/1.1\r\n` +
      this.fixedHead +
      (payload ? `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(payload)}\r\n` : 'content-length: 0\r\n') +
      '\r\n';
    const connection = this.idle.pop() ?? new Connection(this.host, this.port, (freed) => this.idle.push(freed), (closed) => this.forget(closed));
    return connection.send(head + payload);
  }

  close(): void {
    for (const connection of this.idle.splice(0)) connection.destroy();
  }

  private forget(connection: Connection): void {
    const index = this.idle.indexOf(connection);
    if (index >= 0) this.idle.splice(index, 1);
  }
}

class Connection {
  private readonly socket: net.Socket;
  private buffered: Buffer | null = null;
  private pending: { resolve: (response: RawResponse) => void; reject: (error: Error) => void } | null = null;

  constructor(
    host: string,
    port: number,
    private readonly onFree: (connection: Connection) => void,
    private readonly onClose: (connection: Connection) => void,
  ) {
    this.socket = net.connect({ host, port, noDelay: true });
    this.socket.on('data', (chunk: Buffer) => this.onData(chunk));
    this.socket.on('error', (error) => this.fail(error));
    this.socket.on('close', () => {
      this.onClose(this);
      this.fail(new Error('connection closed before the response ended'));
    });
  }

  send(text: string): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.socket.write(text);
    });
  }

  destroy(): void {
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    if (!this.pending) {
      // Bytes with no request waiting (the connection is idle): not a server this client understands.
      this.socket.destroy();
      return;
    }
    this.buffered = this.buffered ? Buffer.concat([this.buffered, chunk]) : chunk;
    const data = this.buffered;
    const headEnd = data.indexOf(HEADER_END);
    if (headEnd < 0) return;
    const head = data.toString('latin1', 0, headEnd);
    const status = Number(head.slice(9, 12));
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (!head.startsWith('HTTP/1.1 ') || !Number.isInteger(status) || (!length && /\r\ntransfer-encoding:/i.test(head))) {
      this.fail(new Error(`unexpected response head: ${head.slice(0, 200)}`));
      this.socket.destroy();
      return;
    }
    const bodyStart = headEnd + HEADER_END.length;
    const bodyLength = length ? Number(length[1]) : 0;
    if (data.length < bodyStart + bodyLength) return;
    if (data.length > bodyStart + bodyLength) {
      this.fail(new Error('more bytes than one response'));
      this.socket.destroy();
      return;
    }
    this.buffered = null;
    const pending = this.pending;
    this.pending = null;
    const text = data.toString('utf8', bodyStart);
    if (/\r\nconnection: *close/i.test(head)) this.socket.destroy();
    else this.onFree(this);
    try {
      pending?.resolve({ status, json: text ? JSON.parse(text) : null });
    } catch (error) {
      pending?.reject(error as Error);
    }
  }

  private fail(error: Error): void {
    const pending = this.pending;
    this.pending = null;
    pending?.reject(error);
  }
}
