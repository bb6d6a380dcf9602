import { Injectable } from '@nestjs/common';
import { canonicalJson } from '../../infra/crypto/canonical-json';
import { boundChallengeHex, verifyPasskeyAssertion } from '../../infra/crypto/webauthn';
import { ValidationError } from '../../infra/domain/domain-error';
import { HttpResult, withStatus } from '../../infra/http/http-result';
import { CLIENT_PUBLIC_KEY_PATTERN, checkClientPublicKey } from '../crypto/credential-bundle';
import { checkOidcTokenForVerify } from '../crypto/oidc-token';
import { CredentialDetails } from '../domain/wallet/wallet.events';
import { CredentialView } from '../queries/wallet-auth.views';
import { CREATE_SESSION_ACTIVITY_TYPE, SESSION_LIFETIME_MS } from '../wallet-auth.constants';
import { credentialSetChangedError, walletSignatureError, walletUnauthorized } from '../domain/wallet-auth.errors';
import { SignedCallHeaders, SignedRequests } from '../services/signed-requests';
import { WalletAccounts } from '../services/wallet-accounts';
import { WalletAuthStore } from '../services/wallet-auth.store';
import { IssuedSession, WalletSessions } from '../services/wallet-sessions';
import { WalletClock } from '../services/wallet-clock';

interface KeyCredential {
  platformId: string;
  accountId: string;
  credential: CredentialDetails;
  view: CredentialView;
}

/**
 * PASSKEY and OAUTH logins, each one call that answers a Session (SPEC.md "Authentication" 5): the
 * steps of the IssueCredentialChallenge and VerifyCredential commands for those credentials.
 * The session key is the client's own (compressed clientPublicKey) or, in the legacy flow
 * (uncompressed), a fresh key sealed to it as `encryptedSessionSigningKey`.
 */
@Injectable()
export class KeyLogin {
  constructor(
    private readonly clock: WalletClock,
    private readonly store: WalletAuthStore,
    private readonly accounts: WalletAccounts,
    private readonly signed: SignedRequests,
    private readonly sessions: WalletSessions,
  ) {}

  /**
   * Passkey challenge: the WebAuthn challenge is the lowercase hex SHA-256 of the canonical
   * session-creation body that names this wallet, credential, request and clientPublicKey, so
   * the assertion authorises exactly that session (DECISIONS.md section 4).
   */
  async passkeyChallenge(input: KeyCredential, clientPublicKey: string | undefined, rawBody: unknown) {
    const key = checkClientPublicKey(clientPublicKey);
    if (!key.ok) {
      const constraint = clientPublicKey === undefined ? {} : { pattern: CLIENT_PUBLIC_KEY_PATTERN.source };
      throw new ValidationError([{ field: 'clientPublicKey', constraint, message: `clientPublicKey is required for PASSKEY: ${key.reason}` }]);
    }
    const now = this.clock.now();
    const wallet = await this.store.loadWallet(input.accountId);
    const { request } = await this.signed.issue({
      platformId: input.platformId,
      accountId: input.accountId,
      action: 'PASSKEY_LOGIN',
      targetId: input.credential.credentialId,
      credentialType: 'PASSKEY',
      body: rawBody,
      credentialSetVersion: wallet.credentialSetVersion,
      boundPublicKey: clientPublicKey!,
      webAuthnChallenge: (requestId, issuedAt) => {
        const sessionCreation = {
          organizationId: input.accountId,
          parameters: {
            credentialId: input.credential.credentialId,
            expirationSeconds: String(SESSION_LIFETIME_MS / 1000),
            requestId,
            targetPublicKey: clientPublicKey!,
          },
          timestampMs: String(issuedAt.getTime()),
          type: CREATE_SESSION_ACTIVITY_TYPE,
        };
        return { payload: canonicalJson(sessionCreation), challenge: boundChallengeHex(sessionCreation) };
      },
      now,
    });
    return {
      ...input.view,
      credentialId: input.credential.passkey!.webAuthnCredentialId,
      challenge: request.webAuthnChallenge!,
      requestId: request.requestId,
      expiresAt: request.expiresAt,
    };
  }

