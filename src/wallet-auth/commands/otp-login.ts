import { Inject, Injectable } from '@nestjs/common';
import { KEY_VAULT, KeyVault } from '../../infra/crypto/key-vault';
import { privateKeyFromScalar } from '../../infra/crypto/p256';
import { ValidationError } from '../../infra/domain/domain-error';
import { newId, uuidv7 } from '../../infra/ids';
import { HttpResult, withStatus } from '../../infra/http/http-result';
import { INVALID_OTP_CODE_REASON, isOtpCodeCorrect, openEncryptedOtpBundle } from '../crypto/otp-bundle';
import { buildOtpEncryptionTargetBundle, createOtpTarget } from '../crypto/otp-target-bundle';
import { buildOtpVerificationToken, otpVerificationTypeFor } from '../crypto/otp-verification-token';
import { CredentialDetails, OtpCredentialType } from '../domain/wallet/wallet.events';
import { CredentialView } from '../queries/wallet-auth.views';
import { OTP_CHALLENGE_LIFETIME_MS, vaultIds } from '../wallet-auth.constants';
import { walletSignatureError, walletUnauthorized } from '../domain/wallet-auth.errors';
import { OtpCodes } from '../services/otp-codes';
import { SignedCall, SignedRequests } from '../services/signed-requests';
import { WalletAccounts } from '../services/wallet-accounts';
import { WalletAuthStore } from '../services/wallet-auth.store';
import { IssuedSession, WalletSessions } from '../services/wallet-sessions';
import { WalletClock } from '../services/wallet-clock';

interface OtpCredential {
  platformId: string;
  accountId: string;
  credential: CredentialDetails & { credentialType: OtpCredentialType };
  view: CredentialView;
}

/**
 * EMAIL_OTP / SMS_OTP login (SPEC.md "Authentication" 4), the steps of the IssueCredentialChallenge
 * and VerifyCredential commands for OTP credentials: a fresh target key per challenge
 * (sealed, single use), the HPKE-encrypted code checked on verify leg 1, which answers an ES256
 * verification token bound to the client's TEK, and the retry stamped by that TEK opens a
 * session whose key is the TEK.
 */
@Injectable()
export class OtpLogin {
  constructor(
    private readonly clock: WalletClock,
    private readonly store: WalletAuthStore,
    private readonly accounts: WalletAccounts,
    private readonly signed: SignedRequests,
    private readonly sessions: WalletSessions,
    private readonly codes: OtpCodes,
    @Inject(KEY_VAULT) private readonly vault: KeyVault,
  ) {}

