import { createHash, generateKeyPairSync, KeyObject, randomBytes, sign } from 'node:crypto';
import type { PasskeyAssertion, PasskeyAttestation, StoredPasskeyCredential } from '../../src/infra/crypto/webauthn';
import { SANDBOX_PASSKEY_SIGNATURE_LITERAL } from '../../src/infra/crypto/webauthn';
import { encodeCbor } from '../../src/infra/crypto/cbor';
import { authenticatorDataHeader, cosePublicKey } from '../../src/wallet-auth/client/software-passkey';

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
    return { credentialId: this.credentialId, publicKey: cosePublicKey(this.publicKey).toString('base64url'), counter: 0 };
  }

  /** navigator.credentials.create() with a base64url challenge; "none" attestation, counter 0. */
  register(options: CeremonyOptions & { challenge: string }): PasskeyAttestation {
    const clientDataJson = this.clientData(options.type ?? 'webauthn.create', options.challenge, options);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialIdBytes.length);
    const flags = this.flags(options) | FLAG_ATTESTED_DATA;
    const authData = Buffer.concat([authenticatorDataHeader(options.rpId ?? this.rpId, flags, 0), Buffer.alloc(16), idLength, this.credentialIdBytes, cosePublicKey(this.publicKey)]);
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
    const authenticatorData = authenticatorDataHeader(options.rpId ?? this.rpId, this.flags(options), counter);
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
