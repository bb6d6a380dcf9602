/**
 * Pure formatting for the console's pages (no DOM: specified by format.spec.ts). Times are shown
 * in UTC, as the API and the logs give them, so what a person reads matches what they grep.
 */
import type { ApiErrorBody } from './types';

/** `2025-11-03 14:22:30 UTC`; the input unchanged when it is not a date. */
export function formatTime(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** `11-03 14:22:30` (UTC, said in the column's header; the full time in the cell's title), for dense tables. */
export function formatTableTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toISOString().slice(5, 19).replace('T', ' ');
}

/** `14:22` (UTC), for chart axes. */
export function formatClock(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toISOString().slice(11, 16);
}

/** `850 ms`, `1.2 s`, `3 min 20 s`, `2 h 5 min`. */
export function formatDurationMs(ms: number): string {
  if (!Number.isFinite(ms)) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** `12,345` (thousands separated whatever the browser's locale). */
export function formatCount(value: number): string {
  if (!Number.isFinite(value)) return '-';
  return String(Math.round(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** The type of an id `<Type>:<uuid>` (`Customer`), or undefined for another string. */
export function idType(id: string): string | undefined {
  return /^([A-Za-z]+):[0-9a-f-]{8,}$/i.exec(id)?.[1];
}

/** `Customer:019a…2f40`: short enough for a table, both ends kept so two ids still differ. */
export function shortId(id: string): string {
  const colon = id.indexOf(':');
  const value = colon >= 0 ? id.slice(colon + 1) : id;
  if (value.length <= 14) return id;
  return `${colon >= 0 ? id.slice(0, colon + 1) : ''}${value.slice(0, 8)}…${value.slice(-4)}`;
}

/** Indented JSON for `pre` blocks. */
export function prettyJson(value: unknown): string {
  return value === undefined ? '' : JSON.stringify(value, null, 2);
}

/** One line a person can act on: `INVALID_INPUT: q: q must ... (400)`. */
export function describeError(status: number, body: ApiErrorBody | undefined, fallback: string): string {
  if (!body) return status === 0 ? fallback : `${fallback} (HTTP ${status})`;
  const fields = (body.details?.errors ?? []).map((error) => `${error.field}: ${error.message}`);
  const reason = typeof body.details?.reason === 'string' ? ` [${body.details.reason}]` : '';
  return `${body.code}: ${body.message}${reason}${fields.length ? ` (${fields.join('; ')})` : ''}`;
}

/** Progress of a job as a whole percent in 0..100 (a job with nothing to do is done). */
export function progressPercent(done: number, total: number): number {
  if (total <= 0) return done > 0 ? 100 : 0;
  return Math.max(0, Math.min(100, Math.floor((done / total) * 100)));
}

/** A short excerpt of a long text (an error or a response), with an ellipsis when cut. */
export function excerpt(text: string | undefined, maxLength = 120): string {
  if (!text) return '';
  return text.length <= maxLength ? text : `${text.slice(0, maxLength - 1)}…`;
}
