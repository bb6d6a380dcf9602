import { createHash, generateKeyPairSync, KeyObject, randomBytes, sign } from 'node:crypto';
import type { PasskeyAssertion, PasskeyAttestation, StoredPasskeyCredential } from '../../src/infra/crypto/webauthn';
import { SANDBOX_PASSKEY_SIGNATURE_LITERAL } from '../../src/infra/crypto/webauthn';

/**
 * A software WebAuthn authenticator for tests, no browser needed (CRYPTO-NOTES.md): one P-256
 * credential, "none" attestation, real ES256 assertions with a signature counter, and knobs to
 * produce the bad cases (wrong origin or rp id, no user presence, replayed counter, tampered data).
 * Output is the API's flat wire shape: { credentialId, clientDataJson, attestationObject } and
 * { credentialId, clientDataJson, authenticatorData, signature, userHandle? }, all base64url.
 */

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_DATA = 0x40;

export interface SoftwareAuthenticatorOptions {
  rpId: string;
  /** The origin ceremonies run against unless a call says otherwise, e.g. https://wallet.example.com */
  origin: string;
  /** Credential id bytes; default 32 random bytes. */
  credentialId?: Buffer;
  userHandle?: string;
}

export interface CeremonyOptions {
  origin?: string;
  rpId?: string;
  /** Clear the user-presence flag. */
  userPresent?: boolean;
  /** Clear the user-verified flag (user presence only). */
  userVerified?: boolean;
  /** Claim another credential id than the one signed for. */
  credentialIdOverride?: string;
  /** Mark the ceremony cross-origin (iframe), with a topOrigin. */
  crossOrigin?: boolean;
  /** Override clientData.type. */
  type?: string;
}

export interface AssertOptions extends CeremonyOptions {
  /** The challenge: hex digests (passkey login, SCA) or base64url of bytes. */
  challenge: { hex: string } | { base64url: string };
  /** Use this counter instead of incrementing (for a replay, pass the previous value). */
  counter?: number;
}

export class SoftwareAuthenticator {
  readonly rpId: string;
  readonly origin: string;
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  private readonly credentialIdBytes: Buffer;
  private readonly userHandle?: string;
  private signCount = 0;

  constructor(options: SoftwareAuthenticatorOptions) {
    this.rpId = options.rpId;
    this.origin = options.origin;
    const pair = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
    this.credentialIdBytes = options.credentialId ?? randomBytes(32);
    this.userHandle = options.userHandle;
  }

  get credentialId(): string {
    return this.credentialIdBytes.toString('base64url');
  }

  /** The last counter value sent. */
  get counter(): number {
    return this.signCount;
  }

  /** What the server stores after a successful registration (for tests that skip registering). */
  storedCredential(): StoredPasskeyCredential {
    return { credentialId: this.credentialId, publicKey: this.coseKey().toString('base64url'), counter: 0 };
  }

