/** Small pieces every page uses: loading data with its error shown, error boxes, JSON, id links. */
import { createContext } from 'preact';
import { useCallback, useContext, useEffect, useRef, useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import { ApiError, ApiRequest, callApi } from './api';
import { describeError, prettyJson, shortId } from './format';
import { routeHref } from './router';
import type { Session } from './session';

export const SessionContext = createContext<Session>({});

export function useSession(): Session {
  return useContext(SessionContext);
}

export interface Loaded<T> {
  data?: T;
  error?: string;
  loading: boolean;
  reload: () => void;
}

/** The message a page shows for a failed call: never a blank page. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) return describeError(error.status, error.body, error.message);
  return `The service did not answer: ${error instanceof Error ? error.message : String(error)}`;
}

/**
 * Calls the API when `request` changes (null: nothing to load) and every `pollMs` when given.
 * An answer that arrives after the request changed is dropped, so a slow answer never
 * overwrites a newer one.
 */
export function useApi<T>(request: ApiRequest | null, pollMs?: number): Loaded<T> {
  const session = useSession();
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: request !== null });
  const [tick, setTick] = useState(0);
  const generation = useRef(0);
  const key = request ? JSON.stringify(request) : '';

  useEffect(() => {
    if (!request) return;
    const mine = ++generation.current;
    setState((previous) => ({ ...previous, loading: true }));
    callApi<T>(session, request).then(
      (data) => mine === generation.current && setState({ data, loading: false }),
      (error) => mine === generation.current && setState((previous) => ({ data: previous.data, error: errorText(error), loading: false })),
    );
  }, [key, tick, session]);

  useEffect(() => {
    if (!pollMs || !request) return;
    const timer = setInterval(() => setTick((value) => value + 1), pollMs);
    return () => clearInterval(timer);
  }, [key, pollMs]);

  const reload = useCallback(() => setTick((value) => value + 1), []);
  return { ...state, reload };
}

export function ErrorBox({ message, testId }: { message?: string; testId?: string }) {
  if (!message) return null;
  return (
    <div class="error" role="alert" data-testid={testId}>
      {message}
    </div>
  );
}

export function Loading({ when }: { when: boolean }) {
  return when ? <div class="muted">Loading…</div> : null;
}

export function JsonBlock({ value, testId }: { value: unknown; testId?: string }) {
  return (
    <pre class="json" data-testid={testId}>
      {prettyJson(value)}
    </pre>
  );
}

/** A resource id that opens its page. */
export function IdLink({ id }: { id: string }) {
  return (
    <a class="id" href={routeHref({ page: 'resource', id })} title={id}>
      {shortId(id)}
    </a>
  );
}

export function Card({ title, children, actions }: { title: string; children: ComponentChildren; actions?: ComponentChildren }) {
  return (
    <section class="card">
      <header class="card-header">
        <h2>{title}</h2>
        {actions}
      </header>
      {children}
    </section>
  );
}

/** Shown instead of a page the session's credentials do not open. */
export function NeedsCredential({ credential }: { credential: 'platform' | 'operator' }) {
  return (
    <div class="notice">
      {credential === 'operator'
        ? 'This page is for operators: sign in with the operator key.'
        : 'This page shows a platform’s data: sign in with the platform’s client id and secret.'}{' '}
      <a href="#/signin">Sign in</a>
    </div>
  );
}
