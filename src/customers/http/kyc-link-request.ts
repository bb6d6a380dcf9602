import { checkBody, throwIfAny } from '../../infra/http/validation';
import { KycLinkCreateRequestDto } from './kyc-link.dto';

/**
 * The optional body: absent or `{}` asks for a link without a redirect (the page then thanks the
 * person itself). Kept out of the controller so the generated document does not mark it required.
 */
export function parseKycLinkRequest(body: unknown): { redirectUri: string | null } {
  const { value, errors } = checkBody(KycLinkCreateRequestDto, body ?? {});
  if (errors.length === 0 && value.redirectUri !== undefined && !isHttpUrl(value.redirectUri)) {
    errors.push({ field: 'redirectUri', constraint: { format: 'uri' }, message: 'redirectUri must be an https:// (or http://) URL' });
  }
  throwIfAny(errors);
  return { redirectUri: value.redirectUri ?? null };
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}
