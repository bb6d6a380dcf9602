import { compressedPublicKeyHex, generateP256KeyPair, privateKeyFromScalar, privateKeyScalar, uncompressedPublicKeyHex } from '../../infra/crypto/p256';

/**
 * A P-256 key pair as wallet clients hold it: hex strings, the way @turnkey/crypto and
 * @turnkey/api-key-stamper take them. Used as the OTP TEK, a session key, or a clientPublicKey.
 */
export interface WalletKeyPair {
  /** 32-byte private scalar, hex. */
  privateKey: string;
  /** 33-byte compressed SEC1 public key, hex (what a stamp carries; selects the client-held-key flow). */
  publicKey: string;
  /** 65-byte uncompressed SEC1 public key, hex (selects the legacy flow that returns a sealed key). */
  publicKeyUncompressed: string;
}

export function generateWalletKeyPair(): WalletKeyPair {
  return walletKeyPairFromKeyObject(generateP256KeyPair().privateKey);
}

/** The key pair of a private scalar in hex (for example an opened encryptedSessionSigningKey). */
export function walletKeyPairFromPrivateKey(privateKeyHex: string): WalletKeyPair {
  if (!/^[0-9a-fA-F]{1,64}$/.test(privateKeyHex)) throw new Error('privateKey must be a P-256 scalar in hex');
  return walletKeyPairFromKeyObject(privateKeyFromScalar(Buffer.from(privateKeyHex.padStart(64, '0'), 'hex')));
}

function walletKeyPairFromKeyObject(privateKey: ReturnType<typeof privateKeyFromScalar>): WalletKeyPair {
  return {
    privateKey: privateKeyScalar(privateKey).toString('hex'),
    publicKey: compressedPublicKeyHex(privateKey),
    publicKeyUncompressed: uncompressedPublicKeyHex(privateKey),
  };
}
