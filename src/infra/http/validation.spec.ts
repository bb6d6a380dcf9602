import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize, IsArray, IsDefined, IsEmail, IsEnum, IsIn, IsInt, IsIP, IsObject, IsString, Matches, MaxLength, Min, MinLength, ValidateNested,
} from 'class-validator';
import { IsCalendarDate, IsCountryCode, Optional } from '../../shared/validation/common-validators';
import { checkBody, validateBody } from './validation';
import { ValidationError } from '../domain/domain-error';

enum Tier {
  GOLD = 'GOLD',
  SILVER = 'SILVER',
}

enum Level {
  LOW,
  HIGH,
}

class AddressDto {
  @IsDefined() @IsString() @MaxLength(8) postalCode: string;
  @IsDefined() @IsString() @IsCountryCode() country: string;
}

class ProbeDto {
  @IsDefined() @IsString() @IsIn(['CHECKING', 'SAVINGS']) category: string;
  @Optional() @IsString() @MaxLength(5) nickname?: string;
  @Optional() @IsString() @MinLength(3) code?: string;
  @Optional() @IsString() @MaxLength(254) @IsEmail() email?: string;
  @Optional() @IsString() @Matches(/^\+[1-9]\d{1,14}$/) phone?: string;
  @Optional() @IsCalendarDate() birthDate?: string;
  @Optional() @IsEnum(Tier) tier?: Tier;
  @Optional() @IsEnum(Level) level?: Level;
  @Optional() @IsInt() @Min(1) amount?: number;
  @Optional() @IsString() @IsIP() ip?: string;
  @Optional() @IsArray() @ArrayMaxSize(2) tags?: string[];
  @Optional() @IsObject() @ValidateNested() @Type(() => AddressDto) address?: AddressDto;
}

const VALID = { category: 'CHECKING' };

function errorsFor(body: unknown) {
  return checkBody(ProbeDto, body).errors;
}

describe('class-validator field errors carry the contract FieldConstraint', () => {
  it('accepts a valid body', () => {
    expect(errorsFor(VALID)).toEqual([]);
  });

  it('an @IsIn field answers its allowed values as enum', () => {
    expect(errorsFor({ category: 'BROKERAGE' })).toEqual([
      { field: 'category', constraint: { enum: ['CHECKING', 'SAVINGS'] }, message: expect.stringContaining('category') },
    ]);
  });

  it('@MaxLength and @MinLength answer the bound', () => {
    expect(errorsFor({ ...VALID, nickname: 'toolong', code: 'ab' })).toEqual([
      { field: 'nickname', constraint: { maxLength: 5 }, message: expect.any(String) },
      { field: 'code', constraint: { minLength: 3 }, message: expect.any(String) },
    ]);
  });

  it('a missing required field and an unknown field answer {}', () => {
    expect(errorsFor({ surprise: 1 })).toEqual([
      { field: 'surprise', constraint: {}, message: 'Unknown field surprise' },
      { field: 'category', constraint: {}, message: 'category should not be null or undefined' },
    ]);
  });

  it('a required field that is null is still "required" ({}), not its @IsIn values', () => {
    expect(errorsFor({ category: null })).toEqual([{ field: 'category', constraint: {}, message: expect.any(String) }]);
  });

  it('a wrong JSON type answers {} even on a field that has an enum', () => {
    expect(errorsFor({ category: 7 })).toEqual([{ field: 'category', constraint: {}, message: expect.any(String) }]);
  });

  it('format validators answer their named format', () => {
    const errors = errorsFor({ ...VALID, email: 'nope', birthDate: '2001-02-30', ip: '999.1.1.1', address: { postalCode: '1', country: 'usa' } });
    expect(errors.map(({ field, constraint }) => ({ field, constraint }))).toEqual([
      { field: 'email', constraint: { format: 'email' } },
      { field: 'birthDate', constraint: { format: 'date' } },
      { field: 'ip', constraint: { format: 'ip' } },
      { field: 'address.country', constraint: { format: 'iso3166-1-alpha-2' } },
    ]);
  });

  it('@Matches answers the regex source as pattern', () => {
    expect(errorsFor({ ...VALID, phone: '555-0100' })).toEqual([
      { field: 'phone', constraint: { pattern: '^\\+[1-9]\\d{1,14}$' }, message: expect.any(String) },
    ]);
  });

  it('@IsEnum answers the enum object values (string and numeric enums)', () => {
    expect(errorsFor({ ...VALID, tier: 'BRONZE', level: 9 }).map(({ field, constraint }) => ({ field, constraint }))).toEqual([
      { field: 'tier', constraint: { enum: ['GOLD', 'SILVER'] } },
      { field: 'level', constraint: { enum: ['0', '1'] } },
    ]);
  });

  it('number bounds, array sizes and nested type errors answer {}', () => {
    expect(errorsFor({ ...VALID, amount: 0, tags: ['a', 'b', 'c'], address: 'x' }).map(({ field, constraint }) => ({ field, constraint }))).toEqual([
      { field: 'amount', constraint: {} },
      { field: 'tags', constraint: {} },
      { field: 'address', constraint: {} },
    ]);
  });

  it('nested fields are read from the nested DTO class', () => {
    expect(errorsFor({ ...VALID, address: { postalCode: '123456789', country: 'US' } })).toEqual([
      { field: 'address.postalCode', constraint: { maxLength: 8 }, message: expect.stringContaining('address.postalCode') },
    ]);
  });

  it('a non-object body and reserved keys answer {}', () => {
    expect(errorsFor([1])).toEqual([{ field: 'body', constraint: {}, message: 'Expected a JSON object' }]);
    expect(errorsFor(JSON.parse('{"category": "CHECKING", "__proto__": {"x": 1}}'))).toEqual([
      { field: '__proto__', constraint: {}, message: 'Unknown field __proto__' },
    ]);
  });

  it('validateBody throws a ValidationError carrying the objects', () => {
    let thrown: unknown;
    try {
      validateBody(ProbeDto, { category: 'X', nickname: 'abcdefgh' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect((thrown as ValidationError).errors.map(({ field, constraint }) => ({ field, constraint }))).toEqual([
      { field: 'category', constraint: { enum: ['CHECKING', 'SAVINGS'] } },
      { field: 'nickname', constraint: { maxLength: 5 } },
    ]);
  });
});
