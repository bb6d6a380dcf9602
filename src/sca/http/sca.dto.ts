import { IsDefined, IsIn, IsIP, IsObject, IsString, MaxLength, MinLength } from 'class-validator';
import { FieldError } from '../../infra/domain/domain-error';
import { hasErrorAt } from '../../infra/http/validation';
import { IdPrefix, parseId } from '../../infra/ids';
import { Optional } from '../../shared/validation/common-validators';
import { SCA_FACTORS, ScaFactor } from '../domain/sca-factor';

const MAX_ORIGIN_LENGTH = 2048;

/** `POST /sca/factors`: only passkeys are enrolled (SMS_OTP needs no enrollment). */
export class StartEnrollmentDto {
  @IsDefined() @IsString() customerId: string;
  @Optional() @IsString() @IsIn(['PASSKEY'], { message: 'type must be PASSKEY: SMS_OTP needs no enrollment and TOTP enrollment is not offered' })
  type?: 'PASSKEY';
  @Optional() @IsString() @MinLength(1) @MaxLength(64) nickname?: string;
}

/** `POST /sca/factors/confirm`: the attestation navigator.credentials.create() returned. */
export class ConfirmEnrollmentDto {
  @IsDefined() @IsString() factorId: string;
  @IsDefined() @IsObject() passkeyAttestation: Record<string, unknown>;
  @IsDefined() @IsString() @MaxLength(MAX_ORIGIN_LENGTH) origin: string;
}

export class LoginStartDto {
  @IsDefined() @IsString() customerId: string;
  @IsDefined() @IsString() @IsIn(SCA_FACTORS) factor: ScaFactor;
}

/** The proof fields shared by login completion and `ScaAuthorization`. */
class ProofFieldsDto {
  @Optional() @IsString() @MinLength(1) @MaxLength(16) code?: string;
  @Optional() @IsObject() passkeyAssertion?: Record<string, unknown>;
  @Optional() @IsString() @MaxLength(MAX_ORIGIN_LENGTH) origin?: string;
}

export class LoginCompleteDto extends ProofFieldsDto {
  @IsDefined() @IsString() customerId: string;
  @IsDefined() @IsString() @IsIn(SCA_FACTORS) factor: ScaFactor;
  @IsDefined() @IsString() @IsIP(undefined, { message: 'endUserIpAddress must be an IPv4 or IPv6 address' }) endUserIpAddress: string;
}

/** `ScaAuthorization` (DECISIONS.md section 3): `{code}` or `{passkeyAssertion, origin}`, optional `endUserIpAddress`. */
export class ScaAuthorizationDto extends ProofFieldsDto {
  @Optional() @IsString() @IsIP(undefined, { message: 'endUserIpAddress must be an IPv4 or IPv6 address' }) endUserIpAddress?: string;
}

/** Adds a FORMAT error when a well-typed id field is not a `<prefix>:<uuid>` id. */
export function checkIdField(errors: FieldError[], field: string, value: unknown, prefix: IdPrefix): void {
  if (!hasErrorAt(errors, field) && typeof value === 'string' && !parseId(prefix, value)) {
    errors.push({ field, constraint: 'FORMAT', message: `${field} must be a ${prefix}:<uuid> id` });
  }
}
