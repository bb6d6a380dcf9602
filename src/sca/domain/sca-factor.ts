/**
 * SCA factors and step purposes (SPEC.md "ScaFactor", "ScaChallenge"). TOTP is enrolled and opens
 * SCA logins, but it cannot carry dynamic linking, so per-transaction challenges never use it.
 */
export const SCA_FACTORS = ['SMS_OTP', 'TOTP', 'PASSKEY'] as const;
export type ScaFactor = (typeof SCA_FACTORS)[number];

/** Factors a per-transaction challenge can be issued for (and login). */
export type ChallengeFactor = 'SMS_OTP' | 'PASSKEY';

/** Factors an SCA login can use: the challenge factors and TOTP. */
export type LoginFactor = ChallengeFactor | 'TOTP';

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
