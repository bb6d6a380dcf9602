import { IsDefined, IsString, MaxLength, MinLength } from 'class-validator';
import { IsCountryCode, Optional } from './common-validators';

/** A postal address (customers, beneficial owners, beneficiaries): the reference's Address, which requires only line1, postalCode and country. */
export class AddressDto {
  @IsDefined() @IsString() @MinLength(1) @MaxLength(256) line1: string;
  @Optional() @IsString() @MaxLength(256) line2?: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(128) city?: string;
  @Optional() @IsString() @MaxLength(128) state?: string;
  @IsDefined() @IsString() @MinLength(1) @MaxLength(32) postalCode: string;
  @IsDefined() @IsString() @IsCountryCode() country: string;
}

export function toAddress(dto: AddressDto): {
  line1: string;
  line2: string | null;
  city: string | null;
  state: string | null;
  postalCode: string;
  country: string;
} {
  return {
    line1: dto.line1,
    line2: dto.line2 ?? null,
    city: dto.city ?? null,
    state: dto.state ?? null,
    postalCode: dto.postalCode,
    country: dto.country,
  };
}
