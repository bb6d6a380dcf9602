import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { KEY_VAULT, KeyVault } from '../../infra/crypto/key-vault';
import { parseId } from '../../infra/ids';

/** What a reveal URL's token stands for: this card of this platform, until then. */
export interface CardRevealClaims {
  cardId: string;
  platformId: string;
  expiresAt: string;
}

/** Binds the MAC to this use, so no other HMAC the service computes can pass for a token. */
const MAC_CONTEXT = 'card-reveal-token.v1.';
const MAC_FORM = /^[A-Za-z0-9_-]{43}$/;
const PAYLOAD_FORM = /^[A-Za-z0-9_-]{1,600}$/;

/**
 * `<payload>.<mac>`, both base64url: the payload is the claims as JSON, the MAC an HMAC-SHA256 of
 * it under `key`. Stateless: nothing is stored, so the token (a bearer secret) exists only in the
 * answer to the reveal.
 */
export function signRevealToken(key: Buffer, claims: CardRevealClaims): string {
  const payload = Buffer.from(JSON.stringify({ cardId: claims.cardId, platformId: claims.platformId, expiresAt: claims.expiresAt })).toString('base64url');
  return `${payload}.${macOf(key, payload)}`;
}

/** The claims of a token this key signed that has not expired at `now`; null for anything else. */
export function openRevealToken(key: Buffer, token: string, now: Date): CardRevealClaims | null {
  const [payload, mac, ...rest] = token.split('.');
  if (rest.length > 0 || !PAYLOAD_FORM.test(payload ?? '') || !MAC_FORM.test(mac ?? '')) return null;
  // Compared as text: decoding would accept the other spellings of the last character too.
  if (!timingSafeEqual(Buffer.from(mac), Buffer.from(macOf(key, payload)))) return null;
  const claims = parseClaims(payload);
  if (!claims || Date.parse(claims.expiresAt) <= now.getTime()) return null;
  return claims;
}

function macOf(key: Buffer, payload: string): string {
  return createHmac('sha256', key).update(MAC_CONTEXT + payload).digest('base64url');
}

function parseClaims(payload: string): CardRevealClaims | null {
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<CardRevealClaims>;
    const { cardId, platformId, expiresAt } = claims;
    if (typeof cardId !== 'string' || !parseId('Card', cardId)) return null;
    if (typeof platformId !== 'string' || typeof expiresAt !== 'string' || Number.isNaN(Date.parse(expiresAt))) return null;
    return { cardId, platformId, expiresAt };
  } catch {
    return null;
  }
}

/** Where the key lives in the key vault: sealed under the master key, shared by every process. */
const KEY_ID = 'service-secret:card-reveal-token';

/**
 * Mints and opens reveal tokens under a 256-bit HMAC key created on first use and sealed in the
 * key vault (src/infra/crypto/key-vault.ts), so a URL minted by one api process loads on any
 * other. Destroying the sealed key invalidates every outstanding URL (they live minutes anyway).
 */
@Injectable()
export class CardRevealTokens {
  private key: Promise<Buffer> | null = null;

  constructor(@Inject(KEY_VAULT) private readonly vault: KeyVault) {}

  async mint(claims: CardRevealClaims): Promise<string> {
    return signRevealToken(await this.signingKey(), claims);
  }

  async open(token: string, now: Date): Promise<CardRevealClaims | null> {
    return openRevealToken(await this.signingKey(), token, now);
  }

  private signingKey(): Promise<Buffer> {
    this.key ??= this.loadKey().catch((error: unknown) => {
      // A failed read is retried by the next request rather than remembered.
      this.key = null;
      throw error;
    });
    return this.key;
  }

  /** The first process to seal a key wins; everyone reads the one sealed. */
  private async loadKey(): Promise<Buffer> {
    await this.vault.sealOnce(KEY_ID, 'card-reveal-token-key', randomBytes(32));
    const key = await this.vault.open(KEY_ID);
    if (!key) throw new Error('The card reveal key could not be read from the key vault');
    return key;
  }
}
