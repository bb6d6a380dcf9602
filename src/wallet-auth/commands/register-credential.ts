import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { sha256Hex } from '../../infra/crypto/encoding';
import { verifyPasskeyRegistration } from '../../infra/crypto/webauthn';
import { DomainError, ValidationError } from '../../infra/domain/domain-error';
import { HttpResult, withStatus } from '../../infra/http/http-result';
import { newId } from '../../infra/ids';
import { WALLET_ACTIVITY_TYPES } from '../../shared/wallet-payloads';
import { checkOidcTokenForRegistration } from '../crypto/oidc-token';
import { assertRegistrable, credentialCount } from '../domain/wallet/wallet.decider';
import { CredentialDetails } from '../domain/wallet/wallet.events';
import { WalletAuthQuery } from '../queries/wallet-auth.query';
import { CredentialView, credentialView } from '../queries/wallet-auth.views';
import { emailUsedByAnotherWallet, missingContact, walletUnauthorized } from '../domain/wallet-auth.errors';
import { InitialCredentials } from '../services/initial-credentials';
import { SignedCallHeaders, SignedRequests, bodyHash, readSignedCall } from '../services/signed-requests';
import { WalletAccounts } from '../services/wallet-accounts';
import { WalletAuthStore } from '../services/wallet-auth.store';
import { WalletSessions } from '../services/wallet-sessions';
import { WalletClock } from '../services/wallet-clock';
import type { CreateCredentialBody } from '../http/credential-body';

/** `POST /auth/credentials`: 201 with the credential, or 202 with a payload to sign. */
export class RegisterCredential extends Command<HttpResult<unknown>> {
  constructor(
    readonly platformId: string,
    /** The body as parsed (its variant by `type`). */
    readonly body: CreateCredentialBody,
    /** The body as received: the signed retry must repeat it exactly. */
    readonly rawBody: unknown,
    readonly headers: SignedCallHeaders,
  ) {
    super();
  }
}

/**
 * A wallet without credentials registers its first one directly (201); a wallet that has one
 * answers 202 with a payload to sign, and the signed retry (a live session of the wallet)
 * registers it (201). Every check runs on both calls, and the decider repeats the
 * uniqueness rules against the credential set of the moment.
 */
@CommandHandler(RegisterCredential)
export class RegisterCredentialHandler implements ICommandHandler<RegisterCredential, HttpResult<unknown>> {
  constructor(
    private readonly clock: WalletClock,
    private readonly store: WalletAuthStore,
    private readonly query: WalletAuthQuery,
    private readonly accounts: WalletAccounts,
    private readonly signed: SignedRequests,
    private readonly sessions: WalletSessions,
    private readonly initialCredentials: InitialCredentials,
  ) {}

  async execute({ platformId, body, rawBody, headers }: RegisterCredential): Promise<HttpResult<unknown>> {
    const call = readSignedCall(headers);
    const accountId = body.accountId;
    const account = await this.accounts.requireWallet(platformId, accountId);
    const now = this.clock.now();
    const credential = await this.describe(platformId, body, now, account.customerId);
    const wallet = await this.store.loadWallet(accountId);
    assertRegistrable(wallet, credential);
    await this.assertUniqueOnPlatform(platformId, accountId, credential);

    if (call.kind === 'first' && credentialCount(wallet) === 0) {
      return withStatus(201, await this.record(platformId, accountId, credential, wallet.credentialSetVersion, null, now));
    }
    if (call.kind === 'first') {
      const { challenge } = await this.signed.issue({
        platformId,
        accountId,
        action: 'ADD_CREDENTIAL',
        targetId: accountId,
        credentialType: body.type,
        body: rawBody,
        credentialSetVersion: wallet.credentialSetVersion,
        activity: {
          type: WALLET_ACTIVITY_TYPES.ADD_CREDENTIAL,
          parameters: { credentialType: body.type, nickname: credential.nickname, bodySha256: bodyHash(rawBody) },
        },
        now,
      });
      return withStatus(202, challenge);
    }
    const { request } = await this.signed.redeem({
      scope: { platformId, accountId, action: 'ADD_CREDENTIAL', targetId: accountId },
      retry: call,
      body: rawBody,
      credentialSetVersion: wallet.credentialSetVersion,
      sandbox: this.accounts.sandbox,
      authorise: async (verified) => (await this.sessions.authorise(platformId, accountId, verified, {}, now)).sessionId,
      now,
    });
    return withStatus(201, await this.record(platformId, accountId, credential, request.credentialSetVersion, request.requestId, now));
  }

