import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsDefined,
  IsEmail,
  IsIn,
  IsInt,
  IsIP,
  IsISO8601,
  IsObject,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { AddressDto } from '../../shared/validation/address.dto';
import { E164_PHONE, IsCalendarDate, IsCountryCode, Optional, UMA_ADDRESS } from '../../shared/validation/common-validators';

/** Enums as the reference names them (CustomerType, IdentificationType, BeneficialOwnerRole...). */
export const CUSTOMER_TYPES = ['INDIVIDUAL', 'BUSINESS'] as const;
export const KYC_STATUSES = ['UNVERIFIED', 'PENDING', 'APPROVED', 'REJECTED', 'HOLD'] as const;
export const ID_TYPES = ['SSN', 'ITIN', 'EIN', 'NON_US_TAX_ID'];
export const OWNER_ROLES = ['UBO', 'DIRECTOR', 'COMPANY_OFFICER', 'CONTROL_PERSON', 'TRUSTEE', 'GENERAL_PARTNER'];
export const ENTITY_TYPES = [
  'SOLE_PROPRIETORSHIP', 'PARTNERSHIP', 'LLC', 'CORPORATION', 'S_CORPORATION', 'NON_PROFIT', 'PUBLICLY_LISTED_COMPANY', 'TRUST',
  'PRIVATE_FOUNDATION', 'CHARITY', 'OTHER',
];
export const BUSINESS_TYPES = [
  'AGRICULTURE_FORESTRY_FISHING_AND_HUNTING', 'MINING_QUARRYING_AND_OIL_AND_GAS_EXTRACTION', 'UTILITIES', 'CONSTRUCTION', 'MANUFACTURING',
  'WHOLESALE_TRADE', 'RETAIL_TRADE', 'TRANSPORTATION_AND_WAREHOUSING', 'INFORMATION', 'FINANCE_AND_INSURANCE',
  'REAL_ESTATE_AND_RENTAL_AND_LEASING', 'PROFESSIONAL_SCIENTIFIC_AND_TECHNICAL_SERVICES', 'MANAGEMENT_OF_COMPANIES_AND_ENTERPRISES',
  'ADMINISTRATIVE_AND_SUPPORT_AND_WASTE_MANAGEMENT_AND_REMEDIATION_SERVICES', 'EDUCATIONAL_SERVICES', 'HEALTH_CARE_AND_SOCIAL_ASSISTANCE',
  'ARTS_ENTERTAINMENT_AND_RECREATION', 'ACCOMMODATION_AND_FOOD_SERVICES', 'OTHER_SERVICES', 'PUBLIC_ADMINISTRATION',
];
export const PURPOSES_OF_ACCOUNT = [
  'CONTRACTOR_PAYOUTS', 'CREATOR_PAYOUTS', 'EMPLOYEE_PAYOUTS', 'MARKETPLACE_SELLER_PAYOUTS', 'SUPPLIER_PAYMENTS', 'CROSS_BORDER_B2B',
  'AR_AUTOMATION', 'AP_AUTOMATION', 'EMBEDDED_PAYMENTS', 'PLATFORM_FEE_COLLECTION', 'P2P_TRANSFERS', 'CHARITABLE_DONATIONS', 'OTHER',
];
export const BUSINESS_SOURCES_OF_FUNDS = ['OPERATING_REVENUE', 'INVESTMENT_INCOME', 'LOANS', 'VENTURE_CAPITAL', 'PERSONAL_SAVINGS', 'DONATIONS', 'OTHER'];
export const INDIVIDUAL_SOURCES_OF_FUNDS = [
  'SALARY', 'SELF_EMPLOYMENT_INCOME', 'INVESTMENT_INCOME', 'PENSION', 'RENTAL_INCOME', 'GIFT', 'INHERITANCE', 'LOAN', 'SAVINGS',
  'SALE_OF_ASSETS', 'OTHER',
];
export const SOURCES_OF_WEALTH = ['SALARY', 'BUSINESS_INCOME', 'INVESTMENTS', 'INHERITANCE', 'PROPERTY_SALE', 'GIFT', 'RETIREMENT', 'SAVINGS', 'OTHER'];
export const MONTHLY_TRANSACTION_COUNTS = ['COUNT_UNDER_10', 'COUNT_10_TO_100', 'COUNT_100_TO_500', 'COUNT_500_TO_1000', 'COUNT_OVER_1000'];
export const MONTHLY_TRANSACTION_VOLUMES = ['VOLUME_UNDER_10K', 'VOLUME_10K_TO_100K', 'VOLUME_100K_TO_1M', 'VOLUME_1M_TO_10M', 'VOLUME_OVER_10M'];
export const ANNUAL_INCOME_RANGES = ['UNDER_50K', 'RANGE_50K_100K', 'RANGE_100K_250K', 'RANGE_250K_1M', 'OVER_1M'];
export const NET_WORTH_RANGES = ['UNDER_100K', 'RANGE_100K_500K', 'RANGE_500K_1M', 'RANGE_1M_5M', 'RANGE_5M_25M', 'OVER_25M'];
export const PEP_STATUSES = ['NONE', 'DOMESTIC', 'FOREIGN', 'HIO', 'FAMILY_OR_ASSOCIATE'];
export const TERMS_ACCEPTANCE_METHODS = ['CHECKBOX', 'CLICK_TO_ACCEPT'];

