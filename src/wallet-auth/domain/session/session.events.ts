import { CredentialType } from '../wallet/wallet.events';

/**
 * Events of an embedded-wallet session (`session-<uuid>` for `Session:<uuid>`). They record that
 * a session was created or revoked, never its key: the session is found by the SHA-256
 * fingerprint of its public signing key, and private keys are never stored (the client holds its
 * own, or the one the service generated is sealed to the client and forgotten).
 */
export type SessionKeyCustody =
  /** The client generated the key (OTP TEK, or a compressed clientPublicKey) and keeps it. */
  | 'CLIENT_HELD'
  /** Legacy flow: the service generated the key and returned it sealed to the client's key. */
  | 'SEALED_TO_CLIENT';

export type WalletSessionCreated = {
  type: 'WalletSessionCreated';
  data: {
    sessionId: string;
    platformId: string;
    accountId: string;
    credentialId: string;
    credentialType: CredentialType;
    nickname: string;
    /**
     * PASSKEY sessions: the WebAuthn credential id of their passkey, shown as `credentialId`
     * (absent from sessions recorded before it was kept: the read model looks it up).
     */
    webAuthnCredentialId?: string | null;
    /** sha256 hex of the compressed SEC1 hex of the session's public key. */
    publicKeyFingerprint: string;
    keyCustody: SessionKeyCustody;
    /** The login or refresh request that created it. */
    requestId: string | null;
    refreshedFromSessionId: string | null;
    createdAt: string;
    expiresAt: string;
  };
};

export type WalletSessionRevoked = {
  type: 'WalletSessionRevoked';
  data: { sessionId: string; platformId: string; accountId: string; requestId: string; revokedAt: string };
};

export type WalletSessionEvent = WalletSessionCreated | WalletSessionRevoked;

export const WALLET_SESSION_EVENT_TYPES: WalletSessionEvent['type'][] = ['WalletSessionCreated', 'WalletSessionRevoked'];
