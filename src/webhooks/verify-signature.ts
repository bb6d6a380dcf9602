import { KeyObject, createPublicKey, verify } from 'node:crypto';

/**
 * Verifies the `X-Service-Signature` header of a webhook (DECISIONS.md section 6):
 * `{"v":"1","s":"<base64 DER ECDSA P-256 signature>"}` over SHA-256 of the raw request body.
 *
 * Pass the body exactly as received (the bytes, before any JSON parsing) and the service's
 * `webhookPublicKey` from `GET /config` (PEM, SPKI). Returns false for anything that does not
 * verify, including a missing or malformed header. Depends on nothing but node:crypto, so a
 * platform can copy this file as it is.
 */
export function verifyWebhookSignature(
  rawBody: string | Buffer | Uint8Array,
  headerValue: string | string[] | undefined | null,
  publicKeyPem: string | KeyObject,
): boolean {
  if (typeof headerValue !== 'string') return false;
  let header: unknown;
  try {
    header = JSON.parse(headerValue);
  } catch {
    return false;
  }
  if (!header || typeof header !== 'object') return false;
  const { v, s } = header as { v?: unknown; s?: unknown };
  if (v !== '1' || typeof s !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(s)) return false;
  try {
    const key = typeof publicKeyPem === 'string' ? createPublicKey(publicKeyPem) : publicKeyPem;
    const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
    return verify('sha256', body, { key, dsaEncoding: 'der' }, Buffer.from(s, 'base64'));
  } catch {
    return false;
  }
}
