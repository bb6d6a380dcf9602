import { generateCustodiedKeyPair, stampWithCustodiedKey } from './custodied-key';
import { verifyWalletSignatureHeader } from './wallet-signature';

describe('custodied keys', () => {
  it('stamp exactly like a client session key: the stamp verifies over the payload and names the public key', () => {
    const key = generateCustodiedKeyPair();
    expect(key.publicKey).toMatch(/^0[23][0-9a-f]{64}$/);
    expect(key.privateScalar).toHaveLength(32);
    const payload = '{"organizationId":"InternalAccount:x","parameters":{},"timestampMs":"1","type":"T"}';
    const stamp = stampWithCustodiedKey(payload, key.privateScalar);
    expect(verifyWalletSignatureHeader(stamp, payload, { sandbox: false })).toEqual({
      ok: true,
      kind: 'stamp',
      publicKeyCompressedHex: key.publicKey,
      publicKeyUncompressedHex: expect.stringMatching(/^04[0-9a-f]{128}$/),
    });
    expect(verifyWalletSignatureHeader(stamp, `${payload} `, { sandbox: false })).toMatchObject({ ok: false, code: 'WALLET_SIGNATURE_INVALID' });
  });
});
