import { KeyObject, sign } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Service-Signature';

/**
 * `X-Service-Signature` value for a body: ECDSA P-256 over SHA-256 of the exact bytes sent,
 * DER-encoded, base64 (DECISIONS.md section 6). `verify-signature.ts` is its inverse.
 */
export function signatureHeaderFor(body: string, privateKey: KeyObject): string {
  const signature = sign('sha256', Buffer.from(body, 'utf8'), { key: privateKey, dsaEncoding: 'der' });
  return JSON.stringify({ v: '1', s: signature.toString('base64') });
}
