/** Lifetimes and budgets of the embedded-wallet flows (DECISIONS.md section 4). */

/** A Request-Id (two-step signed action, OTP login leg 1, passkey login challenge) lives 5 minutes. */
export const REQUEST_LIFETIME_MS = 5 * 60 * 1000;

/** An OTP challenge (its target key and code) lives 5 minutes. */
export const OTP_CHALLENGE_LIFETIME_MS = 5 * 60 * 1000;

export { SESSION_LIFETIME_MS } from './domain/session/session.decider';

/**
 * Per-credential budget of `/challenge` and of `/verify` calls (each counted on its own), over a
 * fixed window: past it the service answers 429 RATE_LIMITED with Retry-After. Ten calls a minute
 * cover a login (one challenge, two verify legs) several times over, and stop OTP guessing.
 */
export const RATE_LIMIT_BUDGET = 10;
export const RATE_LIMIT_WINDOW_MS = 60 * 1000;

/** Activity type of the session-creation body a passkey login challenge is bound to. */
export const CREATE_SESSION_ACTIVITY_TYPE = 'ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2';

/** Vault ids of the context's secrets (the KeyVault binds each ciphertext to its id). */
export const vaultIds = {
  otpTarget: (challengeId: string) => `wallet-otp-target:${challengeId}`,
  otpCode: (challengeId: string) => `wallet-otp-code:${challengeId}`,
  walletSecret: (accountId: string) => `wallet-secret:${accountId}`,
  delegatedKey: (delegatedKeyId: string) => `delegated-key:${delegatedKeyId}`,
};
