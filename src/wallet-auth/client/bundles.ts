import bs58check from 'bs58check';
import { decompressPoint, privateKeyFromScalar } from '../../infra/crypto/p256';
import { hpkeOpen } from '../crypto/hpke';
import { WalletKeyPair, walletKeyPairFromPrivateKey } from './keys';

/**
 * Opens `encryptedSessionSigningKey` or `encryptedWalletCredentials`: base58check of a 33-byte
 * compressed encapsulated key followed by the AES-256-GCM ciphertext, HPKE-sealed to the
 * client's uncompressed clientPublicKey. Returns the plaintext as hex, as @turnkey/crypto's
 * decryptCredentialBundle does. Throws when it does not open with this key.
 */
export async function openCredentialBundle(bundle: string, clientPrivateKeyHex: string): Promise<string> {
  const bytes = Buffer.from(bs58check.decode(bundle));
  if (bytes.length < 33 + 17) throw new Error('credential bundle is too short');
  const encappedPublic = decompressPoint(bytes.subarray(0, 33));
  const opened = await hpkeOpen({ encappedPublic, ciphertext: bytes.subarray(33) }, privateKeyFromScalar(Buffer.from(clientPrivateKeyHex.padStart(64, '0'), 'hex')));
  if (!opened) throw new Error('credential bundle does not open with this key');
  return opened.toString('hex');
}

/** Opens `encryptedSessionSigningKey` into the session key pair, ready to stamp. */
export async function openSessionSigningKey(bundle: string, clientPrivateKeyHex: string): Promise<WalletKeyPair> {
  return walletKeyPairFromPrivateKey(await openCredentialBundle(bundle, clientPrivateKeyHex));
}
