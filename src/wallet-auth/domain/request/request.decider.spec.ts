import { deciderSpec } from '../../../../test/support/decider-spec';
import { PendingRequest, walletRequestDecider } from './request.decider';

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

const spec = deciderSpec(walletRequestDecider);

describe('pending signed request decider', () => {
  const issued = spec.given([]).when({ type: 'IssueWalletRequest', request }).events;

  it('issues once and completes once (single-use Request-Id)', () => {
    spec.given([]).when({ type: 'IssueWalletRequest', request }).then([{ type: 'WalletRequestIssued', data: request }]);
    spec.given(issued).when({ type: 'IssueWalletRequest', request }).then([]);
    const completed = spec.given(issued).when({ type: 'CompleteWalletRequest', signedBySessionId: 'Session:s', now: '2025-10-13T12:01:00.000Z' });
    completed.then([
      {
        type: 'WalletRequestCompleted',
        data: { requestId: request.requestId, platformId: 'Platform:p', accountId: 'InternalAccount:a', action: 'DELETE_CREDENTIAL', signedBySessionId: 'Session:s', completedAt: '2025-10-13T12:01:00.000Z' },
      },
    ]);
    spec.given([...issued, ...completed.events]).when({ type: 'CompleteWalletRequest', signedBySessionId: null, now: '2025-10-13T12:02:00.000Z' }).thenError('UNAUTHORIZED', {
      reason: 'Request-Id was already used; request ids are single use',
    });
  });

  it('refuses an expired or unknown request', () => {
    spec.given(issued).when({ type: 'CompleteWalletRequest', signedBySessionId: null, now: '2025-10-13T12:05:00.000Z' }).thenError('UNAUTHORIZED', {
      reason: 'Request-Id has expired; start the request again',
    });
    spec.given([]).when({ type: 'CompleteWalletRequest', signedBySessionId: null, now: '2025-10-13T12:01:00.000Z' }).thenError('UNAUTHORIZED', {
      reason: 'Request-Id does not name a pending request',
    });
  });
});
