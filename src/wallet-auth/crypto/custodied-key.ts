import { compressedPublicKeyHex, generateP256KeyPair, privateKeyFromScalar, privateKeyScalar, signP256 } from '../../infra/crypto/p256';
import { WALLET_SIGNATURE_SCHEME } from './wallet-signature';

/**
 * A P-256 key the service holds on a wallet owner's behalf (a delegated signing key): generated
 * here, its 32-byte private scalar sealed in the KeyVault, only the public key ever shown.
 */
export interface CustodiedKeyPair {
  privateScalar: Buffer;
  /** Compressed SEC1 hex. */
  publicKey: string;
}

export function generateCustodiedKeyPair(): CustodiedKeyPair {
  const { privateKey } = generateP256KeyPair();
  return { privateScalar: privateKeyScalar(privateKey), publicKey: compressedPublicKeyHex(privateKey) };
}

/**
 * The `Service-Wallet-Signature` value a custodied key makes over a payloadToSign: the same
 * stamp a client makes with a session key (wallet-signature.ts), over the exact UTF-8 bytes.
 */
export function stampWithCustodiedKey(payloadToSign: string, privateScalar: Uint8Array): string {
  const privateKey = privateKeyFromScalar(privateScalar);
  const signature = signP256(Buffer.from(payloadToSign, 'utf8'), privateKey).der.toString('hex');
  const stamp = { publicKey: compressedPublicKeyHex(privateKey), scheme: WALLET_SIGNATURE_SCHEME, signature };
  return Buffer.from(JSON.stringify(stamp), 'utf8').toString('base64url');
}
