import { Decider } from '../../../infra/domain/decider';
import { DomainError } from '../../../infra/domain/domain-error';
import {
  credentialNotFound,
  credentialSetChangedError,
  fieldError,
  lastCredentialError,
  walletUnauthorized,
} from '../wallet-auth.errors';
import { CredentialDetails, WalletEvent, isOtpCredentialType } from './wallet.events';

/**
 * One embedded wallet's credentials and what hangs off them. The invariants that span credentials
 * live here, in one stream, so they hold under concurrency: one EMAIL_OTP and one SMS_OTP per
 * wallet, a passkey credential id once, an OAuth identity once, never zero credentials once there
 * was one, and a credential-set version that signed requests compare against.
 */
export type OtpChallengeState = { challengeId: string; expiresAt: string; answered: boolean };

export type WalletState = {
  platformId: string | null;
  accountId: string | null;
  credentials: Record<string, CredentialDetails & { registeredAt: string }>;
  /** Bumped by every registration and removal; 0 for a wallet that never had a credential. */
  credentialSetVersion: number;
  /** The latest OTP challenge per credential: only it may be answered, and only once. */
  otpChallenges: Record<string, OtpChallengeState>;
  passkeyCounters: Record<string, number>;
  registrationChallengeHashes: string[];
  privateEnabled: boolean;
};

type WalletRef = { platformId: string; accountId: string };

export type WalletCommand =
  | (WalletRef & { type: 'RegisterInitialCredential'; credentialId: string; email: string; now: string })
  | (WalletRef & {
      type: 'RegisterCredential';
      credential: CredentialDetails;
      /** The credential-set version the caller saw (when it checked whether a signature is needed). */
      expectedCredentialSetVersion: number;
      requestId: string | null;
      now: string;
    })
  | (WalletRef & { type: 'RemoveCredential'; credentialId: string; expectedCredentialSetVersion: number; requestId: string; now: string })
  | (WalletRef & { type: 'IssueOtpChallenge'; credentialId: string; challengeId: string; expiresAt: string; now: string })
  | (WalletRef & { type: 'AnswerOtpChallenge'; credentialId: string; challengeId: string; requestId: string; now: string })
  | (WalletRef & { type: 'RecordPasskeyAssertion'; credentialId: string; counter: number; requestId: string; now: string })
  | (WalletRef & { type: 'RecordExport'; requestId: string; now: string })
  | (WalletRef & { type: 'UpdatePrivacy'; privateEnabled: boolean; requestId: string; now: string });

export function credentialCount(state: WalletState): number {
  return Object.keys(state.credentials).length;
}