  /** navigator.credentials.create() with a base64url challenge; "none" attestation, counter 0. */
  register(options: CeremonyOptions & { challenge: string }): PasskeyAttestation {
    const clientDataJson = this.clientData(options.type ?? 'webauthn.create', options.challenge, options);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialIdBytes.length);
    const flags = this.flags(options) | FLAG_ATTESTED_DATA;
    const authData = Buffer.concat([this.header(options.rpId, flags, 0), Buffer.alloc(16), idLength, this.credentialIdBytes, this.coseKey()]);
    const attestationObject = encodeCbor(new Map<unknown, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]));
    return {
      credentialId: options.credentialIdOverride ?? this.credentialId,
      clientDataJson: clientDataJson.toString('base64url'),
      attestationObject: attestationObject.toString('base64url'),
      transports: ['internal'],
    };
  }

  /** navigator.credentials.get(): signs authenticatorData || sha256(clientDataJSON). */
  assert(options: AssertOptions): PasskeyAssertion {
    const challenge = 'hex' in options.challenge ? Buffer.from(options.challenge.hex, 'utf8').toString('base64url') : options.challenge.base64url;
    const clientDataJson = this.clientData(options.type ?? 'webauthn.get', challenge, options);
    const counter = options.counter ?? this.signCount + 1;
    this.signCount = Math.max(this.signCount, counter);
    const authenticatorData = this.header(options.rpId, this.flags(options), counter);
    const clientDataHash = createHash('sha256').update(clientDataJson).digest();
    const signature = sign('sha256', Buffer.concat([authenticatorData, clientDataHash]), { key: this.privateKey, dsaEncoding: 'der' });
    return {
      credentialId: options.credentialIdOverride ?? this.credentialId,
      clientDataJson: clientDataJson.toString('base64url'),
      authenticatorData: authenticatorData.toString('base64url'),
      signature: signature.toString('base64url'),
      ...(this.userHandle ? { userHandle: Buffer.from(this.userHandle, 'utf8').toString('base64url') } : {}),
    };
  }

  /** The legacy sandbox assertion: the literal signature, nothing else real. */
  legacySandboxAssertion(): PasskeyAssertion {
    return { credentialId: this.credentialId, clientDataJson: '', authenticatorData: '', signature: SANDBOX_PASSKEY_SIGNATURE_LITERAL };
  }

  private clientData(type: string, challenge: string, options: CeremonyOptions): Buffer {
    const data: Record<string, unknown> = { type, challenge, origin: options.origin ?? this.origin, crossOrigin: options.crossOrigin ?? false };
    if (options.crossOrigin) data.topOrigin = 'https://embedding.example.net';
    return Buffer.from(JSON.stringify(data), 'utf8');
  }

  private flags(options: CeremonyOptions): number {
    let flags = FLAG_USER_PRESENT | FLAG_USER_VERIFIED;
    if (options.userPresent === false) flags &= ~FLAG_USER_PRESENT;
    if (options.userVerified === false) flags &= ~FLAG_USER_VERIFIED;
    return flags;
  }

  private header(rpId: string | undefined, flags: number, counter: number): Buffer {
    const counterBytes = Buffer.alloc(4);
    counterBytes.writeUInt32BE(counter);
    return Buffer.concat([createHash('sha256').update(rpId ?? this.rpId, 'utf8').digest(), Buffer.from([flags]), counterBytes]);
  }

  /** COSE EC2 key, minimal CBOR in key order 1, 3, -1, -2, -3 (kty EC2, alg ES256, crv P-256, x, y). */
  private coseKey(): Buffer {
    const jwk = this.publicKey.export({ format: 'jwk' });
    return encodeCbor(
      new Map<unknown, unknown>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
  }
}

/** Flips one bit in the middle of the signature's s value: still DER, no longer valid. */
export function tamperSignature(assertion: PasskeyAssertion): PasskeyAssertion {
  const signature = Buffer.from(assertion.signature, 'base64url');
  signature[signature.length - 2] ^= 0x01;
  return { ...assertion, signature: signature.toString('base64url') };
}

/** Changes the counter bytes of the signed authenticator data (the signature no longer matches). */
export function tamperAuthenticatorData(assertion: PasskeyAssertion): PasskeyAssertion {
  const data = Buffer.from(assertion.authenticatorData, 'base64url');
  data[36] ^= 0x01;
  return { ...assertion, authenticatorData: data.toString('base64url') };
}

/** Rewrites fields of the signed client data (for example another challenge or origin). */
export function tamperClientData(assertion: PasskeyAssertion, changes: Record<string, unknown>): PasskeyAssertion {
  const data = JSON.parse(Buffer.from(assertion.clientDataJson, 'base64url').toString('utf8'));
  return { ...assertion, clientDataJson: Buffer.from(JSON.stringify({ ...data, ...changes }), 'utf8').toString('base64url') };
}

/** Minimal CBOR encoder for the test authenticator: integers, text, bytes and maps (in insertion order). */
export function encodeCbor(value: unknown): Buffer {
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (typeof value === 'number' && Number.isInteger(value)) return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (value instanceof Map) {
    const parts = [head(5, value.size)];
    for (const [key, item] of value) parts.push(encodeCbor(key), encodeCbor(item));
    return Buffer.concat(parts);
  }
  throw new Error(`encodeCbor: unsupported value ${String(value)}`);
}

function head(major: number, argument: number): Buffer {
  if (argument < 24) return Buffer.from([(major << 5) | argument]);
  if (argument < 0x100) return Buffer.from([(major << 5) | 24, argument]);
  if (argument < 0x10000) return Buffer.from([(major << 5) | 25, argument >> 8, argument & 0xff]);
  const bytes = Buffer.alloc(5);
  bytes[0] = (major << 5) | 26;
  bytes.writeUInt32BE(argument, 1);
  return bytes;
}
