import { randomBytes } from 'node:crypto';
import { CardRevealClaims, openRevealToken, signRevealToken } from './card-reveal-token';

const KEY = randomBytes(32);
const NOW = new Date('2025-10-13T12:00:00.000Z');
const CLAIMS: CardRevealClaims = {
  cardId: 'Card:0199a000-0000-7000-8000-0000000000c1',
  platformId: 'Platform:0199a000-0000-7000-8000-0000000000f1',
  expiresAt: '2025-10-13T12:05:00.000Z',
};

describe('card reveal tokens', () => {
  it('opens what it signed until the expiry, as base64url', () => {
    const token = signRevealToken(KEY, CLAIMS);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(openRevealToken(KEY, token, NOW)).toEqual(CLAIMS);
    expect(openRevealToken(KEY, token, new Date('2025-10-13T12:04:59.999Z'))).toEqual(CLAIMS);
  });

  it('refuses an expired token', () => {
    const token = signRevealToken(KEY, CLAIMS);
    expect(openRevealToken(KEY, token, new Date(CLAIMS.expiresAt))).toBeNull();
  });

  it('refuses a token changed anywhere, or signed under another key', () => {
    const token = signRevealToken(KEY, CLAIMS);
    for (let index = 0; index < token.length; index += 1) {
      if (token[index] === '.') continue;
      const changed = `${token.slice(0, index)}${token[index] === 'A' ? 'B' : 'A'}${token.slice(index + 1)}`;
      expect(openRevealToken(KEY, changed, NOW)).toBeNull();
    }
    expect(openRevealToken(randomBytes(32), token, NOW)).toBeNull();
    const longer = signRevealToken(KEY, { ...CLAIMS, expiresAt: '2025-10-14T12:05:00.000Z' });
    expect(openRevealToken(KEY, `${longer.split('.')[0]}.${token.split('.')[1]}`, NOW)).toBeNull();
  });

  it('refuses anything that is not a token', () => {
    for (const text of ['', '.', 'abc', 'a.b.c', `${'A'.repeat(20)}.${'A'.repeat(43)}`, `..${'A'.repeat(43)}`]) {
      expect(openRevealToken(KEY, text, NOW)).toBeNull();
    }
  });
});
