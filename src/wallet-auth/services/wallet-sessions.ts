import { Injectable } from '@nestjs/common';
import { sha256Hex } from '../../infra/crypto/encoding';
import { parseP256PublicKeyHex } from '../../infra/crypto/p256';
import { newId } from '../../infra/ids';
import { checkClientPublicKey, generateSessionSigningKey, sealSessionSigningKey } from '../crypto/credential-bundle';
import { VerifiedWalletSignature, walletSignatureKeyNotAuthorised } from '../crypto/wallet-signature';
import { DelegatedKeyStatus } from '../domain/delegated-key/delegated-key.events';
import { SessionRecord, isSessionActive } from '../domain/session/session.decider';
import { WalletState } from '../domain/wallet/wallet.decider';
import { CredentialDetails } from '../domain/wallet/wallet.events';
import { DelegatedKeysQuery } from '../queries/delegated-keys.query';
import { WalletAuthQuery } from '../queries/wallet-auth.query';
import { SessionView, sessionView } from '../queries/wallet-auth.views';
import { SESSION_LIFETIME_MS } from '../wallet-auth.constants';
import { sessionNotFound, walletSignatureError } from '../domain/wallet-auth.errors';
import { WalletAuthStore } from './wallet-auth.store';
import { WalletClock } from './wallet-clock';

/** The session a signature may come from; everything else about it is checked here. */
export interface SignerRule {
  /** DELETE /auth/credentials: the signing session must belong to another credential. */
  excludeCredentialId?: string;
  /** Session refresh: only the session being refreshed may sign. */
  onlySessionId?: string;
}

/** Why a stamp by one of the wallet's delegated keys signs nothing here, by the key's status. */
const DELEGATED_KEY_REFUSALS: Record<DelegatedKeyStatus, string> = {
  ACTIVE: "Wallet signature key is a delegated key of this wallet: it signs only its card's payments, in place of a session key, never this operation",
  PENDING: 'Wallet signature key is a delegated key of this wallet whose creation was never completed (PENDING): it signs nothing',
  REVOKED: 'Wallet signature key is a revoked delegated key of this wallet: it signs nothing',
};

/** A session as a login or refresh answers it: the view plus the sealed key in the legacy flow. */
export type IssuedSession = SessionView & { encryptedSessionSigningKey?: string };

/** sha256 hex of the compressed SEC1 hex: how sessions are found without storing their keys. */
export function publicKeyFingerprint(publicKeyHex: string): string {
  const key = parseP256PublicKeyHex(publicKeyHex);
  if (!key) throw new Error('not a P-256 public key');
  return sha256Hex(key.compressedHex);
}

/**
 * Sessions: who may sign (a live session key of the wallet, re-checked on its stream and against
 * the wallet's current credentials), and issuing new ones without ever storing a private key.
 */
@Injectable()
export class WalletSessions {
  constructor(
    private readonly clock: WalletClock,
    private readonly store: WalletAuthStore,
    private readonly query: WalletAuthQuery,
    private readonly delegatedKeys: DelegatedKeysQuery,
  ) {}

  /**
   * The live session of this wallet whose key made `verified`, or WALLET_SIGNATURE_INVALID. In the
   * sandbox the literal stands for the wallet's newest live session that the rule allows.
   */
  async authorise(platformId: string, accountId: string, verified: VerifiedWalletSignature, rule: SignerRule = {}, now = this.clock.now()): Promise<SessionRecord> {
    const fingerprint = verified.publicKeyCompressedHex === null ? null : sha256Hex(verified.publicKeyCompressedHex);
    const candidates = await this.query.findLiveSessionIds(platformId, accountId, fingerprint, now);
    let wallet: WalletState | null = null;
    let excludedByRule = false;
    for (const sessionId of candidates) {
      const state = await this.store.loadSession(sessionId);
      if (!isSessionActive(state, now.getTime())) continue;
      const session = state.session;
      if (session.platformId !== platformId || session.accountId !== accountId) continue;
      wallet ??= await this.store.loadWallet(accountId);
      if (!wallet.credentials[session.credentialId]) continue;
      if (rule.excludeCredentialId === session.credentialId || (rule.onlySessionId !== undefined && rule.onlySessionId !== session.sessionId)) {
        excludedByRule = true;
        continue;
      }
      return session;
    }
    if (excludedByRule && rule.excludeCredentialId) {
      throw walletSignatureError('WALLET_SIGNATURE_INVALID', 'A credential is removed with a session of another credential of the wallet');
    }
    if (excludedByRule && rule.onlySessionId) {
      throw walletSignatureError('WALLET_SIGNATURE_INVALID', 'A session is refreshed with its own session key');
    }
    throw walletSignatureError('WALLET_SIGNATURE_INVALID', await this.refusalReason(platformId, accountId, verified));
  }

