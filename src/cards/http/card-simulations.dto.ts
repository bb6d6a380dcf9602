import { Type } from 'class-transformer';
import { IsDefined, IsInt, IsObject, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { FieldError } from '../../infra/domain/domain-error';
import { hasErrorAt } from '../../infra/http/validation';
import { parseId } from '../../infra/ids';
import { MAX_AMOUNT_MINOR } from '../../shared/currencies';
import { IsCountryCode, Optional } from '../../shared/validation/common-validators';

/** The card program's currency: simulated messages speak it (docs/cards.md). */
export const SIMULATION_CURRENCY = 'USD';

/** The reference's Currency object: `code` is read, the descriptive fields are accepted as given. */
export class SimulationCurrencyDto {
  @IsDefined() @IsString() code: string;
  @Optional() @IsString() @MaxLength(64) name?: string;
  @Optional() @IsString() @MaxLength(16) symbol?: string;
  @Optional() @IsInt() @Min(0) @Max(18) decimals?: number;
}

/** CardMerchant: a descriptor (whose last three characters are the sandbox suffix), a 4-digit MCC, a 2-letter country. */
export class CardMerchantDto {
  @IsDefined() @IsString() @MinLength(1) @MaxLength(255) descriptor: string;
  @Optional() @IsString() @Matches(/^\d{4}$/, { message: 'mcc must be four digits' }) mcc?: string;
  @Optional() @IsString() @IsCountryCode() country?: string;
}

/** SandboxCardAuthorizationRequest: authorization, credit_authorization, financial_*, credit_authorization_advice. */
export class SandboxCardAuthorizationDto {
  @IsDefined() @IsInt() @Min(1) @Max(MAX_AMOUNT_MINOR) amount: number;
  @IsDefined() @IsObject() @ValidateNested() @Type(() => SimulationCurrencyDto) currency: SimulationCurrencyDto;
  @IsDefined() @IsObject() @ValidateNested() @Type(() => CardMerchantDto) merchant: CardMerchantDto;
}

/** SandboxCardBalanceInquiryRequest: a 0-amount authorization, so no amount. */
export class SandboxCardBalanceInquiryDto {
  @IsDefined() @IsObject() @ValidateNested() @Type(() => CardMerchantDto) merchant: CardMerchantDto;
}

/** SandboxCardClearingRequest: 0 expires the authorization. */
export class SandboxCardClearingDto {
  @IsDefined() @IsString() cardTransactionId: string;
  @IsDefined() @IsInt() @Min(0) @Max(MAX_AMOUNT_MINOR) amount: number;
}

/** SandboxCardAuthorizationAdviceRequest (`amount`: the new total) and SandboxCardReturnRequest. */
export class SandboxCardAmountDto {
  @IsDefined() @IsString() cardTransactionId: string;
  @IsDefined() @IsInt() @Min(1) @Max(MAX_AMOUNT_MINOR) amount: number;
}

/** SandboxCardTransactionRefRequest: return_reversal. */
export class SandboxCardTransactionRefDto {
  @IsDefined() @IsString() cardTransactionId: string;
}

/** Adds an error for a `currency.code` other than the card's currency (unless the field is wrong already). */
export function checkSimulationCurrency(value: { currency?: { code?: unknown } }, errors: FieldError[]): void {
  if (hasErrorAt(errors, 'currency') || value.currency?.code === SIMULATION_CURRENCY) return;
  errors.push({ field: 'currency.code', constraint: { enum: [SIMULATION_CURRENCY] }, message: `currency.code must be ${SIMULATION_CURRENCY}, the card's currency` });
}

/** Adds an error for a `cardTransactionId` that cannot name a card transaction. */
export function checkCardTransactionId(value: { cardTransactionId?: unknown }, errors: FieldError[]): void {
  if (hasErrorAt(errors, 'body') || hasErrorAt(errors, 'cardTransactionId') || parseId('CardTransaction', value.cardTransactionId)) return;
  errors.push({ field: 'cardTransactionId', constraint: { format: 'CardTransaction-id' }, message: 'cardTransactionId must be a CardTransaction:<uuid> id' });
}
