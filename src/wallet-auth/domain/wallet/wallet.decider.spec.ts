import { DomainError } from '../../../infra/domain/domain-error';
import { WalletCommand, WalletState, walletDecider } from './wallet.decider';
import { CredentialDetails, WalletEvent } from './wallet.events';

const NOW = '2025-10-13T12:00:00.000Z';
const LATER = '2025-10-13T12:10:00.000Z';
const ref = { platformId: 'Platform:p', accountId: 'InternalAccount:0199a000-0000-7000-8000-000000000001' };

function given(events: WalletEvent[]): WalletState {
  return events.reduce(walletDecider.evolve, walletDecider.initialState());
}

function when(state: WalletState, command: WalletCommand): WalletEvent[] {
  return walletDecider.decide(command, state);
}

function refusal(work: () => unknown): { code: string; details?: Record<string, unknown> } | undefined {
  try {
    work();
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, details: error.details };
    throw error;
  }
  return undefined;
}

const initial = when(given([]), { ...ref, type: 'RegisterInitialCredential', credentialId: 'AuthMethod:e', email: 'jane@example.com', now: NOW });

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

function register(state: WalletState, credential: CredentialDetails): WalletEvent[] {
  return when(state, { ...ref, type: 'RegisterCredential', credential, expectedCredentialSetVersion: state.credentialSetVersion, requestId: 'Request:r', now: NOW });
}

