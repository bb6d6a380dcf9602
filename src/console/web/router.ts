/**
 * Hash routes (`#/explorer`, `#/resource/<id>`...): the service serves one page at /console, and
 * the browser's back button and bookmarks still work. Pure parsing, specified by router.spec.ts.
 */

export type Route =
  | { page: 'signin' }
  | { page: 'explorer'; query?: string }
  | { page: 'resource'; id: string }
  | { page: 'webhooks' }
  | { page: 'operations' }
  | { page: 'charts' };

export function parseRoute(hash: string): Route {
  const [path, search = ''] = hash.replace(/^#/, '').split('?');
  const parts = path.split('/').filter(Boolean);
  switch (parts[0]) {
    case 'explorer': {
      const query = new URLSearchParams(search).get('q') ?? undefined;
      return { page: 'explorer', ...(query ? { query } : {}) };
    }
    case 'resource':
      return parts[1] ? { page: 'resource', id: safeDecode(parts.slice(1).join('/')) } : { page: 'explorer' };
    case 'webhooks':
    case 'operations':
    case 'charts':
      return { page: parts[0] };
    default:
      return { page: 'signin' };
  }
}

export function routeHref(route: Route): string {
  switch (route.page) {
    case 'explorer':
      return route.query ? `#/explorer?q=${encodeURIComponent(route.query)}` : '#/explorer';
    case 'resource':
      return `#/resource/${encodeURIComponent(route.id)}`;
    default:
      return `#/${route.page}`;
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
