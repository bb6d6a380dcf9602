import { DomainError, FieldConstraint, ValidationError } from '../../infra/domain/domain-error';

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

/** 404s use the contract's generic `REFERENCE_NOT_FOUND`: it has no credential, session or account code. */
export function credentialNotFound(): DomainError {
  return new DomainError('REFERENCE_NOT_FOUND', 'Auth credential not found');
}

export function sessionNotFound(): DomainError {
  return new DomainError('REFERENCE_NOT_FOUND', 'Session not found');
}

export function walletAccountNotFound(): DomainError {
  return new DomainError('REFERENCE_NOT_FOUND', 'Internal account not found');
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

/**
 * Credentials were added or removed after the challenge or the 202 was issued. The contract's
 * code for it is a 409 that none of the wallet operations declares, so it is 400 INVALID_INPUT
 * with that code as `details.reason`: the request as issued can no longer be carried out, and the
 * remedy is to start it again (not to log in again, which a 401 would suggest).
 */
export function credentialSetChangedError(): DomainError {
  return new DomainError('INVALID_INPUT', "The wallet's credentials changed after this request was issued; start the request again", {
    reason: 'EMAIL_OTP_CREDENTIAL_SET_CHANGED',
  });
}

/**
 * An email that is another wallet's EMAIL_OTP credential: the contract's 409
 * `EMAIL_OTP_EMAIL_ALREADY_EXISTS` is not declared by `POST /auth/credentials`, so the declared 400
 * `EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS` carries it as `details.reason`.
 */
export function emailUsedByAnotherWallet(): DomainError {
  return new DomainError('EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS', 'This email address is already the EMAIL_OTP credential of another wallet', {
    reason: 'EMAIL_OTP_EMAIL_ALREADY_EXISTS',
  });
}

/**
 * An EMAIL_OTP or SMS_OTP credential sent without its contact takes the customer's; a customer
 * without one is 400 MISSING_MANDATORY_USER_INFO naming the field to send (or to set on the customer).
 */
export function missingContact(field: 'email' | 'phoneNumber'): DomainError {
  const what = field === 'email' ? 'an email address' : 'a phone number';
  const message = `The wallet's customer has no ${field === 'email' ? 'email' : 'phone number'}: send ${what} in ${field} or set it on the customer`;
  return new DomainError('MISSING_MANDATORY_USER_INFO', message, { errors: [{ field, constraint: {}, message }] });
}

export function fieldError(field: string, constraint: FieldConstraint, message: string): ValidationError {
  return new ValidationError([{ field, constraint, message }]);
}

export function delegatedKeyNotFound(): DomainError {
  return new DomainError('REFERENCE_NOT_FOUND', 'Delegated key not found');
}

/** `POST /auth/delegated-keys`: the card is unknown (or another platform's). */
export function delegatedKeyCardNotFound(): DomainError {
  return new DomainError('REFERENCE_NOT_FOUND', 'Card not found');
}

/** `POST /auth/delegated-keys`: the internal account is not (or no longer) a funding source of the card. */
export function cardFundingSourceNotFound(): DomainError {
  return new DomainError('REFERENCE_NOT_FOUND', 'Card funding source not found: the card is not funded by this internal account');
}

/** A card funding source holds one ACTIVE delegated key at a time: revoke it before creating another. */
export function delegatedKeyAlreadyActive(activeKeyId: string): DomainError {
  return new DomainError('CONFLICT', 'An ACTIVE delegated key already exists for this card funding source; revoke it before creating another', {
    reason: 'DELEGATED_KEY_ALREADY_ACTIVE',
    delegatedKeyId: activeKeyId,
  });
}

/** Only an ACTIVE key is revoked (the reference's 400 for a PENDING or an already REVOKED key). */
export function delegatedKeyNotActive(status: string): DomainError {
  return new DomainError('INVALID_INPUT', `The delegated key is ${status}; only an ACTIVE delegated key can be revoked`, {
    reason: 'DELEGATED_KEY_NOT_ACTIVE',
    status,
  });
}
