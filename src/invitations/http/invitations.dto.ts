import { IsDefined, IsISO8601, IsInt, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { FieldError, ValidationError } from '../../infra/domain/domain-error';
import { hasErrorAt } from '../../infra/http/validation';
import { parseUmaAddress } from '../../sandbox';
import { MAX_AMOUNT_MINOR } from '../../shared/currencies';
import { Optional } from '../../shared/validation/common-validators';

const UMA_FORMAT = { format: 'uma-address' };

/** `POST /invitations` (the reference's UmaInvitationCreateRequest). */
export class CreateInvitationDto {
  @IsDefined() @IsString() @MaxLength(320) inviterUma: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(255) firstName?: string;
  @Optional() @IsInt() @Min(1) @Max(MAX_AMOUNT_MINOR) amountToSend?: number;
  @Optional() @IsString() @IsISO8601({ strict: true, strictSeparator: true }) expiresAt?: string;
}

/** `POST /invitations/{code}/claim` (the reference's UmaInvitationClaimRequest). */
export class ClaimInvitationDto {
  @IsDefined() @IsString() @MaxLength(320) inviteeUma: string;
}

/** Adds an error when the field is a string but not a `$user@domain` address; answers its canonical form. */
export function checkUmaAddress(field: string, value: string | undefined, errors: FieldError[]): string {
  if (typeof value !== 'string' || hasErrorAt(errors, field)) return '';
  const parsed = parseUmaAddress(value);
  if (!parsed) errors.push({ field, constraint: UMA_FORMAT, message: `${field} must look like $user@domain.com` });
  return parsed?.address ?? '';
}

/** An expiry must lie ahead: an invitation born expired could never be claimed. */
export function checkExpiresAt(value: string | undefined, errors: FieldError[], now: number): void {
  if (typeof value !== 'string' || hasErrorAt(errors, 'expiresAt')) return;
  if (Date.parse(value) <= now) errors.push({ field: 'expiresAt', constraint: { format: 'date-time' }, message: 'expiresAt must be in the future' });
}

/**
 * One 400 listing every bad field: INVALID_UMA_ADDRESS when only UMA addresses are malformed (as
 * quotes and receiver lookups answer), INVALID_INPUT otherwise.
 */
export function throwIfBadInvitationBody(errors: FieldError[]): void {
  if (errors.length === 0) return;
  if (errors.every((error) => error.constraint.format === UMA_FORMAT.format)) {
    throw new ValidationError(errors, 'INVALID_UMA_ADDRESS', 'UMA addresses must look like $user@domain.com');
  }
  throw new ValidationError(errors);
}
