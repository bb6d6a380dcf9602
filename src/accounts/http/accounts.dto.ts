import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsEmail, IsIn, IsInt, IsISO8601, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { MAX_AMOUNT_MINOR } from '../../shared/currencies';
import { AddressDto } from '../../shared/validation/address.dto';
import { E164_PHONE, IsCalendarDate, IsCountryCode, Optional } from '../../shared/validation/common-validators';

export const OWNERSHIP_TYPES = ['FIRST_PARTY', 'THIRD_PARTY'] as const;
export const OWNERSHIP_VERIFICATION_METHODS = ['WALLET_SIGNATURE', 'LIVENESS'] as const;
export const SIGNATURE_SCHEMES = ['bip137', 'electrum'] as const;
export const COLOMBIAN_DOCUMENT_TYPES = ['CC', 'CE', 'TI', 'NIT', 'PP'];

/**
 * `POST /platform/external-accounts` (the reference's PlatformExternalAccountCreateRequest): the
 * platform's own account. `accountInfo`'s identifier fields and its beneficiary are checked per
 * account type; `currency` is checked against the type (so its shape only here: some types hold
 * currencies we do not quote).
 */
export class CreatePlatformExternalAccountDto {
  @IsDefined() @IsString() @Matches(/^[A-Z]{3,4}$/) currency: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(128) platformAccountId?: string;
  @Optional() @IsString() @IsIn(OWNERSHIP_TYPES) ownershipType?: (typeof OWNERSHIP_TYPES)[number];
  @IsDefined() @IsObject() accountInfo: Record<string, unknown>;
}

/**
 * `POST /customers/external-accounts` (the reference's ExternalAccountCreateRequest): without
 * `customerId` the account is the platform's own.
 */
export class CreateExternalAccountDto extends CreatePlatformExternalAccountDto {
  @Optional() @IsString() customerId?: string;
  @Optional() @IsBoolean() defaultUmaDepositAccount?: boolean;
}

/** OwnershipChallengeRequest. */
export class OwnershipChallengeDto {
  @IsDefined() @IsString() @IsIn(OWNERSHIP_VERIFICATION_METHODS) method: (typeof OWNERSHIP_VERIFICATION_METHODS)[number];
}

/** OwnershipVerifyRequest: the wallet's signature over the challenge's `messageToSign`. */
export class OwnershipVerifyDto {
  @IsDefined() @IsString() @MinLength(1) @MaxLength(512) signature: string;
  @Optional() @IsString() @IsIn(SIGNATURE_SCHEMES) signatureScheme?: (typeof SIGNATURE_SCHEMES)[number];
}

/** Fields every beneficiary shape shares (contact details and where they live). */
class BeneficiaryContactDto {
  @Optional() @IsString() @MaxLength(254) @IsEmail() email?: string;
  @Optional() @IsString() @Matches(E164_PHONE) phoneNumber?: string;
  @Optional() @IsString() @IsCountryCode() countryOfResidence?: string;
  @Optional() @IsObject() @ValidateNested() @Type(() => AddressDto) address?: AddressDto;
}

/**
 * An INDIVIDUAL bank beneficiary: the union of the per-currency shapes (CAD's
 * `registrationNumber`, COP's documents); which extras a type accepts or requires is the
 * account type's rule (account-identifiers.ts).
 */
export class IndividualBeneficiaryDto extends BeneficiaryContactDto {
  @IsDefined() @IsString() @IsIn(['INDIVIDUAL']) beneficiaryType: 'INDIVIDUAL';
  @IsDefined() @IsString() @MinLength(1) @MaxLength(256) fullName: string;
  @Optional() @IsCalendarDate({ past: true }) birthDate?: string;
  @Optional() @IsString() @IsCountryCode() nationality?: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(128) registrationNumber?: string;
  @Optional() @IsString() @IsIn(COLOMBIAN_DOCUMENT_TYPES) documentType?: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(50) documentNumber?: string;
}

/** A BUSINESS beneficiary (any account type that takes one). */
export class BusinessBeneficiaryDto extends BeneficiaryContactDto {
  @IsDefined() @IsString() @IsIn(['BUSINESS']) beneficiaryType: 'BUSINESS';
  @IsDefined() @IsString() @MinLength(1) @MaxLength(256) legalName: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(128) registrationNumber?: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(64) taxId?: string;
}

