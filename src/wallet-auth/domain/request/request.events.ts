/**
 * Events of a pending signed request (`request-<uuid>` for `Request:<uuid>`): the first call of a
 * two-step signed action, an OTP login's first leg, or a passkey login challenge. The request
 * holds the exact `payloadToSign` text and a hash of the first call's body, and it is used once.
 */
export type WalletRequestAction =
  | 'ADD_CREDENTIAL'
  | 'DELETE_CREDENTIAL'
  | 'REVOKE_SESSION'
  | 'REFRESH_SESSION'
  | 'EXPORT_WALLET'
  | 'UPDATE_WALLET_PRIVACY'
  /** Delegated key creation, first signed leg (the key is created PENDING). */
  | 'CREATE_DELEGATED_KEY'
  /** Delegated key creation, second signed leg (the key becomes ACTIVE). */
  | 'ACTIVATE_DELEGATED_KEY'
  | 'OTP_LOGIN'
  | 'PASSKEY_LOGIN';

export type WalletRequestIssued = {
  type: 'WalletRequestIssued';
  data: {
    requestId: string;
    platformId: string;
    accountId: string;
    action: WalletRequestAction;
    /** What the action is about (credential, session, account or card funding source id): a retry must name the same. */
    targetId: string;
    /** Echoed as `type` in the 202 (the credential type concerned), or null. */
    credentialType: string | null;
    /** The exact text the client signs; verified byte for byte, never re-serialised. */
    payloadToSign: string;
    /** sha256 hex of the canonical JSON of the first call's body: the retry must repeat it. */
    bodyHash: string;
    credentialSetVersion: number;
    /**
     * A public key bound into the request: the OTP login's TEK (it must stamp the retry), or the
     * clientPublicKey of a passkey login or session refresh (the new session's key or its sealing key).
     */
    boundPublicKey: string | null;
    /** Passkey login: lowercase hex challenge whose UTF-8 bytes are the WebAuthn challenge. */
    webAuthnChallenge: string | null;
    issuedAt: string;
    expiresAt: string;
  };
};

export type WalletRequestCompleted = {
  type: 'WalletRequestCompleted';
  data: {
    requestId: string;
    platformId: string;
    accountId: string;
    action: WalletRequestAction;
    /** The session whose key signed the retry (null for OTP and passkey logins). */
    signedBySessionId: string | null;
    completedAt: string;
  };
};

export type WalletRequestEvent = WalletRequestIssued | WalletRequestCompleted;

export const WALLET_REQUEST_EVENT_TYPES: WalletRequestEvent['type'][] = ['WalletRequestIssued', 'WalletRequestCompleted'];
