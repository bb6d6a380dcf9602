import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { HttpResult } from '../../infra/http/http-result';
import { CredentialDetails, OtpCredentialType, isOtpCredentialType } from '../domain/wallet/wallet.events';
import { parseVerifyBody } from '../http/credential-body';
import { OauthVerifyDto, OtpVerifyDto, PasskeyVerifyDto } from '../http/wallet-auth.dto';
import { SignedCallHeaders, readSignedCall } from '../services/signed-requests';
import { KeyLogin } from './key-login';
import { LoginCredentials } from './login-credentials';
import { OtpLogin } from './otp-login';

/** `POST /auth/credentials/{id}/verify`: the login's proof; answers a session (or the OTP token to sign, 202). */
export class VerifyCredential extends Command<HttpResult<unknown>> {
  constructor(
    readonly platformId: string,
    readonly credentialId: string,
    /** Parsed by the credential's type once it is found, as before. */
    readonly rawBody: unknown,
    readonly headers: SignedCallHeaders,
  ) {
    super();
  }
}

/** Hands over to the flow of the credential's type (OTP: two legs; PASSKEY and OAUTH: one call). */
@CommandHandler(VerifyCredential)
export class VerifyCredentialHandler implements ICommandHandler<VerifyCredential, HttpResult<unknown>> {
  constructor(
    private readonly credentials: LoginCredentials,
    private readonly otp: OtpLogin,
    private readonly keys: KeyLogin,
  ) {}

  async execute({ platformId, credentialId, rawBody, headers }: VerifyCredential): Promise<HttpResult<unknown>> {
    const located = await this.credentials.locate(platformId, credentialId, 'verify');
    const { credential } = located;
    const body = parseVerifyBody(rawBody, credential.credentialType);
    if (isOtpCredentialType(credential.credentialType)) {
      const otpCredential = { ...located, credential: credential as CredentialDetails & { credentialType: OtpCredentialType } };
      return this.otp.verify(otpCredential, body as OtpVerifyDto, rawBody, readSignedCall(headers));
    }
    if (credential.credentialType === 'PASSKEY') return this.keys.passkeyVerify(located, (body as PasskeyVerifyDto).assertion, headers);
    return this.keys.oauthVerify(located, body as OauthVerifyDto);
  }
}