/** An INDIVIDUAL wallet beneficiary (travel-rule data): name and country of residence only. */
export class WalletIndividualBeneficiaryDto {
  @IsDefined() @IsString() @IsIn(['INDIVIDUAL']) beneficiaryType: 'INDIVIDUAL';
  @IsDefined() @IsString() @MinLength(1) @MaxLength(256) fullName: string;
  @IsDefined() @IsString() @IsCountryCode() countryOfResidence: string;
}

/** Only `beneficiaryType`, to pick the shape before checking the rest. */
export class BeneficiaryTypeDto {
  @IsDefined() @IsString() @IsIn(['INDIVIDUAL', 'BUSINESS']) beneficiaryType: 'INDIVIDUAL' | 'BUSINESS';
}

/**
 * BeneficiaryTrustConfirmRequest: `code` (SMS_OTP), or `passkeyAssertion` + `origin`, and the
 * `challengeId` the start issued. Every field is nullable in the reference: null is absent.
 */
export class TrustConfirmDto {
  @IsOptional() @IsString() challengeId?: string | null;
  @IsOptional() @IsString() @MinLength(1) @MaxLength(16) code?: string | null;
  @IsOptional() @IsObject() passkeyAssertion?: Record<string, unknown> | null;
  @IsOptional() @IsString() @MaxLength(2048) origin?: string | null;
}

/** The reference's PurposeOfPayment. */
export const PURPOSES_OF_PAYMENT = [
  'GIFT', 'SELF', 'GOODS_OR_SERVICES', 'EDUCATION', 'HEALTH_OR_MEDICAL', 'REAL_ESTATE_PURCHASE', 'TAX_PAYMENT', 'LOAN_PAYMENT',
  'UTILITY_BILL', 'DONATION', 'TRAVEL', 'FAMILY_SUPPORT', 'SALARY_PAYMENT', 'OTHER',
] as const;

/** InternalAccountReference / ExternalAccountReference: the account alone. */
class AccountReferenceDto {
  @IsDefined() @IsString() accountId: string;
}

/** ExternalAccountDestinationReference: the account, and the rail when the platform picks it. */
class ExternalDestinationDto {
  @IsDefined() @IsString() accountId: string;
  @Optional() @IsString() @MaxLength(32) paymentRail?: string;
}

/**
 * `POST /transfer-in` (TransferInRequest). `amount` is optional in the reference; the service
 * still needs it for a pull (TransferPartiesResolver.sweepAmount).
 */
export class TransferInDto {
  @IsDefined() @IsObject() @ValidateNested() @Type(() => AccountReferenceDto) source: AccountReferenceDto;
  @IsDefined() @IsObject() @ValidateNested() @Type(() => AccountReferenceDto) destination: AccountReferenceDto;
  @Optional() @IsInt() @Min(1) @Max(MAX_AMOUNT_MINOR) amount?: number;
}

/** `POST /transfer-out` (TransferOutRequest); without `amount` it sweeps the available balance. */
export class TransferOutDto {
  @IsDefined() @IsObject() @ValidateNested() @Type(() => AccountReferenceDto) source: AccountReferenceDto;
  @IsDefined() @IsObject() @ValidateNested() @Type(() => ExternalDestinationDto) destination: ExternalDestinationDto;
  @Optional() @IsInt() @Min(1) @Max(MAX_AMOUNT_MINOR) amount?: number;
  @Optional() @IsString() @MaxLength(80) remittanceInformation?: string;
  @Optional() @IsString() @IsIn(PURPOSES_OF_PAYMENT) purposeOfPayment?: string;
}

/** `POST /sandbox/internal-accounts/{id}/fund`. */
export class FundDto {
  @IsDefined() @IsInt() @Min(1) @Max(MAX_AMOUNT_MINOR) amount: number;
}

/** `POST /transactions/{id}/approve`: an optional body with the receiver's data the platform adds. */
export class ApproveTransactionDto {
  @IsOptional() @IsObject() receiverCustomerInfo?: Record<string, unknown>;
}

/** `POST /transactions/{id}/reject`: an optional body; `reason` is the platform's own (kept on the event). */
export class RejectTransactionDto {
  @Optional() @IsString() @MaxLength(256) reason?: string;
}

/** `POST /transactions/{id}/cancel`: an optional body; `reason` is the platform's own note (kept on the event). */
export class CancelTransactionDto {
  @Optional() @IsString() @MaxLength(256) reason?: string;
}

/** `POST /transactions/{id}/confirm`: an optional body; the confirmation time defaults to now. */
export class ConfirmReceiptDeliveryDto {
  @Optional() @IsISO8601({ strict: true, strictSeparator: true }) receiptDeliveryConfirmedAt?: string;
}
