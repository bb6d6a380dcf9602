import { KeyObject, timingSafeEqual } from 'node:crypto';
import { decodeHexStrict, parseJsonObject } from '../../infra/crypto/encoding';
import { decompressPoint, P256PublicKey, parseP256PublicKey, parseP256PublicKeyHex } from '../../infra/crypto/p256';
import { hpkeOpen } from './hpke';

/**
 * `encryptedOtpBundle` (DECISIONS.md section 4): the JSON text {"encappedPublic": hex,
 * "ciphertext": hex}, HPKE-sealed to the challenge's target key, whose plaintext is the JSON
 * {"otp_code", "public_key"} written by @turnkey/crypto's encryptOtpCodeToBundle. `public_key` is
 * the client's target encryption key (TEK) that signs the second leg and becomes the session key.
 *
 * Failure kinds, so the HTTP layer can answer precisely:
 * - MALFORMED_BUNDLE: not the JSON shape, bad hex, or encappedPublic not a P-256 point (400 INVALID_INPUT).
 * - DECRYPTION_FAILED: does not open with this challenge's target key (401 UNAUTHORIZED with reason).
 * - MALFORMED_PLAINTEXT: opened, but not {otp_code: string, public_key: P-256 hex} (400 INVALID_INPUT).
 */

/** The sandbox OTP (SPEC.md sandbox rule 6) and the reason any other code is refused with. */
export const SANDBOX_OTP_CODE = '000000';
export const INVALID_OTP_CODE_REASON = 'Invalid OTP code';

/** Compares a received code with the expected one without leaking where they differ. */
export function isOtpCodeCorrect(received: string, expected: string): boolean {
  const a = Buffer.from(received, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

export type OpenOtpBundleFailureKind = 'MALFORMED_BUNDLE' | 'DECRYPTION_FAILED' | 'MALFORMED_PLAINTEXT';

export type OpenOtpBundleResult =
  | {
      ok: true;
      otpCode: string;
      /** `public_key` exactly as the client wrote it (either SEC1 encoding). */
      publicKeyAsSent: string;
      /** The same key parsed: compressed and uncompressed hex, KeyObject. */
      publicKey: P256PublicKey;
    }
  | { ok: false; kind: OpenOtpBundleFailureKind; reason: string };

export async function openEncryptedOtpBundle(encryptedOtpBundle: unknown, targetPrivateKey: KeyObject): Promise<OpenOtpBundleResult> {
  const bundle = typeof encryptedOtpBundle === 'string' ? parseJsonObject(encryptedOtpBundle) : null;
  if (!bundle) return failure('MALFORMED_BUNDLE', 'encryptedOtpBundle must be a JSON object text');
  const encapped = decodeHexStrict(bundle.encappedPublic);
  const ciphertext = decodeHexStrict(bundle.ciphertext);
  if (!encapped || !ciphertext) return failure('MALFORMED_BUNDLE', 'encryptedOtpBundle needs hex encappedPublic and ciphertext');
  // A 33-byte (compressed) encapsulated key is accepted: the AAD needs the 65-byte form, so decompress.
  if (!parseP256PublicKey(encapped)) return failure('MALFORMED_BUNDLE', 'encappedPublic is not a P-256 public key');
  if (ciphertext.length < 17) return failure('MALFORMED_BUNDLE', 'ciphertext is too short');
  const plaintext = await hpkeOpen({ encappedPublic: decompressPoint(encapped), ciphertext }, targetPrivateKey);
  if (!plaintext) return failure('DECRYPTION_FAILED', 'encryptedOtpBundle could not be decrypted with this challenge');
  const payload = parseJsonObject(plaintext.toString('utf8'));
  if (!payload) return failure('MALFORMED_PLAINTEXT', 'Decrypted OTP bundle is not a JSON object');
  const { otp_code: otpCode, public_key: publicKeyAsSent } = payload;
  if (typeof otpCode !== 'string' || otpCode === '') return failure('MALFORMED_PLAINTEXT', 'Decrypted OTP bundle has no otp_code');
  const publicKey = typeof publicKeyAsSent === 'string' ? parseP256PublicKeyHex(publicKeyAsSent) : null;
  if (!publicKey) return failure('MALFORMED_PLAINTEXT', 'Decrypted OTP bundle public_key is not a P-256 public key in hex');
  return { ok: true, otpCode, publicKeyAsSent: publicKeyAsSent as string, publicKey };
}

function failure(kind: OpenOtpBundleFailureKind, reason: string): OpenOtpBundleResult {
  return { ok: false, kind, reason };
}
