import { DomainError } from '../../../infra/domain/domain-error';
import { PendingRequest, walletRequestDecider, WalletRequestState } from './request.decider';
import { WalletRequestEvent } from './request.events';

const request: PendingRequest = {
  requestId: 'Request:0199a000-0000-7000-8000-000000000009',
  platformId: 'Platform:p',
  accountId: 'InternalAccount:a',
  action: 'DELETE_CREDENTIAL',
  targetId: 'AuthMethod:x',
  credentialType: 'SMS_OTP',
  payloadToSign: '{"organizationId":"InternalAccount:a"}',
  bodyHash: 'h',
  credentialSetVersion: 2,
  boundPublicKey: null,
  webAuthnChallenge: null,
  issuedAt: '2025-10-13T12:00:00.000Z',
  expiresAt: '2025-10-13T12:05:00.000Z',
};

function given(events: WalletRequestEvent[]): WalletRequestState {
  return events.reduce(walletRequestDecider.evolve, walletRequestDecider.initialState());
}

function reason(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    if (error instanceof DomainError) return [error.code, error.details?.reason];
    throw error;
  }
  return undefined;
}

describe('pending signed request decider', () => {
  const issued = walletRequestDecider.decide({ type: 'IssueWalletRequest', request }, given([]));

  it('issues once and completes once (single-use Request-Id)', () => {
    expect(issued).toEqual([{ type: 'WalletRequestIssued', data: request }]);
    expect(walletRequestDecider.decide({ type: 'IssueWalletRequest', request }, given(issued))).toEqual([]);
    const completed = walletRequestDecider.decide({ type: 'CompleteWalletRequest', signedBySessionId: 'Session:s', now: '2025-10-13T12:01:00.000Z' }, given(issued));
    expect(completed).toEqual([
      {
        type: 'WalletRequestCompleted',
        data: { requestId: request.requestId, platformId: 'Platform:p', accountId: 'InternalAccount:a', action: 'DELETE_CREDENTIAL', signedBySessionId: 'Session:s', completedAt: '2025-10-13T12:01:00.000Z' },
      },
    ]);
    expect(reason(() => walletRequestDecider.decide({ type: 'CompleteWalletRequest', signedBySessionId: null, now: '2025-10-13T12:02:00.000Z' }, given([...issued, ...completed])))).toEqual([
      'UNAUTHORIZED',
      'Request-Id was already used; request ids are single use',
    ]);
  });

  it('refuses an expired or unknown request', () => {
    expect(reason(() => walletRequestDecider.decide({ type: 'CompleteWalletRequest', signedBySessionId: null, now: '2025-10-13T12:05:00.000Z' }, given(issued)))).toEqual([
      'UNAUTHORIZED',
      'Request-Id has expired; start the request again',
    ]);
    expect(reason(() => walletRequestDecider.decide({ type: 'CompleteWalletRequest', signedBySessionId: null, now: '2025-10-13T12:01:00.000Z' }, given([])))).toEqual([
      'UNAUTHORIZED',
      'Request-Id does not name a pending request',
    ]);
  });
});