  /** Only on the way to a refusal: a delegated key of the wallet is told apart, so the platform sees why. */
  private async refusalReason(platformId: string, accountId: string, verified: VerifiedWalletSignature): Promise<string> {
    const status = verified.publicKeyCompressedHex === null ? null : await this.delegatedKeys.delegatedKeyStatus(platformId, accountId, verified.publicKeyCompressedHex);
    if (status === null) return walletSignatureKeyNotAuthorised().reason;
    return DELEGATED_KEY_REFUSALS[status];
  }

  /**
   * The session, if this platform's and live (of a credential the wallet still has); `missing`
   * builds the refusal otherwise. A session not known to the read model is 404.
   */
  async requireLive(platformId: string, sessionId: string, now: Date, missing: () => Error): Promise<SessionRecord> {
    const location = await this.query.findSession(platformId, sessionId);
    if (!location) throw sessionNotFound();
    const state = await this.store.loadSession(sessionId);
    if (!isSessionActive(state, now.getTime()) || state.session.platformId !== platformId) throw missing();
    const wallet = await this.store.loadWallet(state.session.accountId);
    if (!wallet.credentials[state.session.credentialId]) throw missing();
    return state.session;
  }

  /**
   * Opens a session for a credential. With a session key the client already holds (OTP TEK, or a
   * compressed clientPublicKey) nothing is returned; with an uncompressed clientPublicKey (legacy)
   * a fresh key is generated, sealed to it, returned once and forgotten.
   */
  async open(input: {
    platformId: string;
    accountId: string;
    credential: Pick<CredentialDetails, 'credentialId' | 'credentialType' | 'nickname'> & Partial<Pick<CredentialDetails, 'passkey'>>;
    clientPublicKey: string;
    /** OTP logins: the TEK is the session key whatever its encoding. */
    clientHoldsKey?: boolean;
    requestId: string | null;
    refreshedFromSessionId?: string | null;
    now: Date;
  }): Promise<IssuedSession> {
    const checked = checkClientPublicKey(input.clientPublicKey);
    if (!checked.ok) throw new Error(checked.reason);
    let publicKeyHex = checked.key.compressedHex;
    let encryptedSessionSigningKey: string | undefined;
    if (!input.clientHoldsKey && checked.format === 'uncompressed') {
      const sessionKey = generateSessionSigningKey();
      encryptedSessionSigningKey = await sealSessionSigningKey(sessionKey, checked.key.uncompressedHex);
      publicKeyHex = sessionKey.publicKeyCompressedHex;
    }
    const session: SessionRecord = {
      sessionId: newId('Session', input.now.getTime()),
      platformId: input.platformId,
      accountId: input.accountId,
      credentialId: input.credential.credentialId,
      credentialType: input.credential.credentialType,
      nickname: input.credential.nickname,
      webAuthnCredentialId: input.credential.passkey?.webAuthnCredentialId ?? null,
      publicKeyFingerprint: publicKeyFingerprint(publicKeyHex),
      keyCustody: encryptedSessionSigningKey === undefined ? 'CLIENT_HELD' : 'SEALED_TO_CLIENT',
      requestId: input.requestId,
      refreshedFromSessionId: input.refreshedFromSessionId ?? null,
      createdAt: input.now.toISOString(),
      expiresAt: new Date(input.now.getTime() + SESSION_LIFETIME_MS).toISOString(),
    };
    await this.store.handleSession(session.sessionId, { type: 'CreateSession', session });
    const view: IssuedSession = sessionView(session);
    if (encryptedSessionSigningKey !== undefined) view.encryptedSessionSigningKey = encryptedSessionSigningKey;
    return view;
  }
}
