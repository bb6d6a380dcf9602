import { createHash, generateKeyPairSync, KeyObject, randomBytes, sign } from 'node:crypto';
import { encodeCbor } from '../../infra/crypto/cbor';
import type { PasskeyAssertion, PasskeyAttestation } from '../../infra/crypto/webauthn';

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_DATA = 0x40;

export interface SoftwarePasskeyOptions {
  /** The platform's `embeddedWalletConfig.rpId`. */
  rpId: string;
  /** One of the platform's `embeddedWalletConfig.allowedOrigins`. */
  origin: string;
}

/**
 * A software WebAuthn authenticator (no browser): one ES256 credential with "none" attestation
 * and a signature counter, producing the API's flat wire shapes. For tests and the CLI; a real
 * client calls navigator.credentials.create() / get() and sends the same fields.
 */
export class SoftwarePasskey {
  readonly credentialId: string;
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  private signCount = 0;

  constructor(private readonly options: SoftwarePasskeyOptions) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
    this.credentialId = randomBytes(32).toString('base64url');
  }

  /** A registration challenge, as the platform backend makes one: base64url of 32 random bytes. */
  static registrationChallenge(): string {
    return randomBytes(32).toString('base64url');
  }

  /** navigator.credentials.create(): the `attestation` of POST /auth/credentials. */
  register(challenge: string): PasskeyAttestation {
    const clientDataJson = this.clientData('webauthn.create', challenge);
    const credentialIdBytes = Buffer.from(this.credentialId, 'base64url');
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credentialIdBytes.length);
    const authData = Buffer.concat([
      authenticatorDataHeader(this.options.rpId, FLAG_USER_PRESENT | FLAG_USER_VERIFIED | FLAG_ATTESTED_DATA, 0),
      Buffer.alloc(16),
      idLength,
      credentialIdBytes,
      cosePublicKey(this.publicKey),
    ]);
    const attestationObject = encodeCbor(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]));
    return { credentialId: this.credentialId, clientDataJson: clientDataJson.toString('base64url'), attestationObject: attestationObject.toString('base64url'), transports: ['internal'] };
  }

  /**
   * navigator.credentials.get() for a login challenge: the service's `challenge` is lowercase hex
   * whose UTF-8 bytes are the WebAuthn challenge (DECISIONS.md section 4).
   */
  assert(challengeHex: string): PasskeyAssertion {
    const clientDataJson = this.clientData('webauthn.get', Buffer.from(challengeHex, 'utf8').toString('base64url'));
    this.signCount += 1;
    const authenticatorData = authenticatorDataHeader(this.options.rpId, FLAG_USER_PRESENT | FLAG_USER_VERIFIED, this.signCount);
    const clientDataHash = createHash('sha256').update(clientDataJson).digest();
    const signature = sign('sha256', Buffer.concat([authenticatorData, clientDataHash]), { key: this.privateKey, dsaEncoding: 'der' });
    return {
      credentialId: this.credentialId,
      clientDataJson: clientDataJson.toString('base64url'),
      authenticatorData: authenticatorData.toString('base64url'),
      signature: signature.toString('base64url'),
    };
  }

  private clientData(type: string, challenge: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.options.origin, crossOrigin: false }), 'utf8');
  }
}

/** The first 37 bytes of authenticator data: rp id hash, flags, signature counter. */
export function authenticatorDataHeader(rpId: string, flags: number, counter: number): Buffer {
  const counterBytes = Buffer.alloc(4);
  counterBytes.writeUInt32BE(counter);
  return Buffer.concat([createHash('sha256').update(rpId, 'utf8').digest(), Buffer.from([flags]), counterBytes]);
}

/** COSE EC2 key in minimal CBOR, keys in order 1, 3, -1, -2, -3 (kty EC2, ES256, P-256, x, y). */
export function cosePublicKey(publicKey: KeyObject): Buffer {
  const jwk = publicKey.export({ format: 'jwk' });
  return encodeCbor(
    new Map<number, unknown>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]),
  );
}
