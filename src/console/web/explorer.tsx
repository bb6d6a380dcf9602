/**
 * Explorer: search any id of the platform's resources, or a platformCustomerId, and open it. The
 * query lives in the hash (`#/explorer?q=...`), so a correlation id clicked on a timeline lands
 * here already searched, and the back button returns to the results.
 */
import { useEffect, useState } from 'preact/hooks';
import { queryString } from './api';
import { routeHref } from './router';
import type { SearchResult } from './types';
import { Card, ErrorBox, IdLink, Loading, NeedsCredential, useApi, useSession } from './ui';

export function ExplorerPage({ query }: { query?: string }) {
  const session = useSession();
  const [text, setText] = useState(query ?? '');
  useEffect(() => setText(query ?? ''), [query]);
  const results = useApi<{ data: SearchResult[] }>(query && session.platform ? { path: `/console/search${queryString({ q: query })}`, credential: 'platform' } : null);

  if (!session.platform) return <NeedsCredential credential="platform" />;

  const submit = (event: Event) => {
    event.preventDefault();
    const trimmed = text.trim();
    if (trimmed) location.hash = routeHref({ page: 'explorer', query: trimmed });
  };

  return (
    <div>
      <h1>Explorer</h1>
      <form class="search" onSubmit={submit}>
        <input
          data-testid="search-input"
          placeholder="Customer:…, Transaction:…, Quote:…, a platformCustomerId…"
          value={text}
          maxLength={255}
          onInput={(event) => setText(event.currentTarget.value)}
          autofocus
        />
        <button type="submit" data-testid="search-submit">
          Search
        </button>
      </form>
      {query && (
        <Card title={`Results for “${query}”`}>
          <Loading when={results.loading && !results.data} />
          <ErrorBox message={results.error} />
          {results.data && results.data.data.length === 0 && (
            <p class="muted" data-testid="search-empty">
              Nothing of this platform has that id or platformCustomerId.
            </p>
          )}
          {results.data && results.data.data.length > 0 && (
            <table>
              <thead>
                <tr>
                  <th>Type</th>
                  <th>Label</th>
                  <th>Id</th>
                </tr>
              </thead>
              <tbody>
                {results.data.data.map((result) => (
                  <tr key={result.id} class="clickable" data-testid="search-result" data-id={result.id} onClick={() => (location.hash = routeHref({ page: 'resource', id: result.id }))}>
                    <td>
                      <span class="badge">{result.type}</span>
                    </td>
                    <td>
                      <a href={routeHref({ page: 'resource', id: result.id })}>{result.label}</a>
                    </td>
                    <td>
                      <IdLink id={result.id} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Card>
      )}
    </div>
  );
}
