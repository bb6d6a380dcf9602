import { deciderSpec } from '../../../../test/support/decider-spec';
import { walletDecider } from './wallet.decider';
import { CredentialDetails, WalletEvent } from './wallet.events';

const NOW = '2025-10-13T12:00:00.000Z';
const LATER = '2025-10-13T12:10:00.000Z';
const ref = { platformId: 'Platform:p', accountId: 'InternalAccount:0199a000-0000-7000-8000-000000000001' };

const spec = deciderSpec(walletDecider);

const initialCommand = { ...ref, type: 'RegisterInitialCredential' as const, credentialId: 'AuthMethod:e', email: 'jane@example.com', now: NOW };
const initial = spec.given([]).when(initialCommand).events;

const sms: CredentialDetails = { credentialId: 'AuthMethod:s', credentialType: 'SMS_OTP', nickname: '+14155550100', email: null, phoneNumber: '+14155550100', passkey: null, oauth: null };
const passkey = (id: string, webAuthnCredentialId: string, challengeHash: string): CredentialDetails => ({
  credentialId: id,
  credentialType: 'PASSKEY',
  nickname: 'Laptop',
  email: null,
  phoneNumber: null,
  passkey: { webAuthnCredentialId, publicKey: 'pk', counter: 0, transports: [], registrationChallengeHash: challengeHash },
  oauth: null,
});
const oauth: CredentialDetails = {
  credentialId: 'AuthMethod:o', credentialType: 'OAUTH', nickname: 'g', email: null, phoneNumber: null, passkey: null,
  oauth: { iss: 'https://accounts.google.com', aud: 'app', sub: '1' },
};

/** Registers a credential on the wallet the events fold to, expecting its current credential set. */
function register(events: WalletEvent[], credential: CredentialDetails) {
  const wallet = spec.given(events);
  return wallet.when({ ...ref, type: 'RegisterCredential', credential, expectedCredentialSetVersion: wallet.state.credentialSetVersion, requestId: 'Request:r', now: NOW });
}

