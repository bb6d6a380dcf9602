import { projectionSpec, ProjectionSpec } from '../../test/support/projection-spec';
import { apiTokensProjection } from './api-tokens.projection';

const PLATFORM = 'Platform:0199a000-0000-7000-8000-0000000000f1';
const UUID = '0199a000-0000-7000-8000-0000000000e1';
const CLIENT_ID = '6f0e3c1d9b2a48e7a5c4d3b2e1f0a9b8';
const ref = { tokenId: `Token:${UUID}`, platformId: PLATFORM };
const stream = `token-${UUID}`;
const CREATED_AT = '2025-10-13T12:00:00.000Z';
const created = { stream, type: 'TokenCreated', data: { ...ref, name: 'Payouts', permissions: ['VIEW', 'TRANSACT'], clientId: CLIENT_ID, createdAt: CREATED_AT } };
const revoked = { stream, type: 'TokenRevoked', data: { ...ref, clientId: CLIENT_ID, revokedAt: '2025-10-13T12:05:00.000Z' } };

describe('api-tokens projection', () => {
  let spec: ProjectionSpec;
  beforeEach(async () => {
    spec = await projectionSpec(apiTokensProjection);
  });
  afterEach(async () => {
    await spec.close();
  });

  it('a created token is one row with the columns its view and the filters read; updated at its creation', async () => {
    await spec.given([created]);
    expect(await spec.rows('SELECT token_id, platform_id, name, permissions, client_id, record::json AS record, created_at, updated_at, revoked_at FROM api_tokens')).toEqual([
      {
        token_id: `Token:${UUID}`,
        platform_id: PLATFORM,
        name: 'Payouts',
        permissions: ['VIEW', 'TRANSACT'],
        client_id: CLIENT_ID,
        record: { ...created.data, updatedAt: CREATED_AT, revokedAt: null },
        created_at: new Date(CREATED_AT),
        updated_at: new Date(CREATED_AT),
        revoked_at: null,
      },
    ]);
  });

  it('a revocation keeps the row with when; a revocation of a token never created leaves no row', async () => {
    await spec.given([created, revoked]);
    expect(await spec.rows('SELECT revoked_at, updated_at FROM api_tokens')).toEqual([
      { revoked_at: new Date('2025-10-13T12:05:00.000Z'), updated_at: new Date(CREATED_AT) },
    ]);
    const other = await projectionSpec(apiTokensProjection);
    try {
      await other.given([revoked]);
      expect(await other.rows('SELECT token_id FROM api_tokens')).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
