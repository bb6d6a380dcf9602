import { IsBoolean, IsDefined, IsEmail, IsIn, IsObject, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { E164_PHONE, Optional } from '../../shared/validation/common-validators';
import { CREDENTIAL_TYPES, CredentialType } from '../domain/wallet/wallet.events';

/**
 * Request bodies of the embedded-wallet endpoints. Credential bodies are a union discriminated by
 * `type`: the variant's DTO lists exactly its fields, so anything else is UNKNOWN_FIELD.
 */

/** Passkey nicknames: 1-100 characters of letters, digits, spaces and . _ - ' ( ). */
export const PASSKEY_NICKNAME = /^[\p{L}\p{N} ._'()-]{1,100}$/u;

/** Only `type` is read first, to pick the variant. */
export class CredentialTypeDto {
  @IsDefined() @IsString() @IsIn(CREDENTIAL_TYPES) type: CredentialType;
}

class CreateCredentialBaseDto {
  @IsDefined() @IsString() @IsIn(CREDENTIAL_TYPES) type: CredentialType;
  @IsDefined() @IsString() @MaxLength(100) accountId: string;
}

/**
 * The contract's OTP credentials are `{type, accountId}`: the contact is the customer's. `email`
 * and `phoneNumber` remain accepted to name another contact.
 */
export class CreateEmailOtpCredentialDto extends CreateCredentialBaseDto {
  @Optional() @IsString() @MaxLength(254) @IsEmail() email?: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(100) nickname?: string;
}

export class CreateSmsOtpCredentialDto extends CreateCredentialBaseDto {
  @Optional() @IsString() @Matches(E164_PHONE, { message: 'phoneNumber must be in E.164 form, e.g. +14155550100' }) phoneNumber?: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(100) nickname?: string;
}

export class CreatePasskeyCredentialDto extends CreateCredentialBaseDto {
  @IsDefined()
  @IsString()
  @Matches(PASSKEY_NICKNAME, { message: "nickname must be 1-100 letters, digits, spaces or . _ - ' ( )" })
  nickname: string;
  @IsDefined() @IsString() @MaxLength(1024) challenge: string;
  @IsDefined() @IsObject() attestation: Record<string, unknown>;
}

export class CreateOauthCredentialDto extends CreateCredentialBaseDto {
  @IsDefined() @IsString() @MaxLength(16384) oidcToken: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(100) nickname?: string;
}

export class ChallengeDto {
  @Optional() @IsString() @MaxLength(140) clientPublicKey?: string;
}

export class OtpVerifyDto {
  @IsDefined() @IsString() @IsIn(['EMAIL_OTP', 'SMS_OTP']) type: 'EMAIL_OTP' | 'SMS_OTP';
  @IsDefined() @IsString() @MaxLength(4096) encryptedOtpBundle: string;
}

export class PasskeyVerifyDto {
  @IsDefined() @IsString() @IsIn(['PASSKEY']) type: 'PASSKEY';
  @IsDefined() @IsObject() assertion: Record<string, unknown>;
}

export class OauthVerifyDto {
  @IsDefined() @IsString() @IsIn(['OAUTH']) type: 'OAUTH';
  @IsDefined() @IsString() @MaxLength(16384) oidcToken: string;
  @IsDefined() @IsString() @MaxLength(140) clientPublicKey: string;
}

export class ClientPublicKeyDto {
  @IsDefined() @IsString() @MaxLength(140) clientPublicKey: string;
}

export class UpdateWalletPrivacyDto {
  @IsDefined() @IsBoolean() privateEnabled: boolean;
}

/** `POST /auth/delegated-keys`: the card, the embedded wallet funding it, and a label. */
export class CreateDelegatedKeyDto {
  @IsDefined() @IsString() @MaxLength(100) cardId: string;
  @IsDefined() @IsString() @MaxLength(100) internalAccountId: string;
  @IsDefined() @IsString() @MinLength(1) @MaxLength(256) nickname: string;
}
