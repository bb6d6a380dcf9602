import { IsString, Matches, MaxLength } from 'class-validator';
import { Optional } from '../../shared/validation/common-validators';

/**
 * The reference's KycLinkCreateRequest. `redirectUri` must start with `https://` (or `http://` for
 * local development); a value that cannot be a URL at all is refused by the handler's check too.
 */
export class KycLinkCreateRequestDto {
  @Optional()
  @IsString()
  @MaxLength(2048)
  @Matches(/^https?:\/\/[^\s/?#]+[^\s]*$/i, { message: 'redirectUri must be an https:// (or http://) URL' })
  redirectUri?: string;
}
