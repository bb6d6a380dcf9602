import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '../../infra/domain/domain-error';
import { HttpResult, withStatus } from '../../infra/http/http-result';
import { checkBody, throwIfAny } from '../../infra/http/validation';
import { CredentialDetails, OtpCredentialType, isOtpCredentialType } from '../domain/wallet/wallet.events';
import { ChallengeDto } from '../http/wallet-auth.dto';
import { KeyLogin } from './key-login';
import { LoginCredentials } from './login-credentials';
import { OtpLogin } from './otp-login';

/** `POST /auth/credentials/{id}/challenge`: the first step of an OTP or passkey login (200). */
export class IssueCredentialChallenge extends Command<HttpResult<unknown>> {
  constructor(
    readonly platformId: string,
    readonly credentialId: string,
    /** Validated after the credential is found and its rate budget spent, as before. */
    readonly rawBody: unknown,
  ) {
    super();
  }
}

/** Hands over to the flow of the credential's type; OAUTH has no challenge step. */
@CommandHandler(IssueCredentialChallenge)
export class IssueCredentialChallengeHandler implements ICommandHandler<IssueCredentialChallenge, HttpResult<unknown>> {
  constructor(
    private readonly credentials: LoginCredentials,
    private readonly otp: OtpLogin,
    private readonly keys: KeyLogin,
  ) {}

  async execute({ platformId, credentialId, rawBody }: IssueCredentialChallenge): Promise<HttpResult<unknown>> {
    const located = await this.credentials.locate(platformId, credentialId, 'challenge');
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
}
