/**
 * Events of an embedded wallet's authentication stream (`walletAuth-<account uuid>`): its
 * credentials, the OTP challenges issued for them, passkey counters, exports and the privacy
 * setting. Events record that a thing happened; secrets never appear here: OTP target private
 * keys and codes are sealed in the KeyVault, and the wallet secret too.
 */
export type CredentialType = 'EMAIL_OTP' | 'SMS_OTP' | 'PASSKEY' | 'OAUTH';

export const CREDENTIAL_TYPES: readonly CredentialType[] = ['EMAIL_OTP', 'SMS_OTP', 'PASSKEY', 'OAUTH'];

export type OtpCredentialType = 'EMAIL_OTP' | 'SMS_OTP';

export function isOtpCredentialType(type: CredentialType): type is OtpCredentialType {
  return type === 'EMAIL_OTP' || type === 'SMS_OTP';
}

/** What the service keeps about a registered passkey: all public (COSE public key, counter). */
export type PasskeyDetails = {
  /** base64url WebAuthn credential id (PublicKeyCredential.rawId). */
  webAuthnCredentialId: string;
  /** base64url COSE public key from the attestation. */
  publicKey: string;
  /** Signature counter at registration. */
  counter: number;
  transports: string[];
  /** sha256 hex of the registration challenge, so a challenge registers one passkey only. */
  registrationChallengeHash: string;
};

/** The identity an OAUTH credential stands for; every verify must present the same. */
export type OauthIdentity = { iss: string; aud: string; sub: string };

/** A credential as registered; exactly one of email / phoneNumber / passkey / oauth is set. */
export type CredentialDetails = {
  credentialId: string;
  credentialType: CredentialType;
  nickname: string;
  email: string | null;
  phoneNumber: string | null;
  passkey: PasskeyDetails | null;
  oauth: OauthIdentity | null;
};

type WalletRef = { platformId: string; accountId: string };

export type WalletCredentialRegistered = {
  type: 'WalletCredentialRegistered';
  data: WalletRef &
    CredentialDetails & {
      /** True for the EMAIL_OTP credential opened with the wallet for the customer's email. */
      initial: boolean;
      /** The signed request that authorised it (null for the initial and a first, unsigned one). */
      requestId: string | null;
      /** Version of the credential set after this change. */
      credentialSetVersion: number;
      registeredAt: string;
    };
};

export type WalletCredentialRemoved = {
  type: 'WalletCredentialRemoved';
  data: WalletRef & {
    credentialId: string;
    credentialType: CredentialType;
    requestId: string;
    credentialSetVersion: number;
    removedAt: string;
  };
};

/** A fresh OTP target was issued; its private key is sealed under the challenge id. */
export type WalletOtpChallengeIssued = {
  type: 'WalletOtpChallengeIssued';
  data: WalletRef & { credentialId: string; challengeId: string; issuedAt: string; expiresAt: string };
};

/** The OTP was right: the challenge is spent and a signed retry (requestId) may finish the login. */
export type WalletOtpChallengeAnswered = {
  type: 'WalletOtpChallengeAnswered';
  data: WalletRef & { credentialId: string; challengeId: string; requestId: string; answeredAt: string };
};

export type WalletPasskeyAsserted = {
  type: 'WalletPasskeyAsserted';
  data: WalletRef & { credentialId: string; counter: number; requestId: string; assertedAt: string };
};

/** The wallet secret was sealed to a client key and handed out (the secret is not here). */
export type WalletExported = {
  type: 'WalletExported';
  data: WalletRef & { requestId: string; exportedAt: string };
};

export type WalletPrivacyUpdated = {
  type: 'WalletPrivacyUpdated';
  data: WalletRef & { privateEnabled: boolean; requestId: string; updatedAt: string };
};

export type WalletEvent =
  | WalletCredentialRegistered
  | WalletCredentialRemoved
  | WalletOtpChallengeIssued
  | WalletOtpChallengeAnswered
  | WalletPasskeyAsserted
  | WalletExported
  | WalletPrivacyUpdated;

export const WALLET_EVENT_TYPES: WalletEvent['type'][] = [
  'WalletCredentialRegistered',
  'WalletCredentialRemoved',
  'WalletOtpChallengeIssued',
  'WalletOtpChallengeAnswered',
  'WalletPasskeyAsserted',
  'WalletExported',
  'WalletPrivacyUpdated',
];