/** ISO 4217 codes and crypto tickers (USDC, USDB, BTC): upper-case letters and digits. */
const CURRENCY_CODE = /^[A-Z0-9]{3,5}$/;

/** The end user's acceptance of the platform's terms (well-formed only; versions are not checked yet). */
export class EndUserTermsConsentDto {
  @IsDefined() @IsISO8601({ strict: true, strictSeparator: true }) acceptedAt: string;
  @IsDefined() @IsString() @MaxLength(45) @IsIP() ipAddress: string;
  @IsDefined() @IsString() @MinLength(1) @MaxLength(64) termsVersion: string;
  @IsDefined() @IsString() @IsIn(TERMS_ACCEPTANCE_METHODS) acceptanceMethod: string;
}

/** Fields every customer may carry, on creation and on PATCH (the reference's CustomerCreateRequest/CustomerUpdateRequest). */
class CommonCustomerFieldsDto {
  @Optional() @IsString() @IsCountryCode() region?: string;
  @Optional() @IsString() @MaxLength(254) @IsEmail() email?: string;
  @Optional() @IsString() @Matches(E164_PHONE, { message: 'phoneNumber must be in E.164 form, e.g. +14155550100' }) phoneNumber?: string;
  @Optional() @IsObject() @ValidateNested() @Type(() => AddressDto) address?: AddressDto;
  @Optional() @IsArray() @ArrayMaxSize(20) @ArrayUnique() @IsString({ each: true })
  @Matches(CURRENCY_CODE, { each: true, message: 'currencies must hold currency codes such as USD or USDC' })
  currencies?: string[];
  @Optional() @IsString() @MaxLength(128) @Matches(UMA_ADDRESS, { message: 'umaAddress must look like $alice@example.com' }) umaAddress?: string;
  @Optional() @IsObject() @ValidateNested() @Type(() => EndUserTermsConsentDto) endUserTermsConsent?: EndUserTermsConsentDto;
}

