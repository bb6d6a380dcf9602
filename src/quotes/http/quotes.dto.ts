import { IsDefined, IsIn, IsInt, IsObject, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { MAX_AMOUNT_MINOR } from '../../shared/currencies';
import { Optional } from '../../shared/validation/common-validators';

/**
 * `POST /quotes` (SPEC.md "Quote creation"). `source` and `destination` are discriminated unions
 * (`sourceType`, `destinationType`): their variants are checked with the classes below, each
 * refusing fields the variant does not have.
 */
export class CreateQuoteDto {
  @IsDefined() @IsObject() source: Record<string, unknown>;
  @IsDefined() @IsObject() destination: Record<string, unknown>;
  @IsDefined() @IsString() @IsIn(['SENDING', 'RECEIVING']) lockedCurrencySide: 'SENDING' | 'RECEIVING';
  @IsDefined() @IsInt() @Min(1) @Max(MAX_AMOUNT_MINOR) lockedCurrencyAmount: number;
  @Optional() @IsString() @MinLength(1) @MaxLength(1000) description?: string;
}

export const SOURCE_TYPES = ['ACCOUNT', 'REALTIME_FUNDING'] as const;
export const DESTINATION_TYPES = ['ACCOUNT', 'UMA_ADDRESS'] as const;

export class AccountSourceDto {
  @IsDefined() @IsString() sourceType: 'ACCOUNT';
  @IsDefined() @IsString() accountId: string;
  @Optional() @IsString() customerId?: string;
}

export class RealtimeFundingSourceDto {
  @IsDefined() @IsString() sourceType: 'REALTIME_FUNDING';
  @IsDefined() @IsString() currency: string;
  @Optional() @IsString() customerId?: string;
  @Optional() @IsString() cryptoNetwork?: string;
}

export class AccountDestinationDto {
  @IsDefined() @IsString() destinationType: 'ACCOUNT';
  @IsDefined() @IsString() accountId: string;
  @Optional() @IsString() @MaxLength(32) paymentRail?: string;
}

export class UmaDestinationDto {
  @IsDefined() @IsString() destinationType: 'UMA_ADDRESS';
  @IsDefined() @IsString() @MaxLength(320) umaAddress: string;
  @Optional() @IsString() currency?: string;
}

/** `POST /quotes/{quoteId}/execute`: optional body. */
export class ExecuteQuoteDto {
  @Optional() @IsString() scaFactor?: string;
}

/** `POST /sandbox/send` (DECISIONS.md section 5). */
export class SandboxSendDto {
  @IsDefined() @IsString() quoteId: string;
  @IsDefined() @IsString() currencyCode: string;
  @Optional() @IsInt() @Min(1) @Max(MAX_AMOUNT_MINOR) currencyAmount?: number;
}
