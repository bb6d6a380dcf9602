import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsDefined,
  IsEmail,
  IsFQDN,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { CURRENCY_CODES, MAX_AMOUNT_MINOR } from '../../shared/currencies';
import { Optional } from '../../shared/validation/common-validators';
import { CUSTOMER_INFO_FIELD_NAMES, FEE_TYPES, FeeType, TRANSACTION_TYPES, TransactionType } from '../domain/platform/platform.events';

export class CounterpartyFieldDefinitionDto {
  @IsDefined() @IsString() @IsIn(CUSTOMER_INFO_FIELD_NAMES) name: string;
  @IsDefined() @IsBoolean() mandatory: boolean;
}

/**
 * A `supportedCurrencies[]` entry (the contract's PlatformCurrencyConfig). The contract requires
 * the amounts, fields and types; we default them (DECISIONS: a bare `{currencyCode}` keeps working).
 * The read-only `providerRequired*` lists are accepted so a GET answer can be sent back, and ignored.
 */
export class SupportedCurrencyDto {
  @IsDefined() @IsString() @IsIn(CURRENCY_CODES) currencyCode: string;
  @Optional() @IsInt() @Min(0) @Max(MAX_AMOUNT_MINOR) minAmount?: number;
  @Optional() @IsInt() @Min(0) @Max(MAX_AMOUNT_MINOR) maxAmount?: number;
  @Optional() @IsArray() @ArrayMaxSize(50) @ArrayUnique((field: { name?: unknown } | null) => field?.name)
  @ValidateNested({ each: true }) @Type(() => CounterpartyFieldDefinitionDto)
  requiredCounterpartyFields?: CounterpartyFieldDefinitionDto[];
  @Optional() @IsArray() @ArrayUnique() @IsIn(TRANSACTION_TYPES, { each: true }) enabledTransactionTypes?: TransactionType[];
  @Optional() @IsArray() @ArrayMaxSize(50) @IsIn(CUSTOMER_INFO_FIELD_NAMES, { each: true }) providerRequiredCustomerFields?: string[];
  @Optional() @IsArray() @ArrayMaxSize(50) @IsIn(CUSTOMER_INFO_FIELD_NAMES, { each: true }) providerRequiredCounterpartyCustomerFields?: string[];
}

export class FixedFeeDto {
  @IsDefined() @IsInt() @Min(0) @Max(MAX_AMOUNT_MINOR) amount: number;
  @IsDefined() @IsString() @IsIn(CURRENCY_CODES) currency: string;
}

/** A `feeConfigs[]` entry (the contract's FeeConfig). */
export class FeeConfigDto {
  @IsDefined() @IsString() @IsIn(FEE_TYPES) feeType: FeeType;
  @IsDefined() @IsString() @IsIn(CURRENCY_CODES) sourceCurrency: string;
  @IsDefined() @IsInt() @Min(0) @Max(10_000) variableFeeBps: number;
  @IsDefined() @IsObject() @ValidateNested() @Type(() => FixedFeeDto) fixedFee: FixedFeeDto;
}

/**
 * `embeddedWalletConfig`: the contract's EmbeddedWalletConfig (branding and OTP settings) plus our
 * passkey relying party (`rpId`, `allowedOrigins`). Every field optional: given ones are merged.
 */
export class EmbeddedWalletConfigDto {
  @Optional() @IsString() @MinLength(1) @MaxLength(253) rpId?: string;
  @Optional() @IsArray() @ArrayMaxSize(20) @IsString({ each: true }) allowedOrigins?: string[];
  @Optional() @IsString() @MaxLength(255) appName?: string;
  @Optional() @IsInt() @Min(4) @Max(12) otpLength?: number;
  @Optional() @IsBoolean() alphanumeric?: boolean;
  @Optional() @IsInt() @Min(1) @Max(86_400) expirationSeconds?: number;
  @Optional() @IsString() @MaxLength(255) @IsEmail() sendFromEmailAddress?: string;
  @Optional() @IsString() @MaxLength(255) sendFromEmailSenderName?: string;
  @Optional() @IsString() @MaxLength(255) @IsEmail() replyToEmailAddress?: string;
  @Optional() @IsString() @MaxLength(512) @IsUrl({ require_protocol: true, protocols: ['http', 'https'] }) logoUrl?: string;
}

export class CardTokenization2faEmailDto {
  @Optional() @IsString() @MaxLength(255) @IsEmail() fromAddress?: string;
  @Optional() @IsString() @MaxLength(255) fromName?: string;
  @Optional() @IsString() @MaxLength(255) @IsEmail() replyToAddress?: string;
  @Optional() @IsString() @MaxLength(255) subject?: string;
  @Optional() @IsString() @MaxLength(2000) bodyText?: string;
}

export class CardTokenization2faSmsDto {
  @Optional() @IsString() @MaxLength(64) templateSid?: string;
  @Optional() @IsString() @MaxLength(480) bodyText?: string;
}

/** `cardTokenization2faConfig`: every field optional, given ones merged (nested objects too). */
export class CardTokenization2faConfigDto {
  @Optional() @IsString() @MaxLength(255) displayName?: string;
  // The contract asks for an https logo: it is shown in emails.
  @Optional() @IsString() @MaxLength(512) @IsUrl({ require_protocol: true, protocols: ['https'] }) logoUrl?: string;
  @Optional() @IsObject() @ValidateNested() @Type(() => CardTokenization2faEmailDto) email?: CardTokenization2faEmailDto;
  @Optional() @IsObject() @ValidateNested() @Type(() => CardTokenization2faSmsDto) sms?: CardTokenization2faSmsDto;
}

/** `PATCH /config` (the contract's PlatformConfigUpdateRequest): every field optional; unknown fields are refused. */
export class UpdateConfigDto {
  // null clears the endpoint (ours: the contract has no way to unset it).
  @IsOptional() @ValidateIf((_, value) => value !== null) @IsString() @MaxLength(2048) webhookEndpoint?: string | null;

  @Optional() @IsString() @MaxLength(253) @IsFQDN({ require_tld: false }) umaDomain?: string;

  @Optional() @IsArray() @ArrayMaxSize(20) @ValidateNested({ each: true }) @Type(() => SupportedCurrencyDto)
  supportedCurrencies?: SupportedCurrencyDto[];

  @Optional() @IsArray() @ArrayMaxSize(20) @ValidateNested({ each: true }) @Type(() => FeeConfigDto)
  feeConfigs?: FeeConfigDto[];

  @Optional() @IsObject() @ValidateNested() @Type(() => EmbeddedWalletConfigDto)
  embeddedWalletConfig?: EmbeddedWalletConfigDto;

  @Optional() @IsObject() @ValidateNested() @Type(() => CardTokenization2faConfigDto)
  cardTokenization2faConfig?: CardTokenization2faConfigDto;
}
