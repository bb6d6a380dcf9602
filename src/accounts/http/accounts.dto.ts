import { Type } from 'class-transformer';
import { IsDefined, IsIn, IsInt, IsObject, IsString, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { CURRENCY_CODES, MAX_AMOUNT_MINOR } from '../../shared/currencies';
import { AddressDto } from '../../shared/validation/address.dto';
import { IsCalendarDate, IsCountryCode, Optional } from '../../shared/validation/common-validators';
import { IsEmail } from 'class-validator';

/** `POST /customers/external-accounts`; `accountInfo`'s identifier fields are checked per type. */
export class CreateExternalAccountDto {
  @IsDefined() @IsString() customerId: string;
  @IsDefined() @IsString() @IsIn(CURRENCY_CODES) currency: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(128) platformAccountId?: string;
  @IsDefined() @IsObject() accountInfo: Record<string, unknown>;
}

export class BeneficiaryDto {
  @IsDefined() @IsString() @IsIn(['INDIVIDUAL', 'BUSINESS']) beneficiaryType: 'INDIVIDUAL' | 'BUSINESS';
  @IsDefined() @IsString() @MinLength(1) @MaxLength(256) fullName: string;
  @Optional() @IsCalendarDate({ past: true }) birthDate?: string;
  @Optional() @IsString() @IsCountryCode() nationality?: string;
  @Optional() @IsString() @MaxLength(254) @IsEmail() email?: string;
  @Optional() @IsObject() @ValidateNested() @Type(() => AddressDto) address?: AddressDto;
}

export class TrustConfirmDto {
  @IsDefined() @IsString() @MinLength(1) @MaxLength(16) code: string;
}

class TransferSourceDto {
  @IsDefined() @IsString() accountId: string;
}

class TransferDestinationDto {
  @IsDefined() @IsString() accountId: string;
  @Optional() @IsString() @MaxLength(32) paymentRail?: string;
}

/** `POST /transfer-in` and `POST /transfer-out` (DECISIONS.md section 2). */
export class TransferDto {
  @IsDefined() @IsObject() @ValidateNested() @Type(() => TransferSourceDto) source: TransferSourceDto;
  @IsDefined() @IsObject() @ValidateNested() @Type(() => TransferDestinationDto) destination: TransferDestinationDto;
  @IsDefined() @IsInt() @Min(1) @Max(MAX_AMOUNT_MINOR) amount: number;
}

/** `POST /sandbox/internal-accounts/{id}/fund`. */
export class FundDto {
  @IsDefined() @IsInt() @Min(1) @Max(MAX_AMOUNT_MINOR) amount: number;
}
