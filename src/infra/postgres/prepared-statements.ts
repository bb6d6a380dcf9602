import { createHash } from 'node:crypto';
import { Client, ClientBase } from 'pg';

/**
 * Named (prepared) statements are parsed and planned once per connection; an unnamed one is
 * parsed, analysed and planned on every call, which costs Postgres about twice the CPU of a
 * primary-key lookup itself. Every parameterized statement therefore gets a name derived from
 * its text, up to a bound per connection (SQL built with literal values would otherwise grow
 * each backend's statement cache without limit; past the bound, new texts run unnamed).
 */
const MAX_PREPARED_STATEMENTS_PER_CONNECTION = 500;
const preparedNames = new WeakMap<ClientBase, Set<string>>();
/** Statement name by text, shared by every connection (bounded like the per-connection sets). */
const nameByText = new Map<string, string>();

function statementName(sql: string): string {
  let name = nameByText.get(sql);
  if (name === undefined) {
    name = `p_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`;
    if (nameByText.size >= 4 * MAX_PREPARED_STATEMENTS_PER_CONNECTION) nameByText.clear();
    nameByText.set(sql, name);
  }
  return name;
}

/** The query config that runs `sql` as a named statement on `client` (unnamed past the bound). */
export function statementConfig(client: ClientBase, sql: string, params: unknown[] | undefined): { name?: string; text: string; values: unknown[] } {
  let names = preparedNames.get(client);
  if (!names) {
    names = new Set();
    preparedNames.set(client, names);
  }
  const name = statementName(sql);
  if (names.has(name) || names.size < MAX_PREPARED_STATEMENTS_PER_CONNECTION) {
    names.add(name);
    return { name, text: sql, values: params ?? [] };
  }
  return { text: sql, values: params ?? [] };
}

/**
 * The pool's client: `query(text, values)` and `query({text, values})` with at least one value
 * run as named statements (see statementConfig). Statements without values keep the simple
 * protocol (which allows several statements in one text); explicit names, streams and cursors
 * pass through unchanged.
 */
export class PreparingClient extends Client {
  // pg's overloads are many; the override only rewrites the two plain forms and forwards the rest.
  query(...args: unknown[]): any {
    // pool.query forwards (config, values, callback), values undefined for the object form.
    const [config, values] = args;
    if (typeof config === 'string' && Array.isArray(values) && values.length > 0) {
      args[0] = statementConfig(this, config, values);
      args[1] = undefined;
    } else if (isPlainConfig(config) && (values === undefined || typeof values === 'function')) {
      args[0] = { ...statementConfig(this, config.text, config.values), ...(config.rowMode ? { rowMode: config.rowMode } : {}) };
    }
    return (super.query as (...forwarded: unknown[]) => unknown).apply(this, args);
  }
}

interface PlainConfig {
  text: string;
  values: unknown[];
  rowMode?: string;
}

function isPlainConfig(config: unknown): config is PlainConfig {
  if (typeof config !== 'object' || config === null) return false;
  const candidate = config as Record<string, unknown>;
  if (typeof candidate.text !== 'string' || candidate.name !== undefined || typeof candidate.submit === 'function') return false;
  if (!Array.isArray(candidate.values) || candidate.values.length === 0) return false;
  // Only the plain keys: anything else (types, binary, query timeouts) is left as given.
  return Object.keys(candidate).every((key) => key === 'text' || key === 'values' || key === 'rowMode');
}
