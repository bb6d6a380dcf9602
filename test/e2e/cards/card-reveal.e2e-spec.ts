import request from 'supertest';
import { passesLuhn } from '../../../src/sandbox';
import { uniqueId } from '../../support/customer-fixtures';
import { TestApp, eventually, startTestApp } from '../../support/test-app';
import { Cardholder, activeCard, approvedCardholder, cardInState, issueCard } from './card-fixtures';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UNKNOWN_CARD = 'Card:0199a000-0000-7000-8000-0000000000ff';
const FIVE_MINUTES_MS = 5 * 60 * 1000;

/** The reveal page a `panEmbedUrl` opens, fetched as a browser would: no credentials. */
async function openPage(url: string): Promise<request.Response> {
  const parsed = new URL(url);
  return request(parsed.origin).get(`${parsed.pathname}${parsed.search}`);
}

/** What the page shows, read back from its markup. */
function shownDetails(html: string): { pan: string; expiry: string; cvv: string } {
  const value = (label: string) => new RegExp(`<dt>${label}</dt><dd>([^<]*)</dd>`).exec(html)?.[1] ?? '';
  return { pan: value('Card number').replace(/ /g, ''), expiry: value('Expiry'), cvv: value('CVV') };
}

function tokenOf(url: string): string {
  return new URL(url).searchParams.get('t') ?? '';
}

