import { IsDefined, IsIn, IsIP, IsObject, IsString, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { DomainError, FieldError } from '../../infra/domain/domain-error';
import { hasErrorAt } from '../../infra/http/validation';
import { IdPrefix, parseId } from '../../infra/ids';
import { Optional } from '../../shared/validation/common-validators';
import { SCA_FACTORS, ScaFactor } from '../domain/sca-factor';

const MAX_ORIGIN_LENGTH = 2048;

/** The contract declares these fields `type: [..., null]`: null is "not given". */
function NullableOptional(): PropertyDecorator {
  return ValidateIf((_object, value) => value !== undefined && value !== null);
}

/**
 * Every `/sca` operation names the customer in the `customerId` query parameter (the contract);
 * a `customerId` body field is still accepted from earlier clients. Exactly one is needed.
 */

/** The factors `POST /sca/factors` enrolls (SMS_OTP needs no enrollment). */
export const ENROLLED_FACTORS = ['TOTP', 'PASSKEY'] as const;
export type EnrolledFactorType = (typeof ENROLLED_FACTORS)[number];

/** `POST /sca/factors`: a TOTP factor or a passkey (the default when `type` is not given). */
export class StartEnrollmentDto {
  @Optional() @IsString() customerId?: string;
  @Optional() @IsString() @IsIn(ENROLLED_FACTORS, { message: 'type must be TOTP or PASSKEY: SMS_OTP needs no enrollment' })
  type?: EnrolledFactorType;
  @Optional() @IsString() @MinLength(1) @MaxLength(64) nickname?: string;
}

/**
 * `POST /sca/factors/confirm`. TOTP: the `secret` the start answered and the first `code`, the
 * customer in the query. PASSKEY (the default): the attestation navigator.credentials.create()
 * returned, as the contract's `credential` (or our earlier `passkeyAttestation`), and its
 * `origin`, with the enrollment named by the customer (the contract) or by `factorId`. Which
 * fields each type needs is checked by the controller, listing every missing or foreign one.
 */
export class ConfirmEnrollmentDto {
  @Optional() @IsString() @IsIn(ENROLLED_FACTORS, { message: 'type must be TOTP or PASSKEY' }) type?: EnrolledFactorType;
  @Optional() @IsString() customerId?: string;
  @Optional() @IsString() factorId?: string;
  @Optional() @IsObject() credential?: Record<string, unknown>;
  @Optional() @IsObject() passkeyAttestation?: Record<string, unknown>;
  @Optional() @IsString() @MaxLength(MAX_ORIGIN_LENGTH) origin?: string;
  /** base32; authenticator apps show it grouped, so spaces and lowercase are accepted. */
  @Optional() @IsString() @MinLength(1) @MaxLength(128) secret?: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(16) code?: string;
}

export class LoginStartDto {
  @Optional() @IsString() customerId?: string;
  @IsDefined() @IsString() @IsIn(SCA_FACTORS) factor: ScaFactor;
}

/** The proof fields shared by login completion and `ScaAuthorization`. */
class ProofFieldsDto {
  @NullableOptional() @IsString() @MinLength(1) @MaxLength(16) code?: string | null;
  @NullableOptional() @IsObject() passkeyAssertion?: Record<string, unknown> | null;
  @NullableOptional() @IsString() @MaxLength(MAX_ORIGIN_LENGTH) origin?: string | null;
}

export class LoginCompleteDto extends ProofFieldsDto {
  @Optional() @IsString() customerId?: string;
  @IsDefined() @IsString() @IsIn(SCA_FACTORS) factor: ScaFactor;
  @IsDefined() @IsString() @IsIP(undefined, { message: 'endUserIpAddress must be an IPv4 or IPv6 address' }) endUserIpAddress: string;
  /** The SMS challenge being answered; when given it must be the pending login challenge. */
  @NullableOptional() @IsString() @MaxLength(100) challengeId?: string | null;
}

/** `ScaAuthorization` (DECISIONS.md section 3): `{code}` or `{passkeyAssertion, origin}`, optional `endUserIpAddress`. */
export class ScaAuthorizationDto extends ProofFieldsDto {
  @NullableOptional() @IsString() @IsIP(undefined, { message: 'endUserIpAddress must be an IPv4 or IPv6 address' }) endUserIpAddress?: string | null;
}

/**
 * The customer of an `/sca` call: the `customerId` query parameter or the body field (not two
 * different ones), a `Customer:<uuid>` id. Adds field errors; answers the id when there is one.
 */
export function customerIdOf(errors: FieldError[], queryValue: unknown, bodyValue: string | undefined): string | null {
  if (queryValue !== undefined && typeof queryValue !== 'string') {
    errors.push({ field: 'customerId', constraint: {}, message: 'customerId must be given once, as text' });
    return null;
  }
  if (queryValue !== undefined && bodyValue !== undefined && queryValue !== bodyValue) {
    errors.push({ field: 'customerId', constraint: {}, message: 'The customerId query parameter and body field name different customers' });
    return null;
  }
  const customerId = (queryValue as string | undefined) ?? bodyValue;
  if (customerId === undefined) {
    if (!hasErrorAt(errors, 'customerId')) errors.push({ field: 'customerId', constraint: {}, message: 'customerId is required (query parameter)' });
    return null;
  }
  checkIdField(errors, 'customerId', customerId, 'Customer');
  return hasErrorAt(errors, 'customerId') ? null : customerId;
}

/** Adds a format error when a well-typed id field is not a `<prefix>:<uuid>` id. */
export function checkIdField(errors: FieldError[], field: string, value: unknown, prefix: IdPrefix): void {
  if (!hasErrorAt(errors, field) && typeof value === 'string' && !parseId(prefix, value)) {
    errors.push({ field, constraint: { format: `${prefix}-id` }, message: `${field} must be a ${prefix}:<uuid> id` });
  }
}

/** For operations that declare no 400: a missing or malformed `customerId` names no customer. */
export function namedCustomer(customerId: unknown): string {
  if (typeof customerId !== 'string' || !parseId('Customer', customerId)) {
    throw new DomainError('USER_NOT_FOUND', 'Customer not found', { reason: customerId === undefined ? 'CUSTOMER_ID_MISSING' : 'CUSTOMER_ID_MALFORMED' });
  }
  return customerId;
}
