import { IsBoolean, IsDefined, IsIn, IsInt, IsObject, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { MAX_AMOUNT_MINOR } from '../../shared/currencies';
import { Optional } from '../../shared/validation/common-validators';

/** The contract's `PurposeOfPayment` (some corridors, e.g. India, require one). */
export const PURPOSES_OF_PAYMENT = [
  'GIFT', 'SELF', 'GOODS_OR_SERVICES', 'EDUCATION', 'HEALTH_OR_MEDICAL', 'REAL_ESTATE_PURCHASE', 'TAX_PAYMENT',
  'LOAN_PAYMENT', 'UTILITY_BILL', 'DONATION', 'TRAVEL', 'FAMILY_SUPPORT', 'SALARY_PAYMENT', 'OTHER',
] as const;

/**
 * `POST /quotes` (SPEC.md "Quote creation"). `source` and `destination` are discriminated unions
 * (`sourceType`, `destinationType`): their variants are checked with the classes below, each
 * refusing fields the variant does not have.
 */
export class CreateQuoteDto {
  @Optional() @IsString() @MinLength(1) @MaxLength(200) lookupId?: string;
  @IsDefined() @IsObject() source: Record<string, unknown>;
  @IsDefined() @IsObject() destination: Record<string, unknown>;
  @IsDefined() @IsString() @IsIn(['SENDING', 'RECEIVING']) lockedCurrencySide: 'SENDING' | 'RECEIVING';
  @IsDefined() @IsInt() @Min(1) @Max(MAX_AMOUNT_MINOR) lockedCurrencyAmount: number;
  @Optional() @IsBoolean() immediatelyExecute?: boolean;
  @Optional() @IsString() @MinLength(1) @MaxLength(1000) description?: string;
  /** Travels with the payment to the recipient (ACH addenda, RTP/FedNow remittance, wire OBI). */
  @Optional() @IsString() @MinLength(1) @MaxLength(80) remittanceInformation?: string;
  @Optional() @IsString() @IsIn(PURPOSES_OF_PAYMENT) purposeOfPayment?: string;
  @Optional() @IsObject() platformFeeOverride?: Record<string, unknown>;
  /** Checked against the per-transaction factors in quote-request.ts (TOTP is refused there). */
  @Optional() @IsString() scaFactor?: string;
  /** Sender facts the destination asked for: free-form keys (see quote-request.ts for the limits). */
  @Optional() @IsObject() senderCustomerInfo?: Record<string, unknown>;
}

/** `platformFeeOverride`: replaces the platform's configured fee for this one quote. */
export class PlatformFeeOverrideDto {
  @IsDefined() @IsObject() platformFixedFee: Record<string, unknown>;
  @IsDefined() @IsInt() @Min(0) @Max(10_000) platformVariableFeeBps: number;
}

/** `platformFeeOverride.platformFixedFee`, in minor units of `currency` (the quote's sending currency). */
export class FixedFeeDto {
  @IsDefined() @IsInt() @Min(0) @Max(MAX_AMOUNT_MINOR) amount: number;
  @IsDefined() @IsString() currency: string;
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
