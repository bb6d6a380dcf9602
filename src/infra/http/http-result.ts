/**
 * A controller returns a plain body (status from @HttpCode, or 201 for POST and 200 otherwise),
 * or an HttpResult when the status or headers depend on the outcome (e.g. 202 for a signed
 * action's first leg).
 */
export class HttpResult<T = unknown> {
  constructor(
    readonly status: number,
    readonly body: T,
    readonly headers: Record<string, string> = {},
  ) {}
}

export function withStatus<T>(status: number, body: T, headers: Record<string, string> = {}): HttpResult<T> {
  return new HttpResult(status, body, headers);
}
