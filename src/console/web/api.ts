import type { ApiErrorBody } from './types';
import { Session, basicAuthorization } from './session';

/** The API version the console speaks (src/app.factory.ts API_VERSION). */
export const API_PREFIX = '/2025-10-13';

export type Credential = 'platform' | 'operator';

/** An answer other than 2xx, with the service's error body when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody | undefined,
  ) {
    super(body?.message ?? `HTTP ${status}`);
  }
}

export function authorizationFor(session: Session, credential: Credential): string | undefined {
  if (credential === 'operator') return session.operatorKey ? `Bearer ${session.operatorKey}` : undefined;
  return session.platform ? basicAuthorization(session.platform.clientId, session.platform.clientSecret) : undefined;
}

export interface ApiRequest {
  method?: 'GET' | 'POST';
  path: string;
  credential: Credential;
  body?: unknown;
}

/**
 * Calls the versioned API with the session's credential for that page. `credentials: 'omit'`
 * keeps the browser out of HTTP authentication: a 401 with `WWW-Authenticate: Basic` comes back
 * to the page (which says so) instead of opening the browser's own password dialog.
 */
export async function callApi<T>(session: Session, request: ApiRequest): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const authorization = authorizationFor(session, request.credential);
  if (authorization) headers.Authorization = authorization;
  if (request.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${API_PREFIX}${request.path}`, {
    method: request.method ?? 'GET',
    headers,
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
    credentials: 'omit',
    cache: 'no-store',
  });
  const text = await response.text();
  const parsed = parseJson(text);
  if (!response.ok) throw new ApiError(response.status, isErrorBody(parsed) ? parsed : undefined);
  return parsed as T;
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isErrorBody(value: unknown): value is ApiErrorBody {
  return typeof value === 'object' && value !== null && typeof (value as ApiErrorBody).code === 'string';
}

/** `?a=1&b=x` from the defined values only. */
export function queryString(parameters: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) if (value !== undefined && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}
