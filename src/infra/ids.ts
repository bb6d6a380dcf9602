import { createHash, randomFillSync } from 'node:crypto';

/**
 * Identifiers are `<Type>:<uuid v7>` (DECISIONS.md section 1). Streams are `<category>-<uuid>`.
 */
export const ID_PREFIXES = [
  'Quote',
  'Transaction',
  'Customer',
  'InternalAccount',
  'ExternalAccount',
  'AuthMethod',
  'Session',
  'Request',
  'ScaChallenge',
  'Webhook',
  'Card',
  'Document',
  'Verification',
  'Platform',
  'ScaFactor',
  'ScaFactorReset',
  'Job',
  'WebhookDelivery',
  'LookupRequest',
  'Invitation',
  'Token',
  'DelegatedKey',
  'CardFundingSource',
  'Agent',
  'AgentAction',
  'BeneficialOwner',
  'CardTransaction',
  'Stablecoin',
  'StablecoinOperation',
  'StablecoinProviderAccount',
] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let lastV7Millis = 0;
let v7Sequence = 0;

/** Random bytes for uuid v7s, drawn from the CSPRNG 4 KiB at a time (one call per 256 ids). */
const entropy = Buffer.alloc(4096);
let entropyOffset = entropy.length;

function randomSixteen(): Buffer {
  if (entropyOffset + 16 > entropy.length) {
    randomFillSync(entropy);
    entropyOffset = 0;
  }
  const bytes = Buffer.from(entropy.subarray(entropyOffset, entropyOffset + 16));
  entropyOffset += 16;
  return bytes;
}

/** RFC 9562 uuid v7: 48-bit unix millis, then random bits; monotonic within one process. */
export function uuidv7(nowMillis: number = Date.now()): string {
  const bytes = randomSixteen();
  let millis = nowMillis;
  if (millis <= lastV7Millis) {
    millis = lastV7Millis;
    v7Sequence = (v7Sequence + 1) & 0xfff;
    if (v7Sequence === 0) millis = ++lastV7Millis;
  } else {
    v7Sequence = bytes[6] & 0x0f;
  }
  lastV7Millis = millis;
  bytes[0] = Math.floor(millis / 2 ** 40) & 0xff;
  bytes[1] = Math.floor(millis / 2 ** 32) & 0xff;
  bytes[2] = (millis >>> 24) & 0xff;
  bytes[3] = (millis >>> 16) & 0xff;
  bytes[4] = (millis >>> 8) & 0xff;
  bytes[5] = millis & 0xff;
  bytes[6] = 0x70 | ((v7Sequence >> 8) & 0x0f);
  bytes[7] = v7Sequence & 0xff;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  return formatUuid(bytes);
}

/** Namespace for the service's deterministic ids (uuid v5 of business keys). */
const SERVICE_NAMESPACE = Buffer.from('6f1c0e4a2b7d4c1e9a3f5d8b7c6e4a21', 'hex');

/** RFC 9562 uuid v5 of a business key, e.g. `quote:<uuid>:hold`, so retried steps are no-ops. */
export function uuidv5(name: string, namespace: Buffer = SERVICE_NAMESPACE): string {
  const hash = createHash('sha1').update(namespace).update(name, 'utf8').digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  return formatUuid(bytes);
}

/**
 * A uuid v7 that is a function of (`name`, `millis`): its 48-bit time is `millis` and its other
 * 74 bits come from SHA-256 of the name. For resource ids that must be deterministic (an account
 * opened twice by a retry is one account) and still be `<Type>:<uuid v7>` (DECISIONS.md section 1).
 */
export function uuidv7From(name: string, millis: number): string {
  const bytes = createHash('sha256').update(SERVICE_NAMESPACE).update(name, 'utf8').digest().subarray(0, 16);
  const time = Math.max(0, Math.min(Math.floor(millis), 2 ** 48 - 1));
  bytes[0] = Math.floor(time / 2 ** 40) & 0xff;
  bytes[1] = Math.floor(time / 2 ** 32) & 0xff;
  bytes[2] = (time >>> 24) & 0xff;
  bytes[3] = (time >>> 16) & 0xff;
  bytes[4] = (time >>> 8) & 0xff;
  bytes[5] = time & 0xff;
  bytes[6] = 0x70 | (bytes[6] & 0x0f);
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  return formatUuid(bytes);
}

/** The unix millis of a uuid v7 (or of a prefixed id `Type:<uuid v7>`); null for other uuids. */
export function uuidv7Millis(idOrUuid: string): number | null {
  const uuid = idOrUuid.slice(idOrUuid.indexOf(':') + 1);
  if (!isUuid(uuid) || uuid[14] !== '7') return null;
  return parseInt(uuid.slice(0, 8) + uuid.slice(9, 13), 16);
}

function formatUuid(bytes: Buffer): string {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export function isUuid(text: string): boolean {
  return UUID_PATTERN.test(text);
}

export function newId(prefix: IdPrefix, nowMillis?: number): string {
  return `${prefix}:${uuidv7(nowMillis)}`;
}

/** Parses `Prefix:<uuid>`; returns the uuid or null when the id is malformed or of another type. */
export function parseId(prefix: IdPrefix, id: unknown): string | null {
  if (typeof id !== 'string') return null;
  const colon = id.indexOf(':');
  if (colon < 0 || id.slice(0, colon) !== prefix) return null;
  const uuid = id.slice(colon + 1);
  return isUuid(uuid) ? uuid : null;
}

/**
 * The field-error hint (FieldConstraint) for an id field: the named format `Customer-id`, or,
 * when several id types are accepted, the pattern they share.
 */
export function idConstraint(...prefixes: [IdPrefix, ...IdPrefix[]]): { format: string } | { pattern: string } {
  if (prefixes.length === 1) return { format: `${prefixes[0]}-id` };
  return { pattern: `^(${prefixes.join('|')}):${UUID_PATTERN.source.slice(1)}` };
}

/** `Quote:<uuid>` -> `quote-<uuid>`. Category is the prefix with a lowercase first letter. */
export function streamNameFor(id: string): string {
  const colon = id.indexOf(':');
  const prefix = id.slice(0, colon);
  return `${prefix.charAt(0).toLowerCase()}${prefix.slice(1)}-${id.slice(colon + 1)}`;
}
