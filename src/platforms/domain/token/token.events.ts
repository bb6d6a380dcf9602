/**
 * API token events (issue 24 part 1, docs/platforms.md "API tokens"). Every payload carries the
 * token id and the platform id (tenancy, audit); who created or revoked the token is the event
 * metadata's actor. Never the secret nor its hash. Never rename an event type: add a new one.
 */

/** The reference's Permission (src/infra/http/permissions.ts holds the same list for the routes). */
export type TokenPermission = 'VIEW' | 'TRANSACT' | 'MANAGE';

type TokenRef = {
  tokenId: string;
  platformId: string;
};

export interface TokenCreated {
  type: 'TokenCreated';
  data: TokenRef & {
    name: string;
    permissions: TokenPermission[];
    /** The Basic user name of the token's credential pair. */
    clientId: string;
    createdAt: string;
  };
}

export interface TokenRevoked {
  type: 'TokenRevoked';
  data: TokenRef & { clientId: string; revokedAt: string };
}

export type TokenEvent = TokenCreated | TokenRevoked;

export const TOKEN_EVENT_TYPES: TokenEvent['type'][] = ['TokenCreated', 'TokenRevoked'];
