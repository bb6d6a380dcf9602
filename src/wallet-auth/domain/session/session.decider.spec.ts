import { deciderSpec } from '../../../../test/support/decider-spec';
import { isSessionActive, SessionRecord, walletSessionDecider } from './session.decider';

const session: SessionRecord = {
  sessionId: 'Session:s',
  platformId: 'Platform:p',
  accountId: 'InternalAccount:a',
  credentialId: 'AuthMethod:e',
  credentialType: 'EMAIL_OTP',
  nickname: 'jane@example.com',
  publicKeyFingerprint: 'f',
  keyCustody: 'CLIENT_HELD',
  requestId: 'Request:r',
  refreshedFromSessionId: null,
  createdAt: '2025-10-13T12:00:00.000Z',
  expiresAt: '2025-10-13T12:15:00.000Z',
};

const spec = deciderSpec(walletSessionDecider);

describe('wallet session decider', () => {
  const created = spec.given([]).when({ type: 'CreateSession', session }).events;

  it('records the creation (a fingerprint of the key, never the key) once', () => {
    spec.given([]).when({ type: 'CreateSession', session }).then([{ type: 'WalletSessionCreated', data: session }]);
    spec.given(created).when({ type: 'CreateSession', session }).then([]);
  });

  it('is active for 15 minutes, until revoked', () => {
    expect(isSessionActive(spec.state(created), Date.parse('2025-10-13T12:14:59.999Z'))).toBe(true);
    expect(isSessionActive(spec.state(created), Date.parse('2025-10-13T12:15:00.000Z'))).toBe(false);
    const revoked = spec.given(created).when({ type: 'RevokeSession', requestId: 'Request:x', now: '2025-10-13T12:01:00.000Z' });
    revoked.then([
      { type: 'WalletSessionRevoked', data: { sessionId: 'Session:s', platformId: 'Platform:p', accountId: 'InternalAccount:a', requestId: 'Request:x', revokedAt: '2025-10-13T12:01:00.000Z' } },
    ]);
    expect(isSessionActive(spec.state([...created, ...revoked.events]), Date.parse('2025-10-13T12:02:00.000Z'))).toBe(false);
  });

  it('refuses to revoke a revoked, expired or unknown session', () => {
    const { events: revoked } = spec.given(created).when({ type: 'RevokeSession', requestId: 'Request:x', now: '2025-10-13T12:01:00.000Z' });
    spec.given([...created, ...revoked]).when({ type: 'RevokeSession', requestId: 'Request:y', now: '2025-10-13T12:02:00.000Z' }).thenError('REFERENCE_NOT_FOUND');
    spec.given(created).when({ type: 'RevokeSession', requestId: 'Request:y', now: '2025-10-13T12:20:00.000Z' }).thenError('REFERENCE_NOT_FOUND');
    spec.given([]).when({ type: 'RevokeSession', requestId: 'Request:y', now: '2025-10-13T12:02:00.000Z' }).thenError('REFERENCE_NOT_FOUND');
  });
});
