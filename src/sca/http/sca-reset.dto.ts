import { Type } from 'class-transformer';
import { IsDefined, IsIn, IsObject, IsString, Matches, ValidateNested } from 'class-validator';
import { Optional } from '../../shared/validation/common-validators';
import { SECURITY_EVENT_TYPES, SecurityEventType } from '../domain/profile/profile.events';
import { SCA_FACTORS, ScaFactor } from '../domain/sca-factor';

/** `POST /sca/record-event` (RecordSecurityEventRequest). */
export class RecordSecurityEventDto {
  @IsDefined() @IsString() @IsIn(SECURITY_EVENT_TYPES) eventType: SecurityEventType;
}

/** `POST /sca/factors/reset` (TwoFactorResetStartRequest). */
export class StartFactorResetDto {
  @IsDefined() @IsString() @IsIn(SCA_FACTORS) factor: ScaFactor;
}

/** The new number of an SMS_OTP reset: E.164 split as the contract gives it. */
export class ResetMobileDto {
  @IsDefined() @IsString() @Matches(/^\+[1-9][0-9]{0,3}$/, { message: 'countryCode must be a dialing code with its leading +, e.g. +49' })
  countryCode: string;
  @IsDefined() @IsString() @Matches(/^[0-9]{4,14}$/, { message: 'number must be the national number, 4 to 14 digits' })
  number: string;
}

/** `POST /sca/factors/reset/{resetId}/complete` (TwoFactorResetCompleteRequest); the body is optional. */
export class CompleteFactorResetDto {
  @Optional() @IsObject() @ValidateNested() @Type(() => ResetMobileDto) mobile?: ResetMobileDto;
}