describe('embedded wallet credentials decider', () => {
  it('opens the initial EMAIL_OTP credential once, nicknamed with the email', () => {
    expect(initial).toEqual([
      {
        type: 'WalletCredentialRegistered',
        data: {
          ...ref, credentialId: 'AuthMethod:e', credentialType: 'EMAIL_OTP', nickname: 'jane@example.com', email: 'jane@example.com',
          phoneNumber: null, passkey: null, oauth: null, initial: true, requestId: null, credentialSetVersion: 1, registeredAt: NOW,
        },
      },
    ]);
    expect(when(given(initial), { ...ref, type: 'RegisterInitialCredential', credentialId: 'AuthMethod:e', email: 'jane@example.com', now: NOW })).toEqual([]);
  });

  it('refuses a second EMAIL_OTP, a second SMS_OTP, a passkey id twice and an OAuth identity twice', () => {
    const state = given(initial);
    const email: CredentialDetails = { ...sms, credentialId: 'AuthMethod:e2', credentialType: 'EMAIL_OTP', email: 'x@example.com', phoneNumber: null };
    expect(refusal(() => register(state, email))?.code).toBe('EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS');
    const withSms = given([...initial, ...register(state, sms)]);
    expect(refusal(() => register(withSms, { ...sms, credentialId: 'AuthMethod:s2' }))?.code).toBe('SMS_OTP_CREDENTIAL_ALREADY_EXISTS');
    const withPasskey = given([...initial, ...register(state, passkey('AuthMethod:p', 'cred-1', 'h1'))]);
    expect(refusal(() => register(withPasskey, passkey('AuthMethod:p2', 'cred-1', 'h2')))?.code).toBe('PASSKEY_CREDENTIAL_ALREADY_EXISTS');
    expect(refusal(() => register(withPasskey, passkey('AuthMethod:p3', 'cred-3', 'h1')))?.code).toBe('INVALID_INPUT');
    const withOauth = given([...initial, ...register(state, oauth)]);
    expect(refusal(() => register(withOauth, { ...oauth, credentialId: 'AuthMethod:o2' }))).toEqual({
      code: 'INVALID_INPUT',
      details: { reason: 'OAUTH_IDENTITY_ALREADY_REGISTERED' },
    });
  });

  it('refuses a registration or removal decided on a credential set that has changed since', () => {
    const state = given(initial);
    const stale = { ...ref, type: 'RegisterCredential' as const, credential: sms, expectedCredentialSetVersion: 0, requestId: null, now: NOW };
    // No wallet operation declares a 409: the contract's code is the reason of a 400.
    expect(refusal(() => when(state, stale))).toEqual({ code: 'INVALID_INPUT', details: { reason: 'EMAIL_OTP_CREDENTIAL_SET_CHANGED' } });
    const two = given([...initial, ...register(state, sms)]);
    expect(refusal(() => when(two, { ...ref, type: 'RemoveCredential', credentialId: 'AuthMethod:s', expectedCredentialSetVersion: 1, requestId: 'Request:r', now: NOW }))?.details).toEqual({
      reason: 'EMAIL_OTP_CREDENTIAL_SET_CHANGED',
    });
  });

  it('removes a credential but never the last one', () => {
    const one = given(initial);
    expect(refusal(() => when(one, { ...ref, type: 'RemoveCredential', credentialId: 'AuthMethod:e', expectedCredentialSetVersion: 1, requestId: 'Request:r', now: NOW }))).toEqual({
      code: 'INVALID_INPUT',
      details: { reason: 'LAST_CREDENTIAL' },
    });
    const two = given([...initial, ...register(one, sms)]);
    const removed = when(two, { ...ref, type: 'RemoveCredential', credentialId: 'AuthMethod:e', expectedCredentialSetVersion: 2, requestId: 'Request:r', now: NOW });
    expect(removed).toEqual([
      { type: 'WalletCredentialRemoved', data: { ...ref, credentialId: 'AuthMethod:e', credentialType: 'EMAIL_OTP', requestId: 'Request:r', credentialSetVersion: 3, removedAt: NOW } },
    ]);
    expect(Object.keys(given([...initial, ...register(one, sms), ...removed]).credentials)).toEqual(['AuthMethod:s']);
    expect(refusal(() => when(two, { ...ref, type: 'RemoveCredential', credentialId: 'AuthMethod:x', expectedCredentialSetVersion: 2, requestId: 'Request:r', now: NOW }))?.code).toBe('REFERENCE_NOT_FOUND');
  });

  it('answers only the latest OTP challenge, once, before it expires', () => {
    const issue = (challengeId: string) =>
      when(given(initial), { ...ref, type: 'IssueOtpChallenge', credentialId: 'AuthMethod:e', challengeId, expiresAt: '2025-10-13T12:05:00.000Z', now: NOW });
    const first = issue('c1');
    const second = issue('c2');
    const state = given([...initial, ...first, ...second]);
    const answer = (challengeId: string, now = NOW) => when(state, { ...ref, type: 'AnswerOtpChallenge', credentialId: 'AuthMethod:e', challengeId, requestId: 'Request:r', now });
    expect(refusal(() => answer('c1'))?.code).toBe('UNAUTHORIZED');
    expect(refusal(() => answer('c2', LATER))?.code).toBe('UNAUTHORIZED');
    const answered = answer('c2');
    expect(answered[0].type).toBe('WalletOtpChallengeAnswered');
    const after = given([...initial, ...first, ...second, ...answered]);
    expect(refusal(() => when(after, { ...ref, type: 'AnswerOtpChallenge', credentialId: 'AuthMethod:e', challengeId: 'c2', requestId: 'Request:r2', now: NOW }))?.details).toEqual({
      reason: 'This OTP challenge was already answered; request a new one',
      check: 'OTP_CHALLENGE',
    });
  });

  it('refuses OTP challenges for non-OTP credentials and passkey counters that do not increase', () => {
    const state = given([...initial, ...register(given(initial), passkey('AuthMethod:p', 'cred-1', 'h1'))]);
    expect(refusal(() => when(state, { ...ref, type: 'IssueOtpChallenge', credentialId: 'AuthMethod:p', challengeId: 'c', expiresAt: LATER, now: NOW }))?.code).toBe('INVALID_INPUT');
    const asserted = when(state, { ...ref, type: 'RecordPasskeyAssertion', credentialId: 'AuthMethod:p', counter: 5, requestId: 'Request:r', now: NOW });
    const after = given([...initial, ...register(given(initial), passkey('AuthMethod:p', 'cred-1', 'h1')), ...asserted]);
    expect(refusal(() => when(after, { ...ref, type: 'RecordPasskeyAssertion', credentialId: 'AuthMethod:p', counter: 5, requestId: 'Request:r2', now: NOW }))?.code).toBe('UNAUTHORIZED');
  });
});
