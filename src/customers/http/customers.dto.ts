import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsDefined,
  IsEmail,
  IsIn,
  IsNumber,
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

export const CUSTOMER_TYPES = ['INDIVIDUAL', 'BUSINESS'] as const;
export const TAX_ID_TYPES = ['SSN', 'ITIN', 'EIN', 'TIN', 'VAT', 'PASSPORT', 'NATIONAL_ID', 'OTHER'];
export const ID_TYPES = ['SSN', 'ITIN', 'PASSPORT', 'NATIONAL_ID', 'DRIVERS_LICENSE', 'OTHER'];
export const OWNER_ROLES = ['UBO', 'DIRECTOR', 'CONTROL_PERSON', 'BUSINESS_POINT_OF_CONTACT', 'TRUSTEE', 'SETTLOR', 'GENERAL_PARTNER'];
export const ENTITY_TYPES = ['CORPORATION', 'LLC', 'PARTNERSHIP', 'SOLE_PROPRIETORSHIP', 'TRUST', 'NON_PROFIT', 'OTHER'];

/** Fields every customer may carry, on creation and on PATCH. */
class CommonCustomerFieldsDto {
  @Optional() @IsString() @IsCountryCode() region?: string;
  @Optional() @IsString() @MaxLength(254) @IsEmail() email?: string;
  @Optional() @IsString() @Matches(E164_PHONE, { message: 'phoneNumber must be in E.164 form, e.g. +14155550100' }) phoneNumber?: string;
  @Optional() @IsObject() @ValidateNested() @Type(() => AddressDto) address?: AddressDto;
}

class IndividualFieldsDto extends CommonCustomerFieldsDto {
  @Optional() @IsCalendarDate({ past: true }) birthDate?: string;
  @Optional() @IsString() @IsCountryCode() nationality?: string;
  @Optional() @IsString() @IsIn(TAX_ID_TYPES) taxIdType?: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(64) taxIdentifier?: string;
}

export class CreateIndividualCustomerDto extends IndividualFieldsDto {
  @IsDefined() @IsIn(['INDIVIDUAL']) customerType: 'INDIVIDUAL';
  @IsDefined() @IsString() @MinLength(1) @MaxLength(128) platformCustomerId: string;
  @Optional() @IsString() @MaxLength(128) @Matches(UMA_ADDRESS, { message: 'umaAddress must look like $alice@example.com' }) umaAddress?: string;
  @IsDefined() @IsString() @MinLength(1) @MaxLength(256) fullName: string;
}

export class UpdateIndividualCustomerDto extends IndividualFieldsDto {
  @Optional() @IsString() @MinLength(1) @MaxLength(256) fullName?: string;
}

export class BusinessInfoDto {
  @IsDefined() @IsString() @MinLength(1) @MaxLength(256) legalName: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(64) registrationNumber?: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(64) taxId?: string;
  @Optional() @IsCalendarDate({ past: true }) incorporationDate?: string;
  @Optional() @IsString() @IsIn(ENTITY_TYPES) entityType?: string;
}

export class BusinessInfoPatchDto {
  @Optional() @IsString() @MinLength(1) @MaxLength(256) legalName?: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(64) registrationNumber?: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(64) taxId?: string;
  @Optional() @IsCalendarDate({ past: true }) incorporationDate?: string;
  @Optional() @IsString() @IsIn(ENTITY_TYPES) entityType?: string;
}

export class PersonalInfoDto {
  @Optional() @IsString() @MinLength(1) @MaxLength(128) firstName?: string;
  @Optional() @IsString() @MaxLength(128) middleName?: string;
  @IsDefined() @IsString() @MinLength(1) @MaxLength(128) lastName: string;
  @Optional() @IsCalendarDate({ past: true }) birthDate?: string;
  @Optional() @IsString() @IsCountryCode() nationality?: string;
  @Optional() @IsString() @MaxLength(254) @IsEmail() email?: string;
  @Optional() @IsString() @Matches(E164_PHONE, { message: 'phoneNumber must be in E.164 form' }) phoneNumber?: string;
  @Optional() @IsObject() @ValidateNested() @Type(() => AddressDto) address?: AddressDto;
  @Optional() @IsString() @IsIn(ID_TYPES) idType?: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(64) identifier?: string;
}

export class BeneficialOwnerDto {
  @IsDefined() @IsObject() @ValidateNested() @Type(() => PersonalInfoDto) personalInfo: PersonalInfoDto;
  @Optional() @IsArray() @ArrayMaxSize(7) @IsIn(OWNER_ROLES, { each: true }) roles?: string[];
  @Optional() @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(0) @Max(100) ownershipPercentage?: number;
}

class BusinessFieldsDto extends CommonCustomerFieldsDto {
  @Optional() @IsArray() @ArrayMaxSize(25) @ValidateNested({ each: true }) @Type(() => BeneficialOwnerDto)
  beneficialOwners?: BeneficialOwnerDto[];
}

export class CreateBusinessCustomerDto extends BusinessFieldsDto {
  @IsDefined() @IsIn(['BUSINESS']) customerType: 'BUSINESS';
  @IsDefined() @IsString() @MinLength(1) @MaxLength(128) platformCustomerId: string;
  @Optional() @IsString() @MaxLength(128) @Matches(UMA_ADDRESS, { message: 'umaAddress must look like $acme@example.com' }) umaAddress?: string;
  @IsDefined() @IsObject() @ValidateNested() @Type(() => BusinessInfoDto) businessInfo: BusinessInfoDto;
}

export class UpdateBusinessCustomerDto extends BusinessFieldsDto {
  @Optional() @IsObject() @ValidateNested() @Type(() => BusinessInfoPatchDto) businessInfo?: BusinessInfoPatchDto;
}

export class SubmitVerificationDto {
  @IsDefined() @IsString() customerId: string;
}