  private async record(
    platformId: string,
    accountId: string,
    credential: CredentialDetails,
    expectedCredentialSetVersion: number,
    requestId: string | null,
    now: Date,
  ): Promise<CredentialView> {
    await this.store.handleWallet(accountId, {
      type: 'RegisterCredential',
      platformId,
      accountId,
      credential,
      expectedCredentialSetVersion,
      requestId,
      now: now.toISOString(),
    });
    return credentialView({
      credentialId: credential.credentialId,
      accountId,
      credentialType: credential.credentialType,
      webAuthnCredentialId: credential.passkey?.webAuthnCredentialId ?? null,
      nickname: credential.nickname,
      registeredAt: now.toISOString(),
    });
  }

  /**
   * Uniqueness across the platform's wallets, from the read model (the wallet's own rules, which
   * the decider enforces exactly, are checked first): an email is one wallet's EMAIL_OTP, a
   * passkey logs in to one wallet.
   */
  private async assertUniqueOnPlatform(platformId: string, accountId: string, credential: CredentialDetails): Promise<void> {
    if (credential.email !== null && (await this.query.isEmailUsedElsewhere(platformId, credential.email, accountId))) {
      throw emailUsedByAnotherWallet();
    }
    if (credential.passkey !== null && (await this.query.isPasskeyRegistered(platformId, credential.passkey.webAuthnCredentialId))) {
      throw new DomainError('PASSKEY_CREDENTIAL_ALREADY_EXISTS', 'A passkey with this WebAuthn credential id is already registered');
    }
  }

  private async contactOf(customerId: string | null): Promise<{ email: string | null; phoneNumber: string | null }> {
    return customerId === null ? { email: null, phoneNumber: null } : this.initialCredentials.customerContact(customerId);
  }

  /** The credential to register, once its own proof (attestation, OIDC claims) checks out. */
  private async describe(platformId: string, body: CreateCredentialBody, now: Date, customerId: string | null): Promise<CredentialDetails> {
    const base = { credentialId: newId('AuthMethod', now.getTime()), email: null, phoneNumber: null, passkey: null, oauth: null };
    switch (body.type) {
      case 'EMAIL_OTP': {
        // The contract's EMAIL_OTP credential is `{type, accountId}`: the code goes to the customer's email.
        const email = body.email?.trim() ?? (await this.contactOf(customerId)).email;
        if (!email) throw missingContact('email');
        return { ...base, credentialType: 'EMAIL_OTP', nickname: body.nickname ?? email, email };
      }
      case 'SMS_OTP': {
        const phoneNumber = body.phoneNumber ?? (await this.contactOf(customerId)).phoneNumber;
        if (!phoneNumber) throw missingContact('phoneNumber');
        return { ...base, credentialType: 'SMS_OTP', nickname: body.nickname ?? phoneNumber, phoneNumber };
      }
      case 'PASSKEY': {
        const config = await this.accounts.webAuthnConfig(platformId);
        const result = await verifyPasskeyRegistration({
          attestation: body.attestation,
          expectedChallenge: body.challenge,
          allowedOrigins: config.allowedOrigins,
          rpId: config.rpId,
        });
        if (!result.ok && result.reason === 'MALFORMED') {
          const field = /^challenge/.test(result.message) ? 'challenge' : 'attestation';
          throw new ValidationError([{ field, constraint: {}, message: result.message }]);
        }
        if (!result.ok) throw walletUnauthorized(result.message, result.reason);
        return {
          ...base,
          credentialType: 'PASSKEY',
          nickname: body.nickname.trim(),
          passkey: {
            webAuthnCredentialId: result.credential.credentialId,
            publicKey: result.credential.publicKey,
            counter: result.credential.counter,
            transports: result.credential.transports,
            registrationChallengeHash: sha256Hex(body.challenge),
          },
        };
      }
      case 'OAUTH': {
        const checked = checkOidcTokenForRegistration(body.oidcToken, now.getTime());
        if (!checked.ok && checked.kind === 'MALFORMED') throw new ValidationError([{ field: 'oidcToken', constraint: { format: 'jwt' }, message: checked.reason }]);
        if (!checked.ok) throw walletUnauthorized(checked.reason, checked.kind === 'REJECTED' ? checked.check : undefined);
        const email = typeof checked.claims.email === 'string' && checked.claims.email !== '' ? checked.claims.email : null;
        return { ...base, credentialType: 'OAUTH', nickname: body.nickname ?? email ?? checked.identity.sub, oauth: checked.identity };
      }
    }
  }
}