  /** Issues a fresh target and (outside the sandbox) sends a fresh code; answers the credential with the bundle. */
  async challenge(input: OtpCredential): Promise<CredentialView & { otpEncryptionTargetBundle: string }> {
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + OTP_CHALLENGE_LIFETIME_MS);
    const challengeId = uuidv7(now.getTime());
    const target = createOtpTarget();
    // Sealed before the event: a crash in between leaves an orphan key that expires, never an
    // announced challenge without its key.
    await this.vault.seal(vaultIds.otpTarget(challengeId), 'wallet-otp-target', target.privateKeyScalar, expiresAt);
    const { credential } = input;
    await this.codes.issue({
      challengeId,
      sandbox: this.accounts.sandbox,
      channel: credential.credentialType === 'EMAIL_OTP' ? 'EMAIL' : 'SMS',
      contact: contactOf(credential),
      expiresAt,
    });
    await this.store.handleWallet(input.accountId, {
      type: 'IssueOtpChallenge',
      platformId: input.platformId,
      accountId: input.accountId,
      credentialId: credential.credentialId,
      challengeId,
      expiresAt: expiresAt.toISOString(),
      now: now.toISOString(),
    });
    const enclaveKey = await this.accounts.enclaveKey();
    const bundle = buildOtpEncryptionTargetBundle({ targetPublicKey: target.publicKey, enclaveKey, organizationId: input.accountId });
    return { ...input.view, otpEncryptionTargetBundle: bundle };
  }

  async verify(input: OtpCredential, body: { encryptedOtpBundle: string }, rawBody: unknown, call: SignedCall): Promise<HttpResult<unknown>> {
    return call.kind === 'first' ? this.checkCode(input, body, rawBody) : this.finish(input, rawBody, call);
  }

  /** Leg 1: decrypt and check the code, spend the challenge, answer the token to sign (202). */
  private async checkCode(input: OtpCredential, body: { encryptedOtpBundle: string }, rawBody: unknown): Promise<HttpResult<unknown>> {
    const now = this.clock.now();
    const { credential } = input;
    const wallet = await this.store.loadWallet(input.accountId);
    const challenge = wallet.otpChallenges[credential.credentialId];
    if (!challenge) throw walletUnauthorized('No OTP challenge is pending for this credential; call /challenge first', 'OTP_CHALLENGE');
    if (challenge.answered) throw walletUnauthorized('This OTP challenge was already answered; request a new one', 'OTP_CHALLENGE');
    const targetScalar = Date.parse(challenge.expiresAt) > now.getTime() ? await this.vault.open(vaultIds.otpTarget(challenge.challengeId)) : null;
    if (!targetScalar) throw walletUnauthorized('The OTP challenge has expired; request a new one', 'OTP_CHALLENGE');

    const opened = await openEncryptedOtpBundle(body.encryptedOtpBundle, privateKeyFromScalar(targetScalar));
    if (!opened.ok && opened.kind === 'DECRYPTION_FAILED') throw walletUnauthorized(opened.reason, 'OTP_BUNDLE');
    if (!opened.ok) throw new ValidationError([{ field: 'encryptedOtpBundle', constraint: {}, message: opened.reason }]);
    const expected = await this.codes.expected(challenge.challengeId, this.accounts.sandbox);
    if (expected === null || !isOtpCodeCorrect(opened.otpCode, expected)) throw walletUnauthorized(INVALID_OTP_CODE_REASON);

    // The challenge is spent first (once the code was right), so two racing first legs cannot
    // both obtain a request; then its target key and code are destroyed.
    const requestId = newId('Request', now.getTime());
    await this.store.handleWallet(input.accountId, {
      type: 'AnswerOtpChallenge',
      platformId: input.platformId,
      accountId: input.accountId,
      credentialId: credential.credentialId,
      challengeId: challenge.challengeId,
      requestId,
      now: now.toISOString(),
    });
    await this.vault.destroy(vaultIds.otpTarget(challenge.challengeId));
    await this.codes.discard(challenge.challengeId);
    const enclaveKey = await this.accounts.enclaveKey();
    const { challenge: answer } = await this.signed.issue({
      requestId,
      platformId: input.platformId,
      accountId: input.accountId,
      action: 'OTP_LOGIN',
      targetId: credential.credentialId,
      credentialType: credential.credentialType,
      body: rawBody,
      credentialSetVersion: wallet.credentialSetVersion,
      boundPublicKey: opened.publicKey.compressedHex,
      payloadToSign: (id, expiresAt) =>
        buildOtpVerificationToken(
          {
            id,
            verificationType: otpVerificationTypeFor(credential.credentialType),
            contact: contactOf(credential),
            organizationId: input.accountId,
            publicKey: opened.publicKeyAsSent,
            expiresAtMs: expiresAt.getTime(),
          },
          enclaveKey.privateKey,
        ),
      now,
    });
    return withStatus(202, answer);
  }

  /** Leg 2: the token stamped by the TEK it names opens a session whose key is that TEK (200). */
  private async finish(input: OtpCredential, rawBody: unknown, call: Extract<SignedCall, { kind: 'retry' }>): Promise<HttpResult<IssuedSession>> {
    const now = this.clock.now();
    const wallet = await this.store.loadWallet(input.accountId);
    const { request } = await this.signed.redeem({
      scope: { platformId: input.platformId, accountId: input.accountId, action: 'OTP_LOGIN', targetId: input.credential.credentialId },
      retry: call,
      body: rawBody,
      credentialSetVersion: wallet.credentialSetVersion,
      sandbox: this.accounts.sandbox,
      authorise: async (verified, pending) => {
        // The one failure DECISIONS.md leaves open: a valid stamp by a key other than the TEK the
        // token is bound to. That is a signature over the right text by the wrong party.
        if (verified.kind === 'stamp' && verified.publicKeyCompressedHex !== pending.boundPublicKey) {
          throw walletSignatureError('INVALID_SIGNATURE', 'The verification token must be signed with the key sent in the encrypted OTP bundle');
        }
        return null;
      },
      now,
    });
    const session = await this.sessions.open({
      platformId: input.platformId,
      accountId: input.accountId,
      credential: input.credential,
      clientPublicKey: request.boundPublicKey!,
      clientHoldsKey: true,
      requestId: request.requestId,
      now,
    });
    return withStatus(200, session);
  }
}

function contactOf(credential: CredentialDetails): string {
  return credential.credentialType === 'EMAIL_OTP' ? credential.email! : credential.phoneNumber!;
}
