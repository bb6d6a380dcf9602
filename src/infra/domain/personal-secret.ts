/**
 * The sealed form of secret personal fields as events carry it (pure: domain code may use it).
 * Sealing and opening are in src/infra/crypto/personal-data.ts.
 */
export const SEALED_ALGORITHM = 'AES-256-GCM';

/** The sealed form of one personal field, as events and read models store it (JSON). */
export interface SealedValue {
  $sealed: typeof SEALED_ALGORITHM;
  keyId: string;
  /** base64url, 12 bytes. */
  nonce: string;
  /** base64url: the ciphertext followed by the 16-byte GCM tag. */
  ciphertext: string;
}

/** A value of a secret personal field: sealed, or a plain string written before fields were sealed. */
export type PersonalSecret = string | SealedValue;

export function isSealed(value: unknown): value is SealedValue {
  return typeof value === 'object' && value !== null && (value as { $sealed?: unknown }).$sealed === SEALED_ALGORITHM;
}

/**
 * The id of a subject's data key. `generation` counts the subject's erasures: after an erasure a
 * new value is sealed under a new key, so an erased key id never comes back.
 */
export function personalDataKeyId(subjectId: string, generation: number): string {
  return `personal-data-key:${subjectId}:${generation}`;
}
