import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';
import { KeyObject } from 'node:crypto';
import { uncompressedPoint } from '../../infra/crypto/p256';

/**
 * RFC 9180 HPKE, base mode, DHKEM(P-256, HKDF-SHA256) / HKDF-SHA256 / AES-256-GCM, with Turnkey's
 * conventions (DECISIONS.md section 4): info is the ASCII text "turnkey_hpke" and the AEAD's
 * associated data is the encapsulated key followed by the recipient key, both uncompressed.
 * The one-shot suite.seal/open cannot be used because the AAD contains enc, which only exists
 * once the context does.
 */
const suite = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes256Gcm() });
const INFO = Buffer.from('turnkey_hpke', 'ascii');

export interface HpkeSealed {
  /** 65-byte uncompressed encapsulated (ephemeral sender) key. */
  encappedPublic: Buffer;
  /** AES-256-GCM ciphertext followed by its 16-byte tag. */
  ciphertext: Buffer;
}

/** Seals plaintext to a P-256 public key (65-byte uncompressed point). */
export async function hpkeSeal(plaintext: Uint8Array, recipientUncompressed: Uint8Array): Promise<HpkeSealed> {
  const recipient = Buffer.from(recipientUncompressed);
  if (recipient.length !== 65 || recipient[0] !== 0x04) throw new Error('HPKE recipient key must be an uncompressed P-256 point');
  const recipientPublicKey = await suite.kem.deserializePublicKey(recipient);
  const sender = await suite.createSenderContext({ recipientPublicKey, info: INFO });
  const encappedPublic = Buffer.from(sender.enc);
  const ciphertext = Buffer.from(await sender.seal(plaintext, Buffer.concat([encappedPublic, recipient])));
  return { encappedPublic, ciphertext };
}

/**
 * Opens an HPKE ciphertext with the recipient's private key. Answers null when it does not open
 * (wrong key, tampered ciphertext or enc, bad enc point), so callers can map that to one failure.
 */
export async function hpkeOpen(sealed: HpkeSealed, recipientPrivateKey: KeyObject): Promise<Buffer | null> {
  const recipient = uncompressedPoint(recipientPrivateKey);
  const jwk = recipientPrivateKey.export({ format: 'jwk' });
  try {
    const recipientKey = await suite.kem.importKey('jwk', { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, d: jwk.d }, false);
    const context = await suite.createRecipientContext({ recipientKey, enc: Buffer.from(sealed.encappedPublic), info: INFO });
    const plaintext = await context.open(sealed.ciphertext, Buffer.concat([sealed.encappedPublic, recipient]));
    return Buffer.from(plaintext);
  } catch {
    return null;
  }
}
