import { createHash, generateKeyPairSync, KeyObject, randomBytes, sign } from 'node:crypto';
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
      this.authenticatorDataHeader(FLAG_USER_PRESENT | FLAG_USER_VERIFIED | FLAG_ATTESTED_DATA, 0),
      Buffer.alloc(16),
      idLength,
      credentialIdBytes,
      this.coseKey(),
    ]);
    const attestationObject = cborMap([
      [cborText('fmt'), cborText('none')],
      [cborText('attStmt'), cborMap([])],
      [cborText('authData'), cborBytes(authData)],
    ]);
    return { credentialId: this.credentialId, clientDataJson: clientDataJson.toString('base64url'), attestationObject: attestationObject.toString('base64url'), transports: ['internal'] };
  }

  /**
   * navigator.credentials.get() for a login challenge: the service's `challenge` is lowercase hex
   * whose UTF-8 bytes are the WebAuthn challenge (DECISIONS.md section 4).
   */
  assert(challengeHex: string): PasskeyAssertion {
    const clientDataJson = this.clientData('webauthn.get', Buffer.from(challengeHex, 'utf8').toString('base64url'));
    this.signCount += 1;
    const authenticatorData = this.authenticatorDataHeader(FLAG_USER_PRESENT | FLAG_USER_VERIFIED, this.signCount);
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

  private authenticatorDataHeader(flags: number, counter: number): Buffer {
    const counterBytes = Buffer.alloc(4);
    counterBytes.writeUInt32BE(counter);
    return Buffer.concat([createHash('sha256').update(this.options.rpId, 'utf8').digest(), Buffer.from([flags]), counterBytes]);
  }

  /** COSE EC2 key in minimal CBOR, keys in order 1, 3, -1, -2, -3 (kty EC2, ES256, P-256, x, y). */
  private coseKey(): Buffer {
    const jwk = this.publicKey.export({ format: 'jwk' });
    return cborMap([
      [cborInt(1), cborInt(2)],
      [cborInt(3), cborInt(-7)],
      [cborInt(-1), cborInt(1)],
      [cborInt(-2), cborBytes(Buffer.from(jwk.x!, 'base64url'))],
      [cborInt(-3), cborBytes(Buffer.from(jwk.y!, 'base64url'))],
    ]);
  }
}

function cborHead(major: number, argument: number): Buffer {
  if (argument < 24) return Buffer.from([(major << 5) | argument]);
  if (argument < 0x100) return Buffer.from([(major << 5) | 24, argument]);
  if (argument < 0x10000) return Buffer.from([(major << 5) | 25, argument >> 8, argument & 0xff]);
  const bytes = Buffer.alloc(5);
  bytes[0] = (major << 5) | 26;
  bytes.writeUInt32BE(argument, 1);
  return bytes;
}

function cborInt(value: number): Buffer {
  return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
}

function cborText(value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  return Buffer.concat([cborHead(3, bytes.length), bytes]);
}

function cborBytes(value: Buffer): Buffer {
  return Buffer.concat([cborHead(2, value.length), value]);
}

function cborMap(entries: Array<[Buffer, Buffer]>): Buffer {
  return Buffer.concat([cborHead(5, entries.length), ...entries.flat()]);
}
