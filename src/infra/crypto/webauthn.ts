import { verifyAuthenticationResponse } from '@simplewebauthn/server';
import { randomBytes } from 'node:crypto';
import { canonicalJsonSha256Hex } from './canonical-json';
import { decodeBase64UrlStrict } from './encoding';
import {
  asList,
  checkAuthenticatorDataHeader,
  checkClientData,
  decodeClientData,
  readAuthenticatorDataHeader,
  StoredPasskeyCredential,
  stringField,
  WebAuthnFailure,
  webAuthnFailure,
} from './webauthn-common';

export * from './webauthn-common';
export * from './webauthn-registration';

/**
 * WebAuthn passkey assertions, shared by wallet passkey login (issue 7) and SCA (issue 6).
 * Checks run in the order DECISIONS.md lists them: credential id, challenge, origin, rp id hash,
 * user presence, signature, counter; each failure names its check. @simplewebauthn/server 14
 * verifies the signature (it neither compares the credential id nor lets us order the counter
 * check, so both are done here).
 */

/** Accepted as the assertion's `signature` in sandbox mode only; skips WebAuthn verification. */
export const SANDBOX_PASSKEY_SIGNATURE_LITERAL = 'sandbox-valid-passkey-signature';

/**
 * The WebAuthn challenge a ceremony must carry. Passkey login and SCA issue a lowercase hex
 * digest whose UTF-8 bytes are the challenge (`{hex}`); registration challenges are base64url of
 * random bytes chosen by the platform (`{base64url}`).
 */
export type ExpectedChallenge = { hex: string } | { base64url: string };

/** clientDataJSON.challenge for a hex challenge: base64url of the hex text's UTF-8 bytes. */
export function webAuthnChallengeFromHex(hex: string): string {
  return Buffer.from(hex, 'utf8').toString('base64url');
}

function expectedClientDataChallenge(challenge: ExpectedChallenge): string {
  return 'hex' in challenge ? webAuthnChallengeFromHex(challenge.hex) : challenge.base64url;
}

/**
 * A challenge bound to data: lowercase hex SHA-256 of its canonical JSON. For passkey login the
 * data is the canonical session-creation body (DECISIONS.md section 4).
 */
export function boundChallengeHex(data: unknown): string {
  return canonicalJsonSha256Hex(data);
}

export interface ScaDynamicLinkingData {
  challengeId: string;
  quoteId: string;
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
  /** What identifies the payee: destination account id or UMA address. */
  payee: string;
}

/** The PASSKEY SCA challenge (DECISIONS.md section 3, dynamic linking); any change to the quote changes it. */
export function scaDynamicLinkingChallengeHex(data: ScaDynamicLinkingData): string {
  return boundChallengeHex({ challengeId: data.challengeId, quoteId: data.quoteId, amount: data.amount, currency: data.currency, payee: data.payee });
}

/** Random bytes for a registration challenge (platforms make their own; tests and the CLI use this). */
export function generateRegistrationChallenge(): string {
  return randomBytes(32).toString('base64url');
}

export interface AssertionCheckInput {
  /** The assertion object from the request body (validated here; anything may arrive). */
  assertion: unknown;
  credential: StoredPasskeyCredential;
  expectedChallenge: ExpectedChallenge;
  allowedOrigins: readonly string[];
  /** The origin the client says the ceremony ran against (SCA's `origin`): must also match. */
  declaredOrigin?: string;
  rpId: string | readonly string[];
  /** True only when the service runs in sandbox mode: enables the legacy literal. */
  sandbox: boolean;
}

export type AssertionResult =
  | {
      ok: true;
      /** Store this as the credential's counter (unchanged for the sandbox literal). */
      newCounter: number;
      legacySandboxLiteral: boolean;
      userVerified: boolean;
    }
  | WebAuthnFailure;

