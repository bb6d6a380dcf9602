import { deciderSpec } from '../../../../test/support/decider-spec';
import { TokenCommand, tokenDecider } from './token.decider';
import { TokenEvent } from './token.events';

const PLATFORM = 'Platform:p';
const ref = { tokenId: 'Token:019a4a19-1874-7c6d-8e2a-4b9f0a3d1c58', platformId: PLATFORM };
const CREATED_AT = '2025-11-03T14:00:00.000Z';
const LATER = '2025-11-04T09:00:00.000Z';
const created: TokenEvent = {
  type: 'TokenCreated',
  data: { ...ref, name: 'Reporting', permissions: ['VIEW'], clientId: '019a4a1918747c6d8e2a4b9f0a3d1c58', createdAt: CREATED_AT },
};
const revoked: TokenEvent = { type: 'TokenRevoked', data: { ...ref, clientId: '019a4a1918747c6d8e2a4b9f0a3d1c58', revokedAt: LATER } };
const revoke = (platformId = PLATFORM): TokenCommand => ({ type: 'RevokeToken', platformId, now: LATER });
const spec = deciderSpec(tokenDecider);

describe('token decider', () => {
  it('creates an ACTIVE token; the same creation decided again records nothing more', () => {
    spec.given([]).when({ type: 'CreateToken', token: created.data as never }).then([created]);
    spec.given([created]).when({ type: 'CreateToken', token: created.data as never }).then([]);
    expect(spec.state([created])).toEqual({ ...created.data, status: 'ACTIVE' });
  });

  it('revokes an ACTIVE token of the platform, naming its client id', () => {
    spec.given([created]).when(revoke()).then([revoked]);
    expect(spec.state([created, revoked])).toEqual({ ...created.data, status: 'REVOKED' });
  });

  it('TOKEN_NOT_FOUND for an unknown token, another platform\'s, and one already revoked', () => {
    spec.given([]).when(revoke()).thenError('TOKEN_NOT_FOUND');
    spec.given([created]).when(revoke('Platform:other')).thenError('TOKEN_NOT_FOUND');
    spec.given([created, revoked]).when(revoke()).thenError('TOKEN_NOT_FOUND');
  });
});
