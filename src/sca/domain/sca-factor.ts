/**
 * SCA factors and step purposes (SPEC.md "ScaFactor", "ScaChallenge"). TOTP is a known factor,
 * but it cannot carry dynamic linking, so per-transaction challenges never use it; the service
 * offers no TOTP enrollment, so no customer has it among their available factors.
 */
export const SCA_FACTORS = ['SMS_OTP', 'TOTP', 'PASSKEY'] as const;
export type ScaFactor = (typeof SCA_FACTORS)[number];

/** Factors a challenge can be issued for (login and per-transaction). */
export type ChallengeFactor = 'SMS_OTP' | 'PASSKEY';

/** Step labels of per-transaction challenges; informational, the set is open-ended. */
export type ScaPurpose = 'TRANSFER' | 'CURRENCY_CONVERSION' | 'PAYOUT';

/** What a PASSKEY challenge binds (dynamic linking), without the challenge id. */
export interface ScaLinking {
  quoteId: string;
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
  /** Destination account id or UMA address. */
  payee: string;
}

/** The public data of a PASSKEY challenge (the WebAuthn request options are built from it). */
export interface PasskeyChallengeData {
  /** Lowercase hex whose UTF-8 bytes are the WebAuthn challenge. */
  challengeHex: string;
  rpId: string;
  credentialId: string;
  transports: string[];
}