/** IndividualCustomerFields with CustomerEdd; `taxIdType`/`taxIdentifier` are SPEC.md's names for `idType`/`identifier`. */
class IndividualFieldsDto extends CommonCustomerFieldsDto {
  @Optional() @IsString() @MinLength(1) @MaxLength(256) fullName?: string;
  @Optional() @IsCalendarDate({ past: true }) birthDate?: string;
  @Optional() @IsString() @IsCountryCode() nationality?: string;
  @Optional() @IsString() @IsIn(ID_TYPES) idType?: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(64) identifier?: string;
  @Optional() @IsString() @IsIn(ID_TYPES) taxIdType?: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(64) taxIdentifier?: string;
  @Optional() @IsString() @IsCountryCode() countryOfIssuance?: string;
  /** Read-only on our side (verification sets it): accepted so a GET body can be sent back, then ignored. */
  @Optional() @IsString() @IsIn(KYC_STATUSES) kycStatus?: string;
  @Optional() @IsArray() @ArrayMaxSize(11) @ArrayUnique() @IsIn(INDIVIDUAL_SOURCES_OF_FUNDS, { each: true }) sourceOfFundsCategories?: string[];
  @Optional() @IsString() @MinLength(1) @MaxLength(500) sourceOfFundsOtherDescription?: string;
  @Optional() @IsArray() @ArrayMaxSize(9) @ArrayUnique() @IsIn(SOURCES_OF_WEALTH, { each: true }) sourceOfWealthCategories?: string[];
  @Optional() @IsString() @MinLength(1) @MaxLength(500) sourceOfWealthOtherDescription?: string;
  @Optional() @IsString() @IsIn(PURPOSES_OF_ACCOUNT) purposeOfAccount?: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(500) purposeOfAccountOtherDescription?: string;
  @Optional() @IsString() @IsIn(MONTHLY_TRANSACTION_COUNTS) expectedMonthlyTransactionCount?: string;
  @Optional() @IsString() @IsIn(MONTHLY_TRANSACTION_VOLUMES) expectedMonthlyTransactionVolume?: string;
  @Optional() @IsString() @IsIn(ANNUAL_INCOME_RANGES) annualIncomeRange?: string;
  @Optional() @IsString() @IsIn(NET_WORTH_RANGES) netWorthRange?: string;
  @Optional() @IsString() @IsIn(PEP_STATUSES) pepStatus?: string;
}

export class CreateIndividualCustomerDto extends IndividualFieldsDto {
  @IsDefined() @IsIn(['INDIVIDUAL']) customerType: 'INDIVIDUAL';
  /** Optional in the reference: the customer id stands in when absent. */
  @Optional() @IsString() @MinLength(1) @MaxLength(128) platformCustomerId?: string;
}

/** PATCH: `customerType` is the reference's discriminator; the controller checks it against the current type. */
export class UpdateIndividualCustomerDto extends IndividualFieldsDto {
  @Optional() @IsIn(CUSTOMER_TYPES) customerType?: string;
}

/** The reference's BusinessInfo fields but `legalName` (required on creation, optional on PATCH). */
class BusinessInfoFieldsDto {
  @Optional() @IsString() @MinLength(1) @MaxLength(256) doingBusinessAs?: string;
  @Optional() @IsString() @IsCountryCode() country?: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(64) registrationNumber?: string;
  @Optional() @IsCalendarDate({ past: true }) incorporatedOn?: string;
  @Optional() @IsString() @IsIn(ENTITY_TYPES) entityType?: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(64) taxId?: string;
  @Optional() @IsArray() @ArrayMaxSize(250) @ArrayUnique() @IsCountryCode({ each: true }) countriesOfOperation?: string[];
  @Optional() @IsString() @IsIn(BUSINESS_TYPES) businessType?: string;
  @Optional() @IsString() @IsIn(PURPOSES_OF_ACCOUNT) purposeOfAccount?: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(500) sourceOfFunds?: string;
  @Optional() @IsString() @IsIn(MONTHLY_TRANSACTION_COUNTS) expectedMonthlyTransactionCount?: string;
  @Optional() @IsString() @IsIn(MONTHLY_TRANSACTION_VOLUMES) expectedMonthlyTransactionVolume?: string;
  @Optional() @IsArray() @ArrayMaxSize(250) @ArrayUnique() @IsCountryCode({ each: true }) expectedRecipientJurisdictions?: string[];
  @Optional() @IsString() @Matches(/^\d{2,6}$/, { message: 'naicsCode must be 2 to 6 digits' }) naicsCode?: string;
  @Optional() @IsArray() @ArrayMaxSize(7) @ArrayUnique() @IsIn(BUSINESS_SOURCES_OF_FUNDS, { each: true }) sourceOfFundsCategories?: string[];
  @Optional() @IsString() @MinLength(1) @MaxLength(500) sourceOfFundsOtherDescription?: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(500) purposeOfAccountOtherDescription?: string;
  @Optional() @IsArray() @ArrayMaxSize(250) @ArrayUnique() @IsCountryCode({ each: true }) expectedCounterpartyCountries?: string[];
  @Optional() @IsString() @MinLength(1) @MaxLength(250) primaryContactFirstName?: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(250) primaryContactLastName?: string;
}