export async function verifyPasskeyAssertion(input: AssertionCheckInput): Promise<AssertionResult> {
  if (input.sandbox && isSandboxLiteral(input.assertion)) {
    return { ok: true, newCounter: input.credential.counter, legacySandboxLiteral: true, userVerified: false };
  }
  const assertion = readAssertion(input.assertion);
  if (!assertion) return webAuthnFailure('MALFORMED', 'assertion needs base64url credentialId, clientDataJson, authenticatorData and signature');
  if (assertion.credentialId !== input.credential.credentialId) {
    return webAuthnFailure('CREDENTIAL_MISMATCH', 'assertion credentialId is not the registered passkey');
  }
  const clientData = decodeClientData(assertion.clientDataJson);
  if (!clientData) return webAuthnFailure('MALFORMED', 'clientDataJson is not base64url of a WebAuthn client data JSON');
  const clientDataFailure = checkClientData(clientData, {
    type: 'webauthn.get',
    challenge: expectedClientDataChallenge(input.expectedChallenge),
    allowedOrigins: input.allowedOrigins,
    declaredOrigin: input.declaredOrigin,
  });
  if (clientDataFailure) return clientDataFailure;
  const header = readAuthenticatorDataHeader(decodeBase64UrlStrict(assertion.authenticatorData)!);
  if (!header) return webAuthnFailure('MALFORMED', 'authenticatorData is shorter than 37 bytes');
  const headerFailure = checkAuthenticatorDataHeader(header, asList(input.rpId));
  if (headerFailure) return headerFailure;

  let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verification = await verifyAuthenticationResponse({
      response: {
        id: assertion.credentialId,
        rawId: assertion.credentialId,
        type: 'public-key',
        response: {
          clientDataJSON: assertion.clientDataJson,
          authenticatorData: assertion.authenticatorData,
          signature: assertion.signature,
          userHandle: assertion.userHandle,
        },
        clientExtensionResults: {},
      },
      expectedChallenge: clientData.challenge,
      expectedOrigin: clientData.origin,
      expectedRPID: [...asList(input.rpId)],
      // Counter 0 turns the library's counter check off; ours runs after the signature check.
      credential: { id: input.credential.credentialId, publicKey: new Uint8Array(Buffer.from(input.credential.publicKey, 'base64url')), counter: 0 },
      requireUserVerification: false,
    });
  } catch (error) {
    return webAuthnFailure('SIGNATURE_INVALID', `Assertion signature rejected: ${(error as Error).message}`);
  }
  if (!verification.verified) return webAuthnFailure('SIGNATURE_INVALID', 'Assertion signature does not verify');
  if (!isCounterAcceptable(input.credential.counter, header.counter)) {
    return webAuthnFailure('COUNTER_NOT_INCREASING', 'Assertion signature counter did not increase (replayed or cloned authenticator)');
  }
  return { ok: true, newCounter: header.counter, legacySandboxLiteral: false, userVerified: verification.authenticationInfo.userVerified };
}

/**
 * The counter must strictly increase. The one exception is the WebAuthn rule for authenticators
 * without a counter (synced passkeys always send 0): 0 after a stored 0 is accepted, and replays
 * are then stopped by the single-use challenge instead.
 */
export function isCounterAcceptable(storedCounter: number, receivedCounter: number): boolean {
  if (storedCounter === 0 && receivedCounter === 0) return true;
  return receivedCounter > storedCounter;
}

function isSandboxLiteral(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as Record<string, unknown>).signature === SANDBOX_PASSKEY_SIGNATURE_LITERAL;
}

interface AssertionFields {
  credentialId: string;
  clientDataJson: string;
  authenticatorData: string;
  signature: string;
  userHandle?: string;
}

function readAssertion(value: unknown): AssertionFields | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const source = value as Record<string, unknown>;
  const fields = {
    credentialId: stringField(source, 'credentialId'),
    clientDataJson: stringField(source, 'clientDataJson'),
    authenticatorData: stringField(source, 'authenticatorData'),
    signature: stringField(source, 'signature'),
  };
  if (!fields.credentialId || !fields.clientDataJson || !fields.authenticatorData || !fields.signature) return null;
  if (!decodeBase64UrlStrict(fields.credentialId) || !decodeBase64UrlStrict(fields.authenticatorData) || !decodeBase64UrlStrict(fields.signature)) return null;
  const userHandle = source.userHandle;
  if (userHandle !== undefined && userHandle !== null && (typeof userHandle !== 'string' || !decodeBase64UrlStrict(userHandle))) return null;
  return {
    credentialId: fields.credentialId,
    clientDataJson: fields.clientDataJson,
    authenticatorData: fields.authenticatorData,
    signature: fields.signature,
    userHandle: typeof userHandle === 'string' && userHandle !== '' ? userHandle : undefined,
  };
}
