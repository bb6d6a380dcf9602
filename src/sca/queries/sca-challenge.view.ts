import { webAuthnChallengeFromHex } from '../../infra/crypto/webauthn';
import { ChallengeFactor, PasskeyChallengeData, ScaPurpose } from '../domain/sca-factor';

/** An ScaChallenge exactly as SPEC.md shows it ("ScaChallenge"). */
export interface ScaChallengeView {
  id: string;
  expiresAt: string;
  factor: ChallengeFactor;
  availableFactors: ChallengeFactor[];
  /** Omitted when the operation's steps are not distinguished (login). */
  purpose?: ScaPurpose;
  /** Only for PASSKEY challenges. */
  passkeyAssertionOptions?: PasskeyAssertionOptions;
  /** Only for enrollment and login passkey challenges; per-transaction ones omit it. */
  passkeyAllowedOrigins?: string[];
}

/**
 * WebAuthn request options in their JSON form (PublicKeyCredentialRequestOptionsJSON, as browser
 * helpers take them): `challenge` is base64url of the UTF-8 bytes of the challenge hex.
 */
export interface PasskeyAssertionOptions {
  rpId: string;
  challenge: string;
  allowCredentials: Array<{ type: 'public-key'; id: string; transports: string[] }>;
  userVerification: 'preferred';
  timeout: number;
}

export interface ChallengeViewInput {
  challengeId: string;
  factor: ChallengeFactor;
  availableFactors: ChallengeFactor[];
  purpose: ScaPurpose | null;
  issuedAt: string;
  expiresAt: string;
  passkey: PasskeyChallengeData | null;
  /** Given for enrollment and login challenges only. */
  allowedOrigins?: string[] | null;
}

export function scaChallengeView(input: ChallengeViewInput): ScaChallengeView {
  const view: ScaChallengeView = {
    id: input.challengeId,
    expiresAt: input.expiresAt,
    factor: input.factor,
    availableFactors: input.availableFactors,
  };
  if (input.purpose) view.purpose = input.purpose;
  if (input.factor === 'PASSKEY' && input.passkey) {
    view.passkeyAssertionOptions = {
      rpId: input.passkey.rpId,
      challenge: webAuthnChallengeFromHex(input.passkey.challengeHex),
      allowCredentials: [{ type: 'public-key', id: input.passkey.credentialId, transports: input.passkey.transports }],
      userVerification: 'preferred',
      timeout: Math.max(0, Date.parse(input.expiresAt) - Date.parse(input.issuedAt)),
    };
    if (input.allowedOrigins) view.passkeyAllowedOrigins = input.allowedOrigins;
  }
  return view;
}
