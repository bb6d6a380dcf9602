import { privateKeyFromScalar, signP256 } from '../../infra/crypto/p256';
import { WALLET_SIGNATURE_SCHEME } from '../crypto/wallet-signature';
import { WalletKeyPair } from './keys';

/**
 * The `Service-Wallet-Signature` value for a payloadToSign (DECISIONS.md section 4): base64url,
 * unpadded, of {"publicKey","scheme","signature"}, an ECDSA P-256 SHA-256 DER signature over the
 * exact UTF-8 bytes of the payload. The same value @turnkey/api-key-stamper puts in X-Stamp.
 * Sign the payload exactly as received: never parse and re-serialise it.
 */
export function stampPayload(payloadToSign: string, key: Pick<WalletKeyPair, 'privateKey' | 'publicKey'>): string {
  const privateKey = privateKeyFromScalar(Buffer.from(key.privateKey.padStart(64, '0'), 'hex'));
  const signature = signP256(Buffer.from(payloadToSign, 'utf8'), privateKey).der.toString('hex');
  const stamp = { publicKey: key.publicKey, scheme: WALLET_SIGNATURE_SCHEME, signature };
  return Buffer.from(JSON.stringify(stamp), 'utf8').toString('base64url');
}
