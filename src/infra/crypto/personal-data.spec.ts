import { randomBytes } from 'node:crypto';
import {
  DataKeySource,
  PersonalDataIntegrityError,
  PersonalDataKeys,
  SealedValue,
  isSealed,
  markErased,
  openWithKey,
  personalDataKeyId,
  sealWithKey,
} from './personal-data';

const CUSTOMER = 'Customer:0199a000-0000-7000-8000-000000000001';
const OTHER_CUSTOMER = 'Customer:0199a000-0000-7000-8000-000000000002';
const KEY_ID = personalDataKeyId(CUSTOMER, 0);

/** The KeyVault's data-key surface over a Map (the vault itself is covered by the e2e suites). */
class MemoryKeySource implements DataKeySource {
  readonly keys = new Map<string, Buffer>();
  reads = 0;
  async createDataKey(keyId: string): Promise<void> {
    if (!this.keys.has(keyId)) this.keys.set(keyId, randomBytes(32));
  }
  async dataKey(keyId: string): Promise<Buffer | null> {
    this.reads++;
    return this.keys.get(keyId) ?? null;
  }
}

function flipFirstByte(text: string): string {
  const bytes = Buffer.from(text, 'base64url');
  bytes[0] ^= 0x01;
  return bytes.toString('base64url');
}

describe('personal data sealing', () => {
  const key = randomBytes(32);

  it('seals to an envelope without the plaintext that opens to it again', () => {
    const sealed = sealWithKey(key, KEY_ID, CUSTOMER, 'taxIdentifier', '123-45-6789');
    expect(sealed).toEqual({ $sealed: 'AES-256-GCM', keyId: KEY_ID, nonce: expect.any(String), ciphertext: expect.any(String) });
    expect(JSON.stringify(sealed)).not.toContain('6789');
    expect(Buffer.from(sealed.nonce, 'base64url')).toHaveLength(12);
    expect(isSealed(sealed)).toBe(true);
    expect(isSealed('123-45-6789')).toBe(false);
    expect(openWithKey(key, sealed, CUSTOMER, 'taxIdentifier')).toBe('123-45-6789');
  });

  it('uses a fresh nonce for every value', () => {
    const first = sealWithKey(key, KEY_ID, CUSTOMER, 'taxIdentifier', '123-45-6789');
    const second = sealWithKey(key, KEY_ID, CUSTOMER, 'taxIdentifier', '123-45-6789');
    expect(first.nonce).not.toBe(second.nonce);
    expect(first.ciphertext).not.toBe(second.ciphertext);
  });

  it('refuses an altered ciphertext, nonce, tag or key id', () => {
    const sealed = sealWithKey(key, KEY_ID, CUSTOMER, 'taxIdentifier', '123-45-6789');
    const tail = Buffer.from(sealed.ciphertext, 'base64url');
    tail[tail.length - 1] ^= 0x80;
    const altered: SealedValue[] = [
      { ...sealed, ciphertext: flipFirstByte(sealed.ciphertext) },
      { ...sealed, nonce: flipFirstByte(sealed.nonce) },
      { ...sealed, ciphertext: tail.toString('base64url') },
      { ...sealed, keyId: personalDataKeyId(CUSTOMER, 1) },
      { ...sealed, ciphertext: 'not base64url!' },
      { ...sealed, ciphertext: Buffer.alloc(8).toString('base64url') },
    ];
    for (const value of altered) {
      expect(() => openWithKey(key, value, CUSTOMER, 'taxIdentifier')).toThrow(PersonalDataIntegrityError);
    }
  });

  it('refuses a value moved to another customer or another field', () => {
    const sealed = sealWithKey(key, KEY_ID, CUSTOMER, 'taxIdentifier', '123-45-6789');
    expect(() => openWithKey(key, sealed, OTHER_CUSTOMER, 'taxIdentifier')).toThrow(PersonalDataIntegrityError);
    expect(() => openWithKey(key, sealed, CUSTOMER, 'documents[Document:d1].documentNumber')).toThrow(PersonalDataIntegrityError);
  });

  it('refuses a value opened with another key', () => {
    const sealed = sealWithKey(key, KEY_ID, CUSTOMER, 'taxIdentifier', '123-45-6789');
    expect(() => openWithKey(randomBytes(32), sealed, CUSTOMER, 'taxIdentifier')).toThrow(PersonalDataIntegrityError);
  });
});

