import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { decodeBase64UrlStrict } from './encoding';
import { PersonalSecret, SEALED_ALGORITHM, SealedValue, isSealed } from '../domain/personal-secret';

export { SEALED_ALGORITHM, isSealed, personalDataKeyId } from '../domain/personal-secret';
export type { PersonalSecret, SealedValue } from '../domain/personal-secret';

/**
 * Personal data at rest: secret personal fields are sealed with a per-subject (per-customer) data
 * key before they enter an event, so the event log and the read models hold only this envelope.
 * The data keys live wrapped by the master key in the KeyVault; deleting a subject's key erases
 * every value sealed with it at once, in every event and projection (crypto-shredding).
 *
 * AES-256-GCM, a fresh 96-bit nonce per value, the 16-byte tag appended to the ciphertext, and
 * associated data binding the value to its key, subject and field: an envelope copied onto another
 * customer or another field does not open.
 */
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** A sealed value that does not open under its own key: altered, or moved to another subject or field. */
export class PersonalDataIntegrityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PersonalDataIntegrityError';
  }
}

function associatedData(keyId: string, subjectId: string, field: string): Buffer {
  return Buffer.from(JSON.stringify(['personal-data', keyId, subjectId, field]), 'utf8');
}

export function sealWithKey(key: Buffer, keyId: string, subjectId: string, field: string, plaintext: string): SealedValue {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(associatedData(keyId, subjectId, field));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return { $sealed: SEALED_ALGORITHM, keyId, nonce: nonce.toString('base64url'), ciphertext: ciphertext.toString('base64url') };
}

/** Opens `sealed` with its key, or throws PersonalDataIntegrityError. */
export function openWithKey(key: Buffer, sealed: SealedValue, subjectId: string, field: string): string {
  const nonce = decodeBase64UrlStrict(sealed.nonce);
  const data = decodeBase64UrlStrict(sealed.ciphertext);
  if (!nonce || nonce.length !== NONCE_BYTES || !data || data.length < TAG_BYTES) {
    throw new PersonalDataIntegrityError(`malformed sealed value for ${field} of ${subjectId}`);
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, nonce);
    decipher.setAAD(associatedData(sealed.keyId, subjectId, field));
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    return Buffer.concat([decipher.update(data.subarray(0, data.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new PersonalDataIntegrityError(`sealed value for ${field} of ${subjectId} does not authenticate`);
  }
}

/** What an answer shows for an erased value of a field the contract requires (optional ones are left out). */
export const ERASED_PLACEHOLDER = '[erased]';

/** A sealed value whose key was erased, as the audit history shows it: the envelope, marked. */
export type ErasedSealedValue = SealedValue & { erased: true };

/** `data` with every sealed value under one of `erasedKeyIds` marked `erased: true` (any depth). */
export function markErased(data: unknown, erasedKeyIds: ReadonlySet<string>): unknown {
  if (isSealed(data)) return erasedKeyIds.has(data.keyId) ? ({ ...data, erased: true } satisfies ErasedSealedValue) : data;
  if (Array.isArray(data)) return data.map((item) => markErased(item, erasedKeyIds));
  if (typeof data === 'object' && data !== null) {
    return Object.fromEntries(Object.entries(data).map(([key, value]) => [key, markErased(value, erasedKeyIds)]));
  }
  return data;
}

/** Where data keys are kept (the KeyVault). */
export interface DataKeySource {
  createDataKey(keyId: string): Promise<void>;
  dataKey(keyId: string): Promise<Buffer | null>;
}

export interface PersonalDataKeysOptions {
  /** How long a process keeps an unwrapped key: an erasure reaches a process's caches within this. */
  cacheTtlMs: number;
  /** At most this many unwrapped keys per process (least recently used evicted first). */
  maxCachedKeys: number;
}

export const DEFAULT_PERSONAL_DATA_KEYS_OPTIONS: PersonalDataKeysOptions = { cacheTtlMs: 30_000, maxCachedKeys: 1_000 };

/**
 * Seals and opens personal fields with subjects' data keys. Unwrapped keys are cached briefly
 * per process (bounded); a missing key is never cached, so an erasure is seen at once on a miss.
 */
export class PersonalDataKeys {
  private readonly cache = new Map<string, { key: Buffer; expiresAtMs: number }>();

  constructor(
    private readonly source: DataKeySource,
    private readonly options: PersonalDataKeysOptions = DEFAULT_PERSONAL_DATA_KEYS_OPTIONS,
    private readonly nowMs: () => number = Date.now,
  ) {}

  /** Creates the key if absent (idempotent). */
  async create(keyId: string): Promise<void> {
    await this.source.createDataKey(keyId);
  }

  async seal(keyId: string, subjectId: string, field: string, plaintext: string): Promise<SealedValue> {
    let key = await this.key(keyId);
    if (!key) {
      await this.create(keyId);
      key = await this.key(keyId);
    }
    if (!key) throw new Error(`data key ${keyId} could not be created`);
    return sealWithKey(key, keyId, subjectId, field, plaintext);
  }

  /**
   * The plaintext of a field: a plain (pre-sealing) string as it is, a sealed value opened, or
   * null when its key was erased. Throws PersonalDataIntegrityError for an altered or moved value.
   */
  async open(value: PersonalSecret, subjectId: string, field: string): Promise<string | null> {
    if (!isSealed(value)) return value;
    const key = await this.key(value.keyId);
    if (!key) return null;
    return openWithKey(key, value, subjectId, field);
  }

  /** Drops a key from this process's cache (the erasure path calls it right after destroying the key). */
  forget(keyId: string): void {
    this.cache.delete(keyId);
  }

  private async key(keyId: string): Promise<Buffer | null> {
    const now = this.nowMs();
    const cached = this.cache.get(keyId);
    if (cached && cached.expiresAtMs > now) {
      // Re-inserted so the Map's order is least recently used first.
      this.cache.delete(keyId);
      this.cache.set(keyId, cached);
      return cached.key;
    }
    if (cached) this.cache.delete(keyId);
    const key = await this.source.dataKey(keyId);
    if (!key) return null;
    this.cache.set(keyId, { key, expiresAtMs: now + this.options.cacheTtlMs });
    while (this.cache.size > this.options.maxCachedKeys) this.cache.delete(this.cache.keys().next().value as string);
    return key;
  }
}
