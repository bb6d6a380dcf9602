import { generateP256KeyPair, uncompressedPoint } from '../../infra/crypto/p256';
import { hpkeOpen, hpkeSeal } from './hpke';

describe('HPKE (turnkey_hpke suite)', () => {
  it('seals and opens, with a fresh encapsulated key each time', async () => {
    const recipient = generateP256KeyPair();
    const first = await hpkeSeal(Buffer.from('secret'), uncompressedPoint(recipient.publicKey));
    const second = await hpkeSeal(Buffer.from('secret'), uncompressedPoint(recipient.publicKey));
    expect(first.encappedPublic).toHaveLength(65);
    expect(first.ciphertext).toHaveLength('secret'.length + 16);
    expect(first.encappedPublic.equals(second.encappedPublic)).toBe(false);
    expect((await hpkeOpen(first, recipient.privateKey))?.toString()).toBe('secret');
  });

  it('answers null for another recipient or a swapped encapsulated key', async () => {
    const recipient = generateP256KeyPair();
    const sealed = await hpkeSeal(Buffer.from('secret'), uncompressedPoint(recipient.publicKey));
    expect(await hpkeOpen(sealed, generateP256KeyPair().privateKey)).toBeNull();
    const other = await hpkeSeal(Buffer.from('secret'), uncompressedPoint(recipient.publicKey));
    expect(await hpkeOpen({ ...sealed, encappedPublic: other.encappedPublic }, recipient.privateKey)).toBeNull();
  });

  it('refuses to seal to a compressed point (the AAD needs the uncompressed one)', async () => {
    const compressed = Buffer.concat([Buffer.from([0x02]), uncompressedPoint(generateP256KeyPair().publicKey).subarray(1, 33)]);
    await expect(hpkeSeal(Buffer.from('x'), compressed)).rejects.toThrow();
  });
});