export const walletDecider: Decider<WalletCommand, WalletState, WalletEvent> = {
  initialState: () => ({
    platformId: null,
    accountId: null,
    credentials: {},
    credentialSetVersion: 0,
    otpChallenges: {},
    passkeyCounters: {},
    registrationChallengeHashes: [],
    privateEnabled: false,
  }),

  decide(command, state) {
    const ref = { platformId: command.platformId, accountId: command.accountId };
    switch (command.type) {
      case 'RegisterInitialCredential': {
        // Only a wallet that never had a credential gets the initial one: a replay is a no-op.
        if (state.credentialSetVersion > 0) return [];
        return [
          {
            type: 'WalletCredentialRegistered',
            data: {
              ...ref,
              credentialId: command.credentialId,
              credentialType: 'EMAIL_OTP',
              nickname: command.email,
              email: command.email,
              phoneNumber: null,
              passkey: null,
              oauth: null,
              initial: true,
              requestId: null,
              credentialSetVersion: 1,
              registeredAt: command.now,
            },
          },
        ];
      }
      case 'RegisterCredential': {
        if (command.expectedCredentialSetVersion !== state.credentialSetVersion) throw credentialSetChangedError();
        assertRegistrable(state, command.credential);
        return [
          {
            type: 'WalletCredentialRegistered',
            data: {
              ...ref,
              ...command.credential,
              initial: false,
              requestId: command.requestId,
              credentialSetVersion: state.credentialSetVersion + 1,
              registeredAt: command.now,
            },
          },
        ];
      }
      case 'RemoveCredential': {
        const credential = state.credentials[command.credentialId];
        if (!credential) throw credentialNotFound();
        if (command.expectedCredentialSetVersion !== state.credentialSetVersion) throw credentialSetChangedError();
        if (credentialCount(state) <= 1) throw lastCredentialError();
        return [
          {
            type: 'WalletCredentialRemoved',
            data: {
              ...ref,
              credentialId: command.credentialId,
              credentialType: credential.credentialType,
              requestId: command.requestId,
              credentialSetVersion: state.credentialSetVersion + 1,
              removedAt: command.now,
            },
          },
        ];
      }
      case 'IssueOtpChallenge': {
        const credential = state.credentials[command.credentialId];
        if (!credential) throw credentialNotFound();
        if (!isOtpCredentialType(credential.credentialType)) {
          throw new DomainError('INVALID_INPUT', `${credential.credentialType} credentials have no OTP challenge`);
        }
        return [
          {
            type: 'WalletOtpChallengeIssued',
            data: { ...ref, credentialId: command.credentialId, challengeId: command.challengeId, issuedAt: command.now, expiresAt: command.expiresAt },
          },
        ];
      }
      case 'AnswerOtpChallenge': {
        if (!state.credentials[command.credentialId]) throw credentialNotFound();
        const challenge = state.otpChallenges[command.credentialId];
        if (!challenge || challenge.challengeId !== command.challengeId) {
          throw walletUnauthorized('A newer OTP challenge replaced this one; use the latest otpEncryptionTargetBundle', 'OTP_CHALLENGE');
        }
        if (challenge.answered) throw walletUnauthorized('This OTP challenge was already answered; request a new one', 'OTP_CHALLENGE');
        if (Date.parse(challenge.expiresAt) <= Date.parse(command.now)) {
          throw walletUnauthorized('The OTP challenge has expired; request a new one', 'OTP_CHALLENGE');
        }
        return [
          {
            type: 'WalletOtpChallengeAnswered',
            data: { ...ref, credentialId: command.credentialId, challengeId: command.challengeId, requestId: command.requestId, answeredAt: command.now },
          },
        ];
      }
      case 'RecordPasskeyAssertion': {
        const credential = state.credentials[command.credentialId];
        if (!credential || credential.credentialType !== 'PASSKEY') throw credentialNotFound();
        const stored = state.passkeyCounters[command.credentialId] ?? 0;
        // A concurrent login with the same counter lost the race: the same rule as the WebAuthn check.
        if (!(stored === 0 && command.counter === 0) && command.counter <= stored) {
          throw walletUnauthorized('Assertion signature counter did not increase (replayed or cloned authenticator)', 'COUNTER_NOT_INCREASING');
        }
        return [
          {
            type: 'WalletPasskeyAsserted',
            data: { ...ref, credentialId: command.credentialId, counter: command.counter, requestId: command.requestId, assertedAt: command.now },
          },
        ];
      }
      case 'RecordExport':
        return [{ type: 'WalletExported', data: { ...ref, requestId: command.requestId, exportedAt: command.now } }];
      case 'UpdatePrivacy':
        return [
          {
            type: 'WalletPrivacyUpdated',
            data: { ...ref, privateEnabled: command.privateEnabled, requestId: command.requestId, updatedAt: command.now },
          },
        ];
    }
  },

  evolve(state, event) {
    const base = { ...state, platformId: event.data.platformId, accountId: event.data.accountId };
    switch (event.type) {
      case 'WalletCredentialRegistered': {
        const data = event.data;
        const details: CredentialDetails = {
          credentialId: data.credentialId,
          credentialType: data.credentialType,
          nickname: data.nickname,
          email: data.email,
          phoneNumber: data.phoneNumber,
          passkey: data.passkey,
          oauth: data.oauth,
        };
        const credentials = { ...state.credentials, [details.credentialId]: { ...details, registeredAt: data.registeredAt } };
        const passkeyCounters = details.passkey ? { ...state.passkeyCounters, [details.credentialId]: details.passkey.counter } : state.passkeyCounters;
        const registrationChallengeHashes = details.passkey
          ? [...state.registrationChallengeHashes, details.passkey.registrationChallengeHash]
          : state.registrationChallengeHashes;
        return { ...base, credentials, credentialSetVersion: data.credentialSetVersion, passkeyCounters, registrationChallengeHashes };
      }
      case 'WalletCredentialRemoved': {
        const credentials = { ...state.credentials };
        delete credentials[event.data.credentialId];
        const otpChallenges = { ...state.otpChallenges };
        delete otpChallenges[event.data.credentialId];
        return { ...base, credentials, otpChallenges, credentialSetVersion: event.data.credentialSetVersion };
      }
      case 'WalletOtpChallengeIssued':
        return {
          ...base,
          otpChallenges: {
            ...state.otpChallenges,
            [event.data.credentialId]: { challengeId: event.data.challengeId, expiresAt: event.data.expiresAt, answered: false },
          },
        };
      case 'WalletOtpChallengeAnswered': {
        const current = state.otpChallenges[event.data.credentialId];
        if (!current || current.challengeId !== event.data.challengeId) return base;
        return { ...base, otpChallenges: { ...state.otpChallenges, [event.data.credentialId]: { ...current, answered: true } } };
      }
      case 'WalletPasskeyAsserted':
        return { ...base, passkeyCounters: { ...state.passkeyCounters, [event.data.credentialId]: event.data.counter } };
      case 'WalletExported':
        return base;
      case 'WalletPrivacyUpdated':
        return { ...base, privateEnabled: event.data.privateEnabled };
    }
  },
};