describe('embedded wallet credentials decider', () => {
  it('opens the initial EMAIL_OTP credential once, nicknamed with the email', () => {
    spec.given([]).when(initialCommand).then([
      {
        type: 'WalletCredentialRegistered',
        data: {
          ...ref, credentialId: 'AuthMethod:e', credentialType: 'EMAIL_OTP', nickname: 'jane@example.com', email: 'jane@example.com',
          phoneNumber: null, passkey: null, oauth: null, initial: true, requestId: null, credentialSetVersion: 1, registeredAt: NOW,
        },
      },
    ]);
    spec.given(initial).when(initialCommand).then([]);
  });

  it('refuses a second EMAIL_OTP, a second SMS_OTP, a passkey id twice and an OAuth identity twice', () => {
    const email: CredentialDetails = { ...sms, credentialId: 'AuthMethod:e2', credentialType: 'EMAIL_OTP', email: 'x@example.com', phoneNumber: null };
    register(initial, email).thenError('EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS');
    const withSms = [...initial, ...register(initial, sms).events];
    register(withSms, { ...sms, credentialId: 'AuthMethod:s2' }).thenError('SMS_OTP_CREDENTIAL_ALREADY_EXISTS');
    const withPasskey = [...initial, ...register(initial, passkey('AuthMethod:p', 'cred-1', 'h1')).events];
    register(withPasskey, passkey('AuthMethod:p2', 'cred-1', 'h2')).thenError('PASSKEY_CREDENTIAL_ALREADY_EXISTS');
    register(withPasskey, passkey('AuthMethod:p3', 'cred-3', 'h1')).thenError('INVALID_INPUT');
    const withOauth = [...initial, ...register(initial, oauth).events];
    expect(register(withOauth, { ...oauth, credentialId: 'AuthMethod:o2' }).error).toEqual({
      code: 'INVALID_INPUT',
      message: expect.any(String),
      details: { reason: 'OAUTH_IDENTITY_ALREADY_REGISTERED' },
    });
  });

  it('refuses a registration or removal decided on a credential set that has changed since', () => {
    const stale = { ...ref, type: 'RegisterCredential' as const, credential: sms, expectedCredentialSetVersion: 0, requestId: null, now: NOW };
    // No wallet operation declares a 409: the contract's code is the reason of a 400.
    expect(spec.given(initial).when(stale).error).toEqual({ code: 'INVALID_INPUT', message: expect.any(String), details: { reason: 'EMAIL_OTP_CREDENTIAL_SET_CHANGED' } });
    const two = spec.given([...initial, ...register(initial, sms).events]);
    expect(two.when({ ...ref, type: 'RemoveCredential', credentialId: 'AuthMethod:s', expectedCredentialSetVersion: 1, requestId: 'Request:r', now: NOW }).error).toEqual({
      code: 'INVALID_INPUT',
      message: expect.any(String),
      details: { reason: 'EMAIL_OTP_CREDENTIAL_SET_CHANGED' },
    });
  });

  it('removes a credential but never the last one', () => {
    expect(spec.given(initial).when({ ...ref, type: 'RemoveCredential', credentialId: 'AuthMethod:e', expectedCredentialSetVersion: 1, requestId: 'Request:r', now: NOW }).error).toEqual({
      code: 'INVALID_INPUT',
      message: expect.any(String),
      details: { reason: 'LAST_CREDENTIAL' },
    });
    const twoEvents = [...initial, ...register(initial, sms).events];
    const two = spec.given(twoEvents);
    const removed: WalletEvent[] = [
      { type: 'WalletCredentialRemoved', data: { ...ref, credentialId: 'AuthMethod:e', credentialType: 'EMAIL_OTP', requestId: 'Request:r', credentialSetVersion: 3, removedAt: NOW } },
    ];
    two.when({ ...ref, type: 'RemoveCredential', credentialId: 'AuthMethod:e', expectedCredentialSetVersion: 2, requestId: 'Request:r', now: NOW }).then(removed);
    expect(Object.keys(spec.state([...twoEvents, ...removed]).credentials)).toEqual(['AuthMethod:s']);
    two.when({ ...ref, type: 'RemoveCredential', credentialId: 'AuthMethod:x', expectedCredentialSetVersion: 2, requestId: 'Request:r', now: NOW }).thenError('REFERENCE_NOT_FOUND');
  });

  it('answers only the latest OTP challenge, once, before it expires', () => {
    const issue = (challengeId: string) =>
      spec.given(initial).when({ ...ref, type: 'IssueOtpChallenge', credentialId: 'AuthMethod:e', challengeId, expiresAt: '2025-10-13T12:05:00.000Z', now: NOW }).events;
    const first = issue('c1');
    const second = issue('c2');
    const issued = spec.given([...initial, ...first, ...second]);
    const answer = (challengeId: string, now = NOW) => issued.when({ ...ref, type: 'AnswerOtpChallenge', credentialId: 'AuthMethod:e', challengeId, requestId: 'Request:r', now });
    answer('c1').thenError('UNAUTHORIZED');
    answer('c2', LATER).thenError('UNAUTHORIZED');
    const answered = answer('c2').events;
    expect(answered[0].type).toBe('WalletOtpChallengeAnswered');
    const after = spec.given([...initial, ...first, ...second, ...answered]);
    expect(after.when({ ...ref, type: 'AnswerOtpChallenge', credentialId: 'AuthMethod:e', challengeId: 'c2', requestId: 'Request:r2', now: NOW }).error).toEqual({
      code: 'UNAUTHORIZED',
      message: expect.any(String),
      details: {
        reason: 'This OTP challenge was already answered; request a new one',
        check: 'OTP_CHALLENGE',
      },
    });
  });

  it('refuses OTP challenges for non-OTP credentials and passkey counters that do not increase', () => {
    const withPasskey = [...initial, ...register(initial, passkey('AuthMethod:p', 'cred-1', 'h1')).events];
    const state = spec.given(withPasskey);
    state.when({ ...ref, type: 'IssueOtpChallenge', credentialId: 'AuthMethod:p', challengeId: 'c', expiresAt: LATER, now: NOW }).thenError('INVALID_INPUT');
    const asserted = state.when({ ...ref, type: 'RecordPasskeyAssertion', credentialId: 'AuthMethod:p', counter: 5, requestId: 'Request:r', now: NOW }).events;
    const after = spec.given([...initial, ...register(initial, passkey('AuthMethod:p', 'cred-1', 'h1')).events, ...asserted]);
    after.when({ ...ref, type: 'RecordPasskeyAssertion', credentialId: 'AuthMethod:p', counter: 5, requestId: 'Request:r2', now: NOW }).thenError('UNAUTHORIZED');
  });
});
