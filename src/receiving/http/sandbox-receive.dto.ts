import { IsDefined, IsInt, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { MAX_AMOUNT_MINOR } from '../../shared/currencies';
import { Optional } from '../../shared/validation/common-validators';

/** `POST /sandbox/uma/receive` (the reference's SandboxUmaReceiveRequest). */
export class SandboxUmaReceiveDto {
  @IsDefined() @IsString() @MaxLength(320) senderUmaAddress: string;
  @Optional() @IsString() @MaxLength(320) receiverUmaAddress?: string;
  @Optional() @IsString() @Matches(/^Customer:[0-9a-f-]{36}$/) customerId?: string;
  @IsDefined() @IsString() @Matches(/^[A-Z]{3,4}$/) receivingCurrencyCode: string;
  @IsDefined() @IsInt() @Min(1) @Max(MAX_AMOUNT_MINOR) receivingCurrencyAmount: number;
}
