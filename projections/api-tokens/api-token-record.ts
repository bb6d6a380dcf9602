import { TokenEvent } from '../../src/platforms';

/**
 * The `api_tokens` read model's own state of one token: what its GET view shows, folded from the
 * token's events (not the write side's state, so either can change without the other).
 */
export interface ApiTokenRecord {
  tokenId: string;
  platformId: string;
  name: string;
  permissions: string[];
  clientId: string;
  createdAt: string;
  /** A token is never changed: its creation time (revocation removes it from every answer). */
  updatedAt: string;
  revokedAt: string | null;
}

/** Folds one event into the token's record; null while the token was never created. */
export function evolveApiTokenRecord(record: ApiTokenRecord | null, event: TokenEvent): ApiTokenRecord | null {
  switch (event.type) {
    case 'TokenCreated': {
      const { tokenId, platformId, name, permissions, clientId, createdAt } = event.data;
      return { tokenId, platformId, name, permissions, clientId, createdAt, updatedAt: createdAt, revokedAt: null };
    }
    case 'TokenRevoked':
      return record === null ? null : { ...record, revokedAt: event.data.revokedAt };
  }
}
