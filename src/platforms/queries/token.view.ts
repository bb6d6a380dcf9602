import type { Permission } from '../../infra/http/permissions';

/**
 * An API token as `GET /tokens` and `GET /tokens/{tokenId}` show it (the reference's ApiToken):
 * never its secret.
 * @example
 * {
 *   "id": "Token:019a4a19-1874-7c6d-8e2a-4b9f0a3d1c58",
 *   "name": "Reporting (read only)",
 *   "permissions": ["VIEW"],
 *   "clientId": "6f0e3c1d9b2a48e7a5c4d3b2e1f0a9b8",
 *   "createdAt": "2025-11-03T14:00:00.000Z",
 *   "updatedAt": "2025-11-03T14:00:00.000Z"
 * }
 */
export interface ApiTokenView {
  id: string;
  name: string;
  permissions: Permission[];
  /** The HTTP Basic user name of the token. */
  clientId: string;
  createdAt: string;
  /** A token is never changed, only revoked (then gone): its creation time. */
  updatedAt: string;
}

/**
 * `POST /tokens` answers the token with its secret: the only time the secret is shown (it is
 * stored as a scrypt hash, never in the event history).
 * @example
 * {
 *   "id": "Token:019a4a19-1874-7c6d-8e2a-4b9f0a3d1c58",
 *   "name": "Payouts",
 *   "permissions": ["VIEW", "TRANSACT"],
 *   "clientId": "6f0e3c1d9b2a48e7a5c4d3b2e1f0a9b8",
 *   "clientSecret": "9c1f0e7d3a5b4c2e8f6a1d0b9e7c5a3f2d4b6e8a0c1f3e5d7b9a2c4e6f8a0b1d",
 *   "createdAt": "2025-11-03T14:00:00.000Z",
 *   "updatedAt": "2025-11-03T14:00:00.000Z"
 * }
 */
export interface CreatedApiTokenView extends ApiTokenView {
  /** The HTTP Basic password of the token: shown in this answer only. */
  clientSecret: string;
}