describe('PersonalDataKeys', () => {
  it('creates the key on first seal, opens with it, and answers null once the key is erased', async () => {
    const source = new MemoryKeySource();
    const keys = new PersonalDataKeys(source, { cacheTtlMs: 0, maxCachedKeys: 10 });
    const sealed = await keys.seal(KEY_ID, CUSTOMER, 'taxIdentifier', '123-45-6789');
    expect(source.keys.has(KEY_ID)).toBe(true);
    expect(await keys.open(sealed, CUSTOMER, 'taxIdentifier')).toBe('123-45-6789');
    source.keys.delete(KEY_ID);
    expect(await keys.open(sealed, CUSTOMER, 'taxIdentifier')).toBeNull();
  });

  it('answers plain values from older events as they are', async () => {
    const keys = new PersonalDataKeys(new MemoryKeySource());
    expect(await keys.open('123-45-6789', CUSTOMER, 'taxIdentifier')).toBe('123-45-6789');
  });

  it('still refuses a value moved to another customer', async () => {
    const keys = new PersonalDataKeys(new MemoryKeySource());
    const sealed = await keys.seal(KEY_ID, CUSTOMER, 'taxIdentifier', '123-45-6789');
    await expect(keys.open(sealed, OTHER_CUSTOMER, 'taxIdentifier')).rejects.toThrow(PersonalDataIntegrityError);
  });

  it('keeps an unwrapped key for the cache time only, and forgets it on request', async () => {
    const source = new MemoryKeySource();
    let now = 0;
    const keys = new PersonalDataKeys(source, { cacheTtlMs: 1_000, maxCachedKeys: 10 }, () => now);
    const sealed = await keys.seal(KEY_ID, CUSTOMER, 'taxIdentifier', '123-45-6789');
    source.keys.delete(KEY_ID);
    now = 999;
    expect(await keys.open(sealed, CUSTOMER, 'taxIdentifier')).toBe('123-45-6789');
    now = 1_000;
    expect(await keys.open(sealed, CUSTOMER, 'taxIdentifier')).toBeNull();

    await source.createDataKey(KEY_ID);
    const again = await keys.seal(KEY_ID, CUSTOMER, 'taxIdentifier', '987-65-4321');
    source.keys.delete(KEY_ID);
    keys.forget(KEY_ID);
    expect(await keys.open(again, CUSTOMER, 'taxIdentifier')).toBeNull();
  });

  it('caches at most maxCachedKeys keys, least recently used evicted first', async () => {
    const source = new MemoryKeySource();
    const keys = new PersonalDataKeys(source, { cacheTtlMs: 60_000, maxCachedKeys: 2 }, () => 0);
    const ids = [0, 1, 2].map((index) => personalDataKeyId(`Customer:c${index}`, 0));
    const sealed = await Promise.all(ids.map((keyId, index) => keys.seal(keyId, `Customer:c${index}`, 'taxIdentifier', `v${index}`)));
    // c0 was evicted by c2; c1 and c2 are cached.
    source.reads = 0;
    expect(await keys.open(sealed[2], 'Customer:c2', 'taxIdentifier')).toBe('v2');
    expect(await keys.open(sealed[1], 'Customer:c1', 'taxIdentifier')).toBe('v1');
    expect(source.reads).toBe(0);
    expect(await keys.open(sealed[0], 'Customer:c0', 'taxIdentifier')).toBe('v0');
    expect(source.reads).toBe(1);
  });
});

describe('markErased', () => {
  it('marks the envelopes of erased keys at any depth and leaves everything else alone', () => {
    const key = randomBytes(32);
    const erased = sealWithKey(key, KEY_ID, CUSTOMER, 'taxIdentifier', '123-45-6789');
    const kept = sealWithKey(key, personalDataKeyId(CUSTOMER, 1), CUSTOMER, 'taxIdentifier', '123-45-6789');
    const data = { profile: { taxIdentifier: erased, owners: [{ identifier: kept }], fullName: 'Jane' }, count: 2 };
    expect(markErased(data, new Set([KEY_ID]))).toEqual({
      profile: { taxIdentifier: { ...erased, erased: true }, owners: [{ identifier: kept }], fullName: 'Jane' },
      count: 2,
    });
  });
});
