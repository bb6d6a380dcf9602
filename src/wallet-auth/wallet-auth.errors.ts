import { DomainError, ValidationError } from '../infra/domain/domain-error';

/**
 * The embedded-wallet context's refusals, all from the catalogue (SPEC.md "Errors"). Wallet-flow
 * 401s carry `details.reason`, a sentence naming the failed check (SPEC.md "Authentication" 8).
 */

/** 401 UNAUTHORIZED with the failed check in `details.reason` (and a machine-readable `check`). */
export function walletUnauthorized(reason: string, check?: string): DomainError {
  return new DomainError('UNAUTHORIZED', reason, check ? { reason, check } : { reason });
}

/** 401 with one of the wallet-signature codes. */
export function walletSignatureError(
  code: 'WALLET_SIGNATURE_MISSING' | 'WALLET_SIGNATURE_MALFORMED' | 'WALLET_SIGNATURE_BODY_MISMATCH' | 'WALLET_SIGNATURE_INVALID' | 'REQUEST_ID_MISSING' | 'INVALID_SIGNATURE',
  reason: string,
): DomainError {
  return new DomainError(code, reason, { reason });
}

export function credentialNotFound(): DomainError {
  return new DomainError('NOT_FOUND', 'Auth credential not found');
}

export function sessionNotFound(): DomainError {
  return new DomainError('NOT_FOUND', 'Session not found');
}

export function walletAccountNotFound(): DomainError {
  return new DomainError('NOT_FOUND', 'Internal account not found');
}

/**
 * The last credential of a wallet cannot be removed. 400 INVALID_INPUT (as the production service
 * answers), with `details.reason = "LAST_CREDENTIAL"` so clients can tell it from field errors.
 */
export function lastCredentialError(): DomainError {
  return new DomainError('INVALID_INPUT', 'An embedded wallet keeps at least one credential: add another before removing this one', {
    reason: 'LAST_CREDENTIAL',
  });
}

/** 409: credentials were added or removed after the challenge or the 202 was issued. */
export function credentialSetChangedError(): DomainError {
  return new DomainError(
    'EMAIL_OTP_CREDENTIAL_SET_CHANGED',
    "The wallet's credentials changed after this request was issued; start the request again",
  );
}

export function fieldError(field: string, constraint: 'FORMAT' | 'ENUM' | 'REQUIRED' | 'TYPE', message: string): ValidationError {
  return new ValidationError([{ field, constraint, message }]);
}
