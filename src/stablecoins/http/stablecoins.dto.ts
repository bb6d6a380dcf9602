import { IsDefined, IsIn, IsObject, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { FieldError } from '../../infra/domain/domain-error';
import { checkBody, hasErrorAt } from '../../infra/http/validation';
import { IdPrefix, idConstraint, parseId } from '../../infra/ids';
import { Optional } from '../../shared/validation/common-validators';
import { STABLECOIN_PROVIDERS, StablecoinProvider } from '../domain/provider-account/provider-account.events';

/** `POST /stablecoin-provider-accounts`. The secret is write-only: sealed, never stored in events nor answered. */
export class LinkStablecoinProviderAccountDto {
  @IsDefined() @IsString() @IsIn(STABLECOIN_PROVIDERS) provider: StablecoinProvider;
  @IsDefined() @IsString() @MinLength(1) @MaxLength(255) apiClientId: string;
  @IsDefined() @IsString() @MinLength(1) @MaxLength(1024) apiClientSecret: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(128) providerAccountId?: string;
}

/** `POST /stablecoins`. */
export class RegisterStablecoinDto {
  @IsDefined() @IsString() @MinLength(1) @MaxLength(64) providerTokenIdentifier: string;
  @IsDefined() @IsString() @MinLength(1) @MaxLength(256) networkTokenIdentifier: string;
  @IsDefined() @IsString() @IsIn(['SPARK']) network: 'SPARK';
  @Optional() @IsString() stablecoinProviderAccountId?: string;
}

/** An amount in the coin's smallest unit, as digits (at most 16: the service's amounts stay under 9e15). */
const AMOUNT_DIGITS = /^[0-9]{1,16}$/;

/** `POST /stablecoins/{id}/mints`; `fundingSource` and `destination` are checked by `checkMintParts`. */
export class StablecoinMintDto {
  @IsDefined() @IsString() @Matches(AMOUNT_DIGITS, { message: 'amount must be 1 to 16 digits' }) amount: string;
  @IsDefined() @IsObject() fundingSource: Record<string, unknown>;
  @IsDefined() @IsObject() destination: Record<string, unknown>;
  @Optional() @IsString() @MaxLength(1024) description?: string;
}

/** `POST /stablecoins/{id}/burns`; `source` and `destination` are checked by `checkBurnParts`. */
export class StablecoinBurnDto {
  @IsDefined() @IsString() @Matches(AMOUNT_DIGITS, { message: 'amount must be 1 to 16 digits' }) amount: string;
  @IsDefined() @IsObject() source: Record<string, unknown>;
  @IsDefined() @IsObject() destination: Record<string, unknown>;
  @Optional() @IsString() @MaxLength(1024) description?: string;
}

const MINT_FUNDING_TYPES = ['WIRE', 'ACH_DEBIT', 'SAME_DAY_ACH_DEBIT', 'GRID_INTERNAL_ACCOUNT', 'PROVIDER_INTERNAL_BALANCE'] as const;
const BURN_SOURCE_TYPES = ['EXTERNAL_ACCOUNT', 'GRID_INTERNAL_ACCOUNT', 'PROVIDER_INTERNAL_BALANCE'] as const;
const PAYOUT_RAILS = ['WIRE', 'ACH_CREDIT', 'SAME_DAY_ACH_CREDIT', 'RTP_CREDIT'] as const;

class WireFundingDto {
  @IsDefined() @IsString() type: string;
}
class ExternalAccountFundingDto {
  @IsDefined() @IsString() type: string;
  @IsDefined() @IsString() externalAccountId: string;
}
class InternalAccountSourceDto {
  @IsDefined() @IsString() type: string;
  @IsDefined() @IsString() accountId: string;
}
class ProviderBalanceFundingDto {
  @IsDefined() @IsString() type: string;
  @IsDefined() @IsString() @MinLength(1) @MaxLength(64) sourceTokenIdentifier: string;
  @IsDefined() @IsString() @MinLength(1) @MaxLength(64) cryptoNetwork: string;
}
class MintDestinationDto {
  @IsDefined() @IsString() accountId: string;
}
class BurnDestinationDto {
  @IsDefined() @IsString() @IsIn(['EXTERNAL_ACCOUNT']) type: 'EXTERNAL_ACCOUNT';
  @IsDefined() @IsString() externalAccountId: string;
  @IsDefined() @IsString() @IsIn(PAYOUT_RAILS) rail: (typeof PAYOUT_RAILS)[number];
}

type Variant = new () => object;

const MINT_FUNDING_DTOS: Record<(typeof MINT_FUNDING_TYPES)[number], Variant> = {
  WIRE: WireFundingDto,
  ACH_DEBIT: ExternalAccountFundingDto,
  SAME_DAY_ACH_DEBIT: ExternalAccountFundingDto,
  GRID_INTERNAL_ACCOUNT: InternalAccountSourceDto,
  PROVIDER_INTERNAL_BALANCE: ProviderBalanceFundingDto,
};

const BURN_SOURCE_DTOS: Record<(typeof BURN_SOURCE_TYPES)[number], Variant> = {
  EXTERNAL_ACCOUNT: WireFundingDto,
  GRID_INTERNAL_ACCOUNT: InternalAccountSourceDto,
  PROVIDER_INTERNAL_BALANCE: WireFundingDto,
};

/** Checks a mint's `fundingSource` (by its `type`) and `destination`, adding every bad field to `errors`. */
export function checkMintParts(body: StablecoinMintDto, errors: FieldError[]): void {
  checkVariant(body.fundingSource, 'fundingSource', MINT_FUNDING_DTOS, errors);
  checkIdField(body.fundingSource, 'fundingSource', 'externalAccountId', ['ExternalAccount'], errors);
  checkIdField(body.fundingSource, 'fundingSource', 'accountId', ['InternalAccount'], errors);
  if (hasErrorAt(errors, 'destination')) return;
  errors.push(...checkBody(MintDestinationDto, body.destination, 'destination').errors);
  checkIdField(body.destination, 'destination', 'accountId', ['ExternalAccount', 'InternalAccount'], errors);
}

/** Checks a burn's `source` (by its `type`) and `destination`, adding every bad field to `errors`. */
export function checkBurnParts(body: StablecoinBurnDto, errors: FieldError[]): void {
  checkVariant(body.source, 'source', BURN_SOURCE_DTOS, errors);
  checkIdField(body.source, 'source', 'accountId', ['InternalAccount'], errors);
  if (hasErrorAt(errors, 'destination')) return;
  errors.push(...checkBody(BurnDestinationDto, body.destination, 'destination').errors);
  checkIdField(body.destination, 'destination', 'externalAccountId', ['ExternalAccount'], errors);
}

function checkVariant(value: Record<string, unknown>, field: string, variants: Record<string, Variant>, errors: FieldError[]): void {
  if (hasErrorAt(errors, field)) return;
  const types = Object.keys(variants);
  const variant = typeof value.type === 'string' ? variants[value.type] : undefined;
  if (!variant) {
    errors.push({ field: `${field}.type`, constraint: { enum: types }, message: `${field}.type must be one of ${types.join(', ')}` });
    return;
  }
  errors.push(...checkBody(variant, value, field).errors);
}

/** An id field of the right type(s), when present and not already refused. */
function checkIdField(value: Record<string, unknown>, parent: string, name: string, prefixes: [IdPrefix, ...IdPrefix[]], errors: FieldError[]): void {
  const field = `${parent}.${name}`;
  const id = typeof value === 'object' && value !== null ? value[name] : undefined;
  if (typeof id !== 'string' || hasErrorAt(errors, field) || prefixes.some((prefix) => parseId(prefix, id))) return;
  errors.push({ field, constraint: idConstraint(...prefixes), message: `${field} must be ${prefixes.map((prefix) => `a ${prefix}:<uuid>`).join(' or ')} id` });
}
