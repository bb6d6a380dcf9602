import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { CURRENCY_CODES, MAX_AMOUNT_MINOR } from '../../shared/currencies';

export class SupportedCurrencyDto {
  @IsDefined() @IsString() @IsIn(CURRENCY_CODES) currencyCode: string;
  @IsOptional() @IsInt() @Min(1) @Max(MAX_AMOUNT_MINOR) minAmount?: number;
  @IsOptional() @IsInt() @Min(1) @Max(MAX_AMOUNT_MINOR) maxAmount?: number;
  @IsOptional() @IsArray() @ArrayMaxSize(50) @IsString({ each: true }) requiredCounterpartyFields?: string[];
}

export class FeeConfigDto {
  @IsDefined() @IsString() @IsIn(CURRENCY_CODES) currencyCode: string;
  @IsDefined() @IsInt() @Min(0) @Max(MAX_AMOUNT_MINOR) fixedFee: number;
  @IsDefined() @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(0) @Max(0.5) variableFeeRate: number;
}

export class EmbeddedWalletConfigDto {
  @IsDefined() @IsString() @MinLength(1) @MaxLength(253) rpId: string;
  @IsDefined() @IsArray() @ArrayMaxSize(20) @IsString({ each: true }) allowedOrigins: string[];
}

/** `PATCH /config`: every field optional; unknown fields are refused. */
export class UpdateConfigDto {
  @IsOptional() @ValidateIf((_, value) => value !== null) @IsString() @MaxLength(2048) webhookEndpoint?: string | null;

  @IsOptional() @IsArray() @ArrayMaxSize(20) @ValidateNested({ each: true }) @Type(() => SupportedCurrencyDto)
  supportedCurrencies?: SupportedCurrencyDto[];

  @IsOptional() @IsArray() @ArrayMaxSize(20) @ValidateNested({ each: true }) @Type(() => FeeConfigDto)
  feeConfigs?: FeeConfigDto[];

  @IsOptional() @ValidateNested() @Type(() => EmbeddedWalletConfigDto)
  embeddedWalletConfig?: EmbeddedWalletConfigDto;
}
