import { IsDefined, IsString, MaxLength, MinLength } from 'class-validator';

/** The reference's ContactVerificationConfirmRequest. */
export class ContactVerificationConfirmDto {
  /** The one-time code the customer received; in the sandbox always `123456`. */
  @IsDefined() @IsString() @MinLength(1) @MaxLength(32) code: string;
}
