import { Injectable } from '@nestjs/common';
import { DomainError } from '../../infra/domain/domain-error';
import { HttpResult, withStatus } from '../../infra/http/http-result';
import { checkBody, throwIfAny } from '../../infra/http/validation';
import { CredentialDetails, OtpCredentialType, isOtpCredentialType } from '../domain/wallet/wallet.events';
import { parseVerifyBody } from '../http/credential-body';
import { ChallengeDto, OauthVerifyDto, OtpVerifyDto, PasskeyVerifyDto } from '../http/wallet-auth.dto';
import { WalletAuthQuery } from '../queries/wallet-auth.query';
import { CredentialView } from '../queries/wallet-auth.views';
import { credentialNotFound } from '../domain/wallet-auth.errors';
import { KeyLogin } from './key-login';
import { OtpLogin } from './otp-login';
import { RateLimitedOperation, WalletRateLimiter } from './rate-limiter';
import { SignedCallHeaders, readSignedCall } from './signed-requests';
import { WalletAuthStore } from './wallet-auth.store';

interface LocatedCredential {
  platformId: string;
  accountId: string;
  credential: CredentialDetails;
  view: CredentialView;
}

/**
 * `POST /auth/credentials/{id}/challenge` and `/verify`: finds the credential (404 for unknown
 * ids and other platforms'), spends one unit of its rate budget, and hands over to the flow of
 * its type.
 */
@Injectable()
export class WalletLogins {
  constructor(
    private readonly store: WalletAuthStore,
    private readonly query: WalletAuthQuery,
    private readonly limiter: WalletRateLimiter,
    private readonly otp: OtpLogin,
    private readonly keys: KeyLogin,
  ) {}

  async challenge(platformId: string, credentialId: string, rawBody: unknown): Promise<HttpResult<unknown>> {
    const located = await this.locate(platformId, credentialId, 'challenge');
    const { value: body, errors } = checkBody(ChallengeDto, rawBody ?? {});
    throwIfAny(errors);
    const { credential } = located;
    if (isOtpCredentialType(credential.credentialType)) {
      return withStatus(200, await this.otp.challenge({ ...located, credential: credential as CredentialDetails & { credentialType: OtpCredentialType } }));
    }
    if (credential.credentialType === 'PASSKEY') return withStatus(200, await this.keys.passkeyChallenge(located, body.clientPublicKey, rawBody ?? {}));
    throw new DomainError('INVALID_INPUT', 'OAUTH credentials have no challenge step: call /verify with a fresh oidcToken and a clientPublicKey', {
      reason: 'NO_CHALLENGE_FOR_OAUTH',
    });
  }

  async verify(platformId: string, credentialId: string, rawBody: unknown, headers: SignedCallHeaders): Promise<HttpResult<unknown>> {
    const located = await this.locate(platformId, credentialId, 'verify');
    const { credential } = located;
    const body = parseVerifyBody(rawBody, credential.credentialType);
    if (isOtpCredentialType(credential.credentialType)) {
      const otpCredential = { ...located, credential: credential as CredentialDetails & { credentialType: OtpCredentialType } };
      return this.otp.verify(otpCredential, body as OtpVerifyDto, rawBody, readSignedCall(headers));
    }
    if (credential.credentialType === 'PASSKEY') return this.keys.passkeyVerify(located, (body as PasskeyVerifyDto).assertion, headers);
    return this.keys.oauthVerify(located, body as OauthVerifyDto);
  }

  private async locate(platformId: string, credentialId: string, operation: RateLimitedOperation): Promise<LocatedCredential> {
    const location = await this.query.findCredential(platformId, credentialId);
    if (!location) throw credentialNotFound();
    await this.limiter.consume(platformId, credentialId, operation);
    const wallet = await this.store.loadWallet(location.accountId);
    const credential = wallet.credentials[credentialId];
    if (!credential) throw credentialNotFound();
    return { platformId, accountId: location.accountId, credential, view: location.view };
  }
}
