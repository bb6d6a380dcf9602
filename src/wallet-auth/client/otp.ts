import { verify } from 'node:crypto';
import { decodeHexStrict, parseJsonObject } from '../../infra/crypto/encoding';
import { parseP256PublicKeyHex } from '../../infra/crypto/p256';
import { hpkeSeal } from '../crypto/hpke';

export interface EncryptOtpInput {
  /** The code the user received (000000 in the sandbox). */
  otpCode: string;
  /** `otpEncryptionTargetBundle` from POST /auth/credentials/{id}/challenge. */
  otpEncryptionTargetBundle: string;
  /** The TEK's public key (hex): it must stamp the retry and becomes the session key. */
  tekPublicKey: string;
  /** The pinned enclave key: `walletEnclavePublicKey` of GET /config (uncompressed hex). */
  enclavePublicKey: string;
}

/**
 * `encryptedOtpBundle` for the verify call, as @turnkey/crypto's encryptOtpCodeToBundle makes
 * it: checks the bundle is signed by the pinned enclave key (exact key text), then HPKE-seals
 * {"otp_code","public_key"} to the bundle's target key. Throws when the bundle is not genuine.
 */
export async function encryptOtpCode(input: EncryptOtpInput): Promise<string> {
  const bundle = parseJsonObject(input.otpEncryptionTargetBundle);
  if (!bundle || typeof bundle.data !== 'string' || typeof bundle.dataSignature !== 'string') throw new Error('otpEncryptionTargetBundle is not a target bundle');
  if (bundle.enclaveQuorumPublic !== input.enclavePublicKey) throw new Error('the bundle is not signed by the pinned enclave key');
  const enclaveKey = parseP256PublicKeyHex(input.enclavePublicKey);
  const data = decodeHexStrict(bundle.data);
  const signature = decodeHexStrict(bundle.dataSignature);
  if (!enclaveKey || !data || !signature) throw new Error('otpEncryptionTargetBundle has malformed fields');
  if (!verify('sha256', data, { key: enclaveKey.keyObject, dsaEncoding: 'der' }, signature)) throw new Error('the bundle signature does not verify');
  const signed = parseJsonObject(data.toString('utf8'));
  const target = typeof signed?.targetPublic === 'string' ? parseP256PublicKeyHex(signed.targetPublic) : null;
  if (!target) throw new Error('the bundle has no target key');
  const plaintext = Buffer.from(JSON.stringify({ otp_code: input.otpCode, public_key: input.tekPublicKey }), 'utf8');
  const sealed = await hpkeSeal(plaintext, Buffer.from(target.uncompressedHex, 'hex'));
  return JSON.stringify({ encappedPublic: sealed.encappedPublic.toString('hex'), ciphertext: sealed.ciphertext.toString('hex') });
}
