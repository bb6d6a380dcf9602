import { FieldError, ValidationError } from '../../infra/domain/domain-error';
import { checkBody, throwIfAny } from '../../infra/http/validation';
import { CredentialType } from '../domain/wallet/wallet.events';
import {
  CreateEmailOtpCredentialDto,
  CreateOauthCredentialDto,
  CreatePasskeyCredentialDto,
  CreateSmsOtpCredentialDto,
  CredentialTypeDto,
  OauthVerifyDto,
  OtpVerifyDto,
  PasskeyVerifyDto,
} from './wallet-auth.dto';

export type CreateCredentialBody =
  | ({ type: 'EMAIL_OTP' } & CreateEmailOtpCredentialDto)
  | ({ type: 'SMS_OTP' } & CreateSmsOtpCredentialDto)
  | ({ type: 'PASSKEY' } & CreatePasskeyCredentialDto)
  | ({ type: 'OAUTH' } & CreateOauthCredentialDto);

const CREATE_VARIANTS: Record<CredentialType, new () => object> = {
  EMAIL_OTP: CreateEmailOtpCredentialDto,
  SMS_OTP: CreateSmsOtpCredentialDto,
  PASSKEY: CreatePasskeyCredentialDto,
  OAUTH: CreateOauthCredentialDto,
};

/** POST /auth/credentials: picks the variant by `type`, then lists every bad field of it. */
export function parseCreateCredentialBody(body: unknown): CreateCredentialBody {
  const discriminator = checkBody(CredentialTypeDto, pickType(body));
  if (discriminator.errors.length > 0) throw new ValidationError(discriminator.errors);
  const { value, errors } = checkBody(CREATE_VARIANTS[discriminator.value.type], body);
  throwIfAny(errors);
  return value as CreateCredentialBody;
}

export type VerifyBody = OtpVerifyDto | PasskeyVerifyDto | OauthVerifyDto;

const VERIFY_VARIANTS: Record<CredentialType, new () => object> = {
  EMAIL_OTP: OtpVerifyDto,
  SMS_OTP: OtpVerifyDto,
  PASSKEY: PasskeyVerifyDto,
  OAUTH: OauthVerifyDto,
};

/** POST /auth/credentials/{id}/verify: the body's `type` must be the credential's own. */
export function parseVerifyBody(body: unknown, credentialType: CredentialType): VerifyBody {
  const discriminator = checkBody(CredentialTypeDto, pickType(body));
  const errors: FieldError[] = [...discriminator.errors];
  if (errors.length === 0 && discriminator.value.type !== credentialType) {
    errors.push({ field: 'type', constraint: { enum: [credentialType] }, message: `type must be ${credentialType}, the type of this credential` });
  }
  throwIfAny(errors);
  const checked = checkBody(VERIFY_VARIANTS[credentialType], body);
  throwIfAny(checked.errors);
  return checked.value as VerifyBody;
}

function pickType(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  return { type: (body as Record<string, unknown>).type };
}
