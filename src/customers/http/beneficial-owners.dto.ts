import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsDefined, IsEmail, IsIn, IsInt, IsObject, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { AddressDto } from '../../shared/validation/address.dto';
import { E164_PHONE, IsCalendarDate, IsCountryCode, Optional } from '../../shared/validation/common-validators';
import { ID_TYPES, OWNER_ROLES, PersonalInfoDto } from './customers.dto';

/**
 * The reference's BeneficialOwnerCreateRequest. `roles` needs at least one role (a person with
 * no role in the business is not one of its owners); the reference sets no minimum.
 */
export class CreateBeneficialOwnerDto {
  @IsDefined() @IsString() customerId: string;
  @IsDefined() @IsArray() @ArrayMinSize(1) @ArrayMaxSize(6) @ArrayUnique() @IsIn(OWNER_ROLES, { each: true }) roles: string[];
  @IsDefined() @IsInt() @Min(0) @Max(100) ownershipPercentage: number;
  @IsDefined() @IsObject() @ValidateNested() @Type(() => PersonalInfoDto) personalInfo: PersonalInfoDto;
}

/** The reference's BeneficialOwnerPersonalInfoUpdate: PersonalInfoDto's checks, every field optional. */
export class PersonalInfoUpdateDto {
  @Optional() @IsString() @MinLength(1) @MaxLength(128) firstName?: string;
  @Optional() @IsString() @MaxLength(128) middleName?: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(128) lastName?: string;
  @Optional() @IsCalendarDate({ past: true }) birthDate?: string;
  @Optional() @IsString() @IsCountryCode() nationality?: string;
  @Optional() @IsString() @MaxLength(254) @IsEmail() email?: string;
  @Optional() @IsString() @Matches(E164_PHONE, { message: 'phoneNumber must be in E.164 form' }) phoneNumber?: string;
  @Optional() @IsObject() @ValidateNested() @Type(() => AddressDto) address?: AddressDto;
  @Optional() @IsString() @IsIn(ID_TYPES) idType?: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(64) identifier?: string;
  @Optional() @IsString() @IsCountryCode() countryOfIssuance?: string;
}

/** The reference's BeneficialOwnerUpdateRequest: only the given fields change. */
export class UpdateBeneficialOwnerDto {
  @Optional() @IsArray() @ArrayMinSize(1) @ArrayMaxSize(6) @ArrayUnique() @IsIn(OWNER_ROLES, { each: true }) roles?: string[];
  @Optional() @IsInt() @Min(0) @Max(100) ownershipPercentage?: number;
  @Optional() @IsObject() @ValidateNested() @Type(() => PersonalInfoUpdateDto) personalInfo?: PersonalInfoUpdateDto;
}
