import { DomainError } from '../../../infra/domain/domain-error';
import { isSessionActive, SessionRecord, walletSessionDecider, WalletSessionState } from './session.decider';
import { WalletSessionEvent } from './session.events';

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

function given(events: WalletSessionEvent[]): WalletSessionState {
  return events.reduce(walletSessionDecider.evolve, walletSessionDecider.initialState());
}

function code(work: () => unknown): string | undefined {
  try {
    work();
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
  return undefined;
}

describe('wallet session decider', () => {
  const created = walletSessionDecider.decide({ type: 'CreateSession', session }, given([]));

  it('records the creation (a fingerprint of the key, never the key) once', () => {
    expect(created).toEqual([{ type: 'WalletSessionCreated', data: session }]);
    expect(walletSessionDecider.decide({ type: 'CreateSession', session }, given(created))).toEqual([]);
  });

  it('is active for 15 minutes, until revoked', () => {
    expect(isSessionActive(given(created), Date.parse('2025-10-13T12:14:59.999Z'))).toBe(true);
    expect(isSessionActive(given(created), Date.parse('2025-10-13T12:15:00.000Z'))).toBe(false);
    const revoked = walletSessionDecider.decide({ type: 'RevokeSession', requestId: 'Request:x', now: '2025-10-13T12:01:00.000Z' }, given(created));
    expect(revoked).toEqual([
      { type: 'WalletSessionRevoked', data: { sessionId: 'Session:s', platformId: 'Platform:p', accountId: 'InternalAccount:a', requestId: 'Request:x', revokedAt: '2025-10-13T12:01:00.000Z' } },
    ]);
    expect(isSessionActive(given([...created, ...revoked]), Date.parse('2025-10-13T12:02:00.000Z'))).toBe(false);
  });

  it('refuses to revoke a revoked, expired or unknown session', () => {
    const revoked = walletSessionDecider.decide({ type: 'RevokeSession', requestId: 'Request:x', now: '2025-10-13T12:01:00.000Z' }, given(created));
    expect(code(() => walletSessionDecider.decide({ type: 'RevokeSession', requestId: 'Request:y', now: '2025-10-13T12:02:00.000Z' }, given([...created, ...revoked])))).toBe('REFERENCE_NOT_FOUND');
    expect(code(() => walletSessionDecider.decide({ type: 'RevokeSession', requestId: 'Request:y', now: '2025-10-13T12:20:00.000Z' }, given(created)))).toBe('REFERENCE_NOT_FOUND');
    expect(code(() => walletSessionDecider.decide({ type: 'RevokeSession', requestId: 'Request:y', now: '2025-10-13T12:02:00.000Z' }, given([])))).toBe('REFERENCE_NOT_FOUND');
  });
});
