import { randomBytes } from 'node:crypto';
import { HttpResult } from '../../infra/http/http-result';
import { cardExpiry, groupedPan } from '../../sandbox';
import { RevealedCard } from '../commands/reveal-card';

/**
 * The reveal page, rendered on the server: no script, no form, no external asset, every value
 * escaped, a CSP that allows only its own inline style (by nonce). It is made to be framed by the
 * platform's app, whose origin the service does not know, so any ancestor may frame it; it has no
 * action a framing page could trick someone into. The URL is a bearer secret: no Referer, never
 * cached.
 */
const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1d1f23}
main{padding:1rem 1.25rem}dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:0}
dt{color:#556}dd{margin:0;font:600 1.1rem/1.5 ui-monospace,monospace}.note{color:#667;font-size:.85rem}`;

export function cardDetailsPage(card: RevealedCard): HttpResult<string> {
  const rows = [
    ['Card number', groupedPan(card.pan)],
    ['Expiry', cardExpiry(card.expMonth, card.expYear)],
    ['CVV', card.cvv],
  ]
    .map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`)
    .join('');
  return htmlPage(200, 'Card details', `<dl>${rows}</dl><p class="note">Sandbox card: test values only.</p>`);
}

/** Expired, tampered with, unknown, or a card with nothing to show: one answer, no detail. */
export function notFoundPage(): HttpResult<string> {
  return htmlPage(404, 'Not found', '<p>This card details link is not valid.</p>');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function htmlPage(status: number, title: string, body: string): HttpResult<string> {
  const nonce = randomBytes(16).toString('base64');
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title><style nonce="${nonce}">${STYLE}</style></head>` +
    `<body><main>${body}</main></body></html>`;
  return new HttpResult(status, html, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': `default-src 'none'; style-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'; frame-ancestors *`,
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
  });
}
