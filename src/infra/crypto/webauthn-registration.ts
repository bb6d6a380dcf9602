import { verifyRegistrationResponse } from '@simplewebauthn/server';
import { CborValue, decodeCbor } from './cbor';
import { decodeBase64UrlStrict } from './encoding';
import {
  asList,
  AUTHENTICATOR_FLAG_ATTESTED_DATA,
  checkAuthenticatorDataHeader,
  checkClientData,
  decodeClientData,
  readAuthenticatorDataHeader,
  StoredPasskeyCredential,
  stringField,
  WebAuthnFailure,
  webAuthnFailure,
} from './webauthn-common';

/**
 * Passkey registration (wallet PASSKEY credentials, SCA passkey enrollment): our own checks run
 * first, in a fixed order, so each failure has its own reason; @simplewebauthn/server then
 * verifies the attestation statement itself. Per CRYPTO-NOTES.md: expectedRPID is always passed
 * (the library skips the rp id check without it), user verification is not required (user
 * presence is), and the credential id the client claims must be the one in the authenticator data.
 */

/** Registration challenges come from the platform: canonical base64url of at least this many random bytes. */
export const MIN_REGISTRATION_CHALLENGE_BYTES = 16;

export interface RegistrationCheckInput {
  /** The `attestation` object of the request body (validated here; anything may arrive). */
  attestation: unknown;
  /** The `challenge` of the request body: base64url, as passed to navigator.credentials.create(). */
  expectedChallenge: string;
  allowedOrigins: readonly string[];
  rpId: string | readonly string[];
}

export interface RegisteredPasskey extends StoredPasskeyCredential {
  transports: string[];
  aaguid: string;
  attestationFormat: string;
  userVerified: boolean;
  backedUp: boolean;
}

export type RegistrationResult = { ok: true; credential: RegisteredPasskey } | WebAuthnFailure;

export async function verifyPasskeyRegistration(input: RegistrationCheckInput): Promise<RegistrationResult> {
  const attestation = readAttestation(input.attestation);
  if (!attestation) return webAuthnFailure('MALFORMED', 'attestation needs base64url credentialId, clientDataJson and attestationObject');
  const challengeBytes = decodeBase64UrlStrict(input.expectedChallenge);
  if (!challengeBytes || challengeBytes.length < MIN_REGISTRATION_CHALLENGE_BYTES) {
    return webAuthnFailure('MALFORMED', `challenge must be canonical base64url of at least ${MIN_REGISTRATION_CHALLENGE_BYTES} bytes`);
  }
  const clientData = decodeClientData(attestation.clientDataJson);
  if (!clientData) return webAuthnFailure('MALFORMED', 'clientDataJson is not base64url of a WebAuthn client data JSON');
  const clientDataFailure = checkClientData(clientData, {
    type: 'webauthn.create',
    challenge: input.expectedChallenge,
    allowedOrigins: input.allowedOrigins,
  });
  if (clientDataFailure) return clientDataFailure;

  const authData = readAttestedAuthData(attestation.attestationObject);
  if (!authData) return webAuthnFailure('MALFORMED', 'attestationObject is not a CBOR attestation with attested credential data');
  const header = readAuthenticatorDataHeader(authData.bytes);
  const headerFailure = header && checkAuthenticatorDataHeader(header, asList(input.rpId));
  if (headerFailure) return headerFailure;
  if (authData.credentialId !== attestation.credentialId) {
    return webAuthnFailure('CREDENTIAL_MISMATCH', 'credentialId is not the credential in the attestation');
  }

  let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verification = await verifyRegistrationResponse({
      response: {
        id: attestation.credentialId,
        rawId: attestation.credentialId,
        type: 'public-key',
        response: {
          clientDataJSON: attestation.clientDataJson,
          attestationObject: attestation.attestationObject,
          transports: attestation.transports as never,
        },
        clientExtensionResults: {},
      },
      expectedChallenge: input.expectedChallenge,
      expectedOrigin: clientData.origin,
      expectedRPID: [...asList(input.rpId)],
      requireUserVerification: false,
    });
  } catch (error) {
    return webAuthnFailure('ATTESTATION_INVALID', `Attestation rejected: ${(error as Error).message}`);
  }
  if (!verification.verified) return webAuthnFailure('ATTESTATION_INVALID', 'Attestation statement does not verify');
  const info = verification.registrationInfo;
  return {
    ok: true,
    credential: {
      credentialId: info.credential.id,
      publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
      counter: info.credential.counter,
      transports: attestation.transports,
      aaguid: info.aaguid,
      attestationFormat: info.fmt,
      userVerified: info.userVerified,
      backedUp: info.credentialBackedUp,
    },
  };
}

interface AttestationFields {
  credentialId: string;
  clientDataJson: string;
  attestationObject: string;
  transports: string[];
}

function readAttestation(value: unknown): AttestationFields | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const source = value as Record<string, unknown>;
  const credentialId = stringField(source, 'credentialId');
  const clientDataJson = stringField(source, 'clientDataJson');
  const attestationObject = stringField(source, 'attestationObject');
  if (!credentialId || !clientDataJson || !attestationObject) return null;
  if (!decodeBase64UrlStrict(credentialId) || !decodeBase64UrlStrict(attestationObject)) return null;
  const transports = source.transports ?? [];
  if (!Array.isArray(transports) || !transports.every((item) => typeof item === 'string')) return null;
  return { credentialId, clientDataJson, attestationObject, transports };
}

/** authData of the attestation object, with the credential id of its attested credential data. */
function readAttestedAuthData(attestationObject: string): { bytes: Buffer; credentialId: string } | null {
  let decoded: CborValue;
  try {
    decoded = decodeCbor(decodeBase64UrlStrict(attestationObject)!);
  } catch {
    return null;
  }
  if (!(decoded instanceof Map)) return null;
  const bytes = decoded.get('authData');
  if (!Buffer.isBuffer(bytes) || typeof decoded.get('fmt') !== 'string' || !(decoded.get('attStmt') instanceof Map)) return null;
  // rpIdHash (32) flags (1) counter (4) aaguid (16) credentialIdLength (2) credentialId ...
  if (bytes.length < 55 || (bytes[32] & AUTHENTICATOR_FLAG_ATTESTED_DATA) === 0) return null;
  const idLength = bytes.readUInt16BE(53);
  if (bytes.length < 55 + idLength) return null;
  return { bytes, credentialId: bytes.subarray(55, 55 + idLength).toString('base64url') };
}