/**
 * Creation: the reference's BusinessInfo also marks `country`, `taxId` and `incorporatedOn` as
 * required; we take them later too (PATCH) and `POST /verifications` asks for them, so a platform
 * can create the business before it has every detail.
 */
export class BusinessInfoDto extends BusinessInfoFieldsDto {
  @IsDefined() @IsString() @MinLength(1) @MaxLength(256) legalName: string;
}

/** The reference's BusinessInfoUpdate: every field optional. */
export class BusinessInfoPatchDto extends BusinessInfoFieldsDto {
  @Optional() @IsString() @MinLength(1) @MaxLength(256) legalName?: string;
}

/**
 * The reference's BeneficialOwnerPersonalInfo: everything the BeneficialOwner response requires
 * is required here, so every owner we answer with is complete.
 */
export class PersonalInfoDto {
  @IsDefined() @IsString() @MinLength(1) @MaxLength(128) firstName: string;
  @Optional() @IsString() @MaxLength(128) middleName?: string;
  @IsDefined() @IsString() @MinLength(1) @MaxLength(128) lastName: string;
  @IsDefined() @IsCalendarDate({ past: true }) birthDate: string;
  @IsDefined() @IsString() @IsCountryCode() nationality: string;
  @Optional() @IsString() @MaxLength(254) @IsEmail() email?: string;
  @Optional() @IsString() @Matches(E164_PHONE, { message: 'phoneNumber must be in E.164 form' }) phoneNumber?: string;
  @IsDefined() @IsObject() @ValidateNested() @Type(() => AddressDto) address: AddressDto;
  @IsDefined() @IsString() @IsIn(ID_TYPES) idType: string;
  @IsDefined() @IsString() @MinLength(1) @MaxLength(64) identifier: string;
  @Optional() @IsString() @IsCountryCode() countryOfIssuance?: string;
}

/** The reference's BeneficialOwnerCreateRequest, inline in the business (so without `customerId`). */
export class BeneficialOwnerDto {
  @IsDefined() @IsObject() @ValidateNested() @Type(() => PersonalInfoDto) personalInfo: PersonalInfoDto;
  @IsDefined() @IsArray() @ArrayMaxSize(6) @ArrayUnique() @IsIn(OWNER_ROLES, { each: true }) roles: string[];
  @IsDefined() @IsInt() @Min(0) @Max(100) ownershipPercentage: number;
}

class BusinessFieldsDto extends CommonCustomerFieldsDto {
  @Optional() @IsArray() @ArrayMaxSize(25) @ValidateNested({ each: true }) @Type(() => BeneficialOwnerDto)
  beneficialOwners?: BeneficialOwnerDto[];
  /** Read-only on our side (verification sets it): accepted so a GET body can be sent back, then ignored. */
  @Optional() @IsString() @IsIn(KYC_STATUSES) kybStatus?: string;
}

export class CreateBusinessCustomerDto extends BusinessFieldsDto {
  @IsDefined() @IsIn(['BUSINESS']) customerType: 'BUSINESS';
  /** Optional in the reference: the customer id stands in when absent. */
  @Optional() @IsString() @MinLength(1) @MaxLength(128) platformCustomerId?: string;
  @IsDefined() @IsObject() @ValidateNested() @Type(() => BusinessInfoDto) businessInfo: BusinessInfoDto;
}

export class UpdateBusinessCustomerDto extends BusinessFieldsDto {
  @Optional() @IsIn(CUSTOMER_TYPES) customerType?: string;
  @Optional() @IsObject() @ValidateNested() @Type(() => BusinessInfoPatchDto) businessInfo?: BusinessInfoPatchDto;
}

export class SubmitVerificationDto {
  @IsDefined() @IsString() customerId: string;
}