/** `POST /cards/{id}/reveal` and the sandbox card processor's page it points at (docs/cards.md "Reveal"). */
describe('POST /cards/{id}/reveal', () => {
  let testApp: TestApp;
  let holder: Cardholder;

  beforeAll(async () => {
    testApp = await startTestApp();
    holder = await approvedCardholder(testApp.platform.api);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  const reveal = (cardId: string) => api().post(`/cards/${cardId}/reveal`);
  const history = async (cardId: string): Promise<any[]> => (await api().get('/audit/events').query({ resourceId: cardId }).expect(200)).body.data;

  it('answers a short-lived URL of a page showing a Luhn-valid number ending in last4, the CVV and the expiry', async () => {
    const card = await activeCard(api(), holder);
    const before = Date.now();
    const response = await reveal(card.id).expect(200);
    expect(response.body).toEqual({ panEmbedUrl: expect.any(String), expiresAt: expect.stringMatching(ISO) });
    const { panEmbedUrl, expiresAt } = response.body;
    expect(panEmbedUrl).toMatch(new RegExp(`^${testApp.baseUrl}/sandbox/cards/embed\\?t=[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{43}$`));
    expect(Date.parse(expiresAt)).toBeGreaterThanOrEqual(before + FIVE_MINUTES_MS);
    expect(Date.parse(expiresAt)).toBeLessThanOrEqual(Date.now() + FIVE_MINUTES_MS);

    const page = await openPage(panEmbedUrl);
    expect(page.status).toBe(200);
    const shown = shownDetails(page.text);
    expect(shown.pan).toMatch(/^\d{16}$/);
    expect(shown.pan.slice(-4)).toBe(card.last4);
    expect(passesLuhn(shown.pan)).toBe(true);
    expect(shown.cvv).toMatch(/^\d{3}$/);
    expect(shown.expiry).toBe(`${String(card.expMonth).padStart(2, '0')}/${String(card.expYear).slice(-2)}`);
    // The same card shows the same details on every reveal: derived, not random.
    const again = await openPage((await reveal(card.id).expect(200)).body.panEmbedUrl);
    expect(shownDetails(again.text)).toEqual(shown);
  });

  it('the page: strict CSP, never cached, no Referer, no script', async () => {
    const card = await activeCard(api(), holder);
    const page = await openPage((await reveal(card.id).expect(200)).body.panEmbedUrl);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'nonce-[A-Za-z0-9+/=]+'; base-uri 'none'; form-action 'none'; frame-ancestors \*$/);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['x-frame-options']).toBeUndefined();
    expect(page.text).not.toMatch(/<script|<form|<img|<link|src=/i);
  });

  it('a FROZEN card can be revealed; the reveal changes nothing the card shows', async () => {
    const card = await activeCard(api(), holder);
    const frozen = (await api().patch(`/cards/${card.id}`).send({ state: 'FROZEN' }).expect(200)).body;
    const { panEmbedUrl } = (await reveal(card.id).expect(200)).body;
    expect((await openPage(panEmbedUrl)).status).toBe(200);
    expect((await api().get(`/cards/${card.id}`).expect(200)).body).toEqual(frozen);
  });

  it('every reveal is audited with its actor and expiry, never with the URL, the token or the number', async () => {
    const card = await activeCard(api(), holder);
    const first = (await reveal(card.id).expect(200)).body;
    const second = (await reveal(card.id).expect(200)).body;
    const page = shownDetails((await openPage(first.panEmbedUrl)).text);
    const events = await history(card.id);
    expect(events.map((event) => event.type)).toEqual(['CardIssuanceRequested', 'CardIssued', 'CardRevealed', 'CardRevealed']);
    const [, , one, two] = events;
    expect(one.data).toEqual({ cardId: card.id, platformId: testApp.platform.platformId, expiresAt: first.expiresAt, revealedAt: expect.stringMatching(ISO) });
    expect(two.data.expiresAt).toBe(second.expiresAt);
    expect(one.metadata.actor).toBe(`platform:${testApp.platform.clientId}`);
    expect(two.metadata.actor).toBe(`platform:${testApp.platform.clientId}`);
    const recorded = JSON.stringify(events);
    for (const secret of [first.panEmbedUrl, tokenOf(first.panEmbedUrl), tokenOf(second.panEmbedUrl), page.pan, page.pan.slice(0, 12)]) {
      expect(recorded).not.toContain(secret);
    }
  });

  it('404 for a card with nothing to reveal: PROCESSING, rejected by the issuer, closed; nothing recorded', async () => {
    const pending = await issueCard(api(), holder, { platformCardId: uniqueId('p').concat('-001') });
    const rejected = await issueCard(api(), holder, { platformCardId: uniqueId('r').concat('-002') });
    await cardInState(api(), rejected.id, 'CLOSED');
    const closed = await activeCard(api(), holder);
    await api().patch(`/cards/${closed.id}`).send({ state: 'CLOSED' }).expect(200);
    for (const [cardId, state] of [[pending.id, 'PROCESSING'], [rejected.id, 'CLOSED'], [closed.id, 'CLOSED']]) {
      const response = await reveal(cardId).expect(404);
      expect(response.body).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: `The card has no details to reveal: it is ${state}`, details: { cardId, state } });
      expect((await history(cardId)).map((event) => event.type)).not.toContain('CardRevealed');
    }
  });

  it('another platform\'s card answers exactly like an unknown one, and records nothing', async () => {
    const card = await activeCard(api(), holder);
    const other = await testApp.createPlatform();
    const unknown = await other.api.post(`/cards/${UNKNOWN_CARD}/reveal`).expect(404);
    expect(unknown.body).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Card not found' });
    expect((await other.api.post(`/cards/${card.id}/reveal`).expect(404)).body).toEqual(unknown.body);
    expect((await reveal('not-a-card').expect(404)).body).toEqual(unknown.body);
    expect((await reveal('Customer:0199a000-0000-7000-8000-0000000000ff').expect(404)).body).toEqual(unknown.body);
    expect((await history(card.id)).map((event) => event.type)).toEqual(['CardIssuanceRequested', 'CardIssued']);
  });

  it('a changed, truncated, missing or foreign token opens the same bare 404 page', async () => {
    const card = await activeCard(api(), holder);
    const { panEmbedUrl } = (await reveal(card.id).expect(200)).body;
    const token = tokenOf(panEmbedUrl);
    const [payload, mac] = token.split('.');
    const base = panEmbedUrl.slice(0, panEmbedUrl.indexOf('?'));
    const flip = (text: string, index: number) => `${text.slice(0, index)}${text[index] === 'A' ? 'B' : 'A'}${text.slice(index + 1)}`;
    // Another card's claims under this token's MAC: the MAC covers the whole payload.
    const otherCard = await activeCard(api(), holder);
    const [otherPayload] = tokenOf((await reveal(otherCard.id).expect(200)).body.panEmbedUrl).split('.');
    const refused = [
      `${base}?t=${flip(payload, 5)}.${mac}`,
      `${base}?t=${payload}.${flip(mac, 42)}`,
      `${base}?t=${otherPayload}.${mac}`,
      `${base}?t=${token.slice(0, -1)}`,
      `${base}?t=${payload}`,
      `${base}?t=${token}&t=${token}`,
      `${base}?token=${token}`,
      base,
    ];
    const notFound = await openPage(refused[0]);
    expect(notFound.status).toBe(404);
    expect(notFound.headers['cache-control']).toBe('no-store');
    expect(notFound.text).toContain('This card details link is not valid.');
    // The same page each time, but for its style nonce.
    const bare = (html: string) => html.replace(/nonce="[^"]+"/, 'nonce=""');
    for (const url of refused) {
      const page = await openPage(url);
      expect([url, page.status, bare(page.text)]).toEqual([url, 404, bare(notFound.text)]);
    }
  });

  it('a card closed after the reveal: its URL stops loading', async () => {
    const card = await activeCard(api(), holder);
    const { panEmbedUrl } = (await reveal(card.id).expect(200)).body;
    expect((await openPage(panEmbedUrl)).status).toBe(200);
    await api().patch(`/cards/${card.id}`).send({ state: 'CLOSED' }).expect(200);
    expect((await openPage(panEmbedUrl)).status).toBe(404);
  });

  it('the URL stops loading at expiresAt (CARD_REVEAL_LIFETIME_MS)', async () => {
    const card = await activeCard(api(), holder);
    const lifetimeMs = testApp.config.cardReveal.lifetimeMs;
    testApp.config.cardReveal.lifetimeMs = 1_500;
    try {
      const { panEmbedUrl, expiresAt } = (await reveal(card.id).expect(200)).body;
      expect((await openPage(panEmbedUrl)).status).toBe(200);
      await eventually(async () => (await openPage(panEmbedUrl)).status === 404, 10_000, 100);
      expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(expiresAt));
    } finally {
      testApp.config.cardReveal.lifetimeMs = lifetimeMs;
    }
  });

  it('builds the URL on PUBLIC_BASE_URL when set', async () => {
    const card = await activeCard(api(), holder);
    const publicBaseUrl = testApp.config.kycLinks.publicBaseUrl;
    testApp.config.kycLinks.publicBaseUrl = 'https://api.example.com/payments';
    try {
      const { panEmbedUrl } = (await reveal(card.id).expect(200)).body;
      expect(panEmbedUrl).toMatch(/^https:\/\/api\.example\.com\/payments\/2025-10-13\/sandbox\/cards\/embed\?t=[A-Za-z0-9_.-]+$/);
    } finally {
      testApp.config.kycLinks.publicBaseUrl = publicBaseUrl;
    }
  });

  it('logs neither the token nor the number: the request log has the path only', async () => {
    const card = await activeCard(api(), holder);
    const lines: string[] = [];
    const capture = (stream: NodeJS.WriteStream) =>
      jest.spyOn(stream, 'write').mockImplementation(((chunk: string | Uint8Array) => {
        lines.push(String(chunk));
        return true;
      }) as typeof stream.write);
    const level = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = 'debug';
    const spies = [capture(process.stdout), capture(process.stderr)];
    try {
      const { panEmbedUrl } = (await reveal(card.id).expect(200)).body;
      const page = await openPage(panEmbedUrl);
      const token = tokenOf(panEmbedUrl);
      await openPage(`${panEmbedUrl.slice(0, panEmbedUrl.indexOf('?'))}?t=${token.slice(0, -2)}xx`);
      const logged = () => lines.join('');
      // Both page loads were logged (so the check below looks at real log lines).
      await eventually(async () => (logged().match(/"path":"\/2025-10-13\/sandbox\/cards\/embed"/g) ?? []).length === 2);
      const { pan } = shownDetails(page.text);
      for (const secret of [token, token.split('.')[1], pan, pan.replace(/(\d{4})(?=\d)/g, '$1 '), panEmbedUrl]) {
        expect(logged()).not.toContain(secret);
      }
    } finally {
      spies.forEach((spy) => spy.mockRestore());
      if (level === undefined) delete process.env.LOG_LEVEL;
      else process.env.LOG_LEVEL = level;
    }
  });
});

describe('POST /cards/{id}/reveal in production mode', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { SERVICE_MODE: 'production' } });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('501 NOT_IMPLEMENTED: no card processor is configured, whatever the card; the page is a 404', async () => {
    const response = await testApp.platform.api.post(`/cards/${UNKNOWN_CARD}/reveal`).expect(501);
    expect(response.body).toEqual({ status: 501, code: 'NOT_IMPLEMENTED', message: 'Card details cannot be revealed: no card issuer is configured in this environment' });
    expect((await testApp.platform.api.post('/cards/not-a-card/reveal').expect(501)).body).toEqual(response.body);
    const page = await request(testApp.origin).get('/2025-10-13/sandbox/cards/embed?t=abc.def');
    expect(page.status).toBe(404);
  });
});