  /** Passkey verify: the assertion over the challenge of the request named by Request-Id. */
  async passkeyVerify(input: KeyCredential, assertion: unknown, headers: SignedCallHeaders): Promise<HttpResult<IssuedSession>> {
    const requestIdHeader = Array.isArray(headers.requestId) ? headers.requestId[0] : headers.requestId;
    if (requestIdHeader === undefined || requestIdHeader.trim() === '') {
      throw walletSignatureError('REQUEST_ID_MISSING', 'Request-Id header (the requestId of the passkey challenge) is missing');
    }
    const now = this.clock.now();
    const scope = { platformId: input.platformId, accountId: input.accountId, action: 'PASSKEY_LOGIN' as const, targetId: input.credential.credentialId };
    const request = await this.signed.pending(requestIdHeader.trim(), scope, now);
    const wallet = await this.store.loadWallet(input.accountId);
    if (wallet.credentialSetVersion !== request.credentialSetVersion) throw credentialSetChangedError();
    const passkey = input.credential.passkey!;
    const config = await this.accounts.webAuthnConfig(input.platformId);
    const result = await verifyPasskeyAssertion({
      assertion,
      credential: { credentialId: passkey.webAuthnCredentialId, publicKey: passkey.publicKey, counter: wallet.passkeyCounters[input.credential.credentialId] ?? 0 },
      expectedChallenge: { hex: request.webAuthnChallenge! },
      allowedOrigins: config.allowedOrigins,
      rpId: config.rpId,
      sandbox: this.accounts.sandbox,
    });
    if (!result.ok && result.reason === 'MALFORMED') throw new ValidationError([{ field: 'assertion', constraint: {}, message: result.message }]);
    if (!result.ok) throw walletUnauthorized(result.message, result.reason);
    await this.signed.complete(request.requestId, null, now);
    if (!result.legacySandboxLiteral) {
      await this.store.handleWallet(input.accountId, {
        type: 'RecordPasskeyAssertion',
        platformId: input.platformId,
        accountId: input.accountId,
        credentialId: input.credential.credentialId,
        counter: result.newCounter,
        requestId: request.requestId,
        now: now.toISOString(),
      });
    }
    const session = await this.sessions.open({
      platformId: input.platformId,
      accountId: input.accountId,
      credential: input.credential,
      clientPublicKey: request.boundPublicKey!,
      requestId: request.requestId,
      now,
    });
    return withStatus(200, session);
  }

  /** OAuth verify: a fresh token for the registered identity whose nonce binds clientPublicKey. */
  async oauthVerify(input: KeyCredential, body: { oidcToken: string; clientPublicKey: string }): Promise<HttpResult<IssuedSession>> {
    const key = checkClientPublicKey(body.clientPublicKey);
    if (!key.ok) throw new ValidationError([{ field: 'clientPublicKey', constraint: { pattern: CLIENT_PUBLIC_KEY_PATTERN.source }, message: key.reason }]);
    const now = this.clock.now();
    const checked = checkOidcTokenForVerify(body.oidcToken, { registered: input.credential.oauth!, clientPublicKey: body.clientPublicKey, nowMs: now.getTime() });
    if (!checked.ok && checked.kind === 'MALFORMED') throw new ValidationError([{ field: 'oidcToken', constraint: { format: 'jwt' }, message: checked.reason }]);
    if (!checked.ok) throw walletUnauthorized(checked.reason, checked.kind === 'REJECTED' ? checked.check : undefined);
    const session = await this.sessions.open({
      platformId: input.platformId,
      accountId: input.accountId,
      credential: input.credential,
      clientPublicKey: body.clientPublicKey,
      requestId: null,
      now,
    });
    return withStatus(200, session);
  }
}