/** The per-wallet uniqueness rules of SPEC.md "Auth credential" (the `*_ALREADY_EXISTS` codes). */
export function assertRegistrable(state: WalletState, credential: CredentialDetails): void {
  const existing = Object.values(state.credentials);
  // 400s, never 409: `POST /auth/credentials` declares no 409.
  if (state.credentials[credential.credentialId]) throw new DomainError('INVALID_INPUT', 'This credential id is already registered', { reason: 'CREDENTIAL_ALREADY_REGISTERED' });
  switch (credential.credentialType) {
    case 'EMAIL_OTP':
      if (existing.some((entry) => entry.credentialType === 'EMAIL_OTP')) {
        throw new DomainError('EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS', 'This wallet already has an EMAIL_OTP credential');
      }
      return;
    case 'SMS_OTP':
      if (existing.some((entry) => entry.credentialType === 'SMS_OTP')) {
        throw new DomainError('SMS_OTP_CREDENTIAL_ALREADY_EXISTS', 'This wallet already has an SMS_OTP credential');
      }
      return;
    case 'PASSKEY': {
      const passkey = credential.passkey!;
      if (existing.some((entry) => entry.passkey?.webAuthnCredentialId === passkey.webAuthnCredentialId)) {
        throw new DomainError('PASSKEY_CREDENTIAL_ALREADY_EXISTS', 'A passkey with this WebAuthn credential id is already registered');
      }
      if (state.registrationChallengeHashes.includes(passkey.registrationChallengeHash)) {
        throw fieldError('challenge', {}, 'This registration challenge was already used; registration challenges are single use');
      }
      return;
    }
    case 'OAUTH': {
      const identity = credential.oauth!;
      const same = existing.some(
        (entry) => entry.oauth && entry.oauth.iss === identity.iss && entry.oauth.aud === identity.aud && entry.oauth.sub === identity.sub,
      );
      if (same) throw new DomainError('INVALID_INPUT', 'This OAuth identity is already a credential of the wallet', { reason: 'OAUTH_IDENTITY_ALREADY_REGISTERED' });
      return;
    }
  }
}
