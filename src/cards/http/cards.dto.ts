import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsIn, IsInt, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateIf } from 'class-validator';
import { FieldError } from '../../infra/domain/domain-error';
import { hasErrorAt } from '../../infra/http/validation';
import { parseId } from '../../infra/ids';
import { MAX_AMOUNT_MINOR } from '../../shared/currencies';
import { Optional } from '../../shared/validation/common-validators';
import { CARD_FORMS, CardForm, REQUESTABLE_CARD_STATES, RequestableCardState } from '../domain/card/card.events';

/**
 * Static 3-D Secure passwords: issuers take 8 to 64 printable characters (a shorter one is too easy
 * to guess at the checkout prompt, and spaces get mangled by cardholder keyboards).
 */
const MIN_3DS_PASSWORD_LENGTH = 8;
const MAX_3DS_PASSWORD_LENGTH = 64;
const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;

/** At most this many funding sources per card (a customer has one account per currency). */
export const MAX_FUNDING_SOURCES = 10;

/** `POST /cards`. */
export class CreateCardDto {
  @IsDefined() @IsString() cardholderId: string;
  @IsDefined() @IsString() @IsIn(CARD_FORMS) form: CardForm;
  @IsDefined() @IsArray() @ArrayMinSize(1) @ArrayMaxSize(MAX_FUNDING_SOURCES) fundingSources: unknown[];
  @Optional() @IsString() @MinLength(1) @MaxLength(128) platformCardId?: string;
  @Optional() @IsInt() @Min(1) @Max(MAX_AMOUNT_MINOR) maxSpendPerTransaction?: number;
  /** The static 3-D Secure password; forwarded to the issuer, never stored nor echoed. */
  @Optional() @IsString() @MinLength(MIN_3DS_PASSWORD_LENGTH) @MaxLength(MAX_3DS_PASSWORD_LENGTH) @Matches(PRINTABLE_ASCII, { message: 'threeDSecurePassword must be printable ASCII without spaces' })
  threeDSecurePassword?: string;
}

/** `PATCH /cards/{id}`: at least one field; `maxSpendPerTransaction: null` removes the limit. */
export class UpdateCardDto {
  @Optional() @IsString() @IsIn(REQUESTABLE_CARD_STATES) state?: RequestableCardState;
  @Optional() @IsArray() @ArrayMinSize(1) @ArrayMaxSize(MAX_FUNDING_SOURCES) fundingSources?: unknown[];
  @ValidateIf((_object, value) => value !== undefined && value !== null) @IsInt() @Min(1) @Max(MAX_AMOUNT_MINOR) maxSpendPerTransaction?: number | null;
}

/**
 * Each funding source is an `InternalAccount:<uuid>` listed once. Adds one error per bad entry
 * (`fundingSources.<index>`) unless the array itself is already wrong.
 */
export function checkFundingSourceIds(value: unknown[] | undefined, errors: FieldError[]): void {
  if (!Array.isArray(value) || hasErrorAt(errors, 'fundingSources')) return;
  const seen = new Set<string>();
  value.forEach((entry, index) => {
    const field = `fundingSources.${index}`;
    if (typeof entry !== 'string') {
      errors.push({ field, constraint: {}, message: `${field} must be an internal account id` });
    } else if (!parseId('InternalAccount', entry)) {
      errors.push({ field, constraint: { format: 'InternalAccount-id' }, message: `${field} must be an InternalAccount:<uuid> id` });
    } else if (seen.has(entry)) {
      errors.push({ field, constraint: {}, message: `${entry} is listed twice` });
    } else {
      seen.add(entry);
    }
  });
}
