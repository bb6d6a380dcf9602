import { DomainError, FieldError } from '../../infra/domain/domain-error';

/**
 * Codes of the stablecoins context (all in src/infra/http/error-catalogue.ts): the reference's
 * STABLECOIN_PROVIDER_ACCOUNT_* codes, REFERENCE_NOT_FOUND for stablecoins and operations (the
 * reference has no code of their own), INVALID_INPUT and INVALID_AMOUNT (400), CONFLICT (409).
 */
export function providerAccountNotFound(details?: Record<string, unknown>): DomainError {
  return new DomainError('STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND', 'Stablecoin provider account link not found', details);
}

export function providerAccountRevoked(stablecoinProviderAccountId: string): DomainError {
  return new DomainError('STABLECOIN_PROVIDER_ACCOUNT_REVOKED', 'The stablecoin provider account link has been revoked', { stablecoinProviderAccountId });
}

export function providerAccountInvalid(details: Record<string, unknown>): DomainError {
  return new DomainError('STABLECOIN_PROVIDER_ACCOUNT_INVALID', 'The stablecoin provider account link is not usable', details);
}

export function providerAccountSelectionRequired(activeLinks: string[]): DomainError {
  return new DomainError(
    'STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED',
    'Several active provider account links exist; pass stablecoinProviderAccountId to select one',
    { stablecoinProviderAccountIds: activeLinks },
  );
}

export function stablecoinNotFound(): DomainError {
  return new DomainError('REFERENCE_NOT_FOUND', 'Stablecoin not found');
}

export function operationNotFound(): DomainError {
  return new DomainError('REFERENCE_NOT_FOUND', 'Stablecoin operation not found');
}

/** A body field the operation cannot take: 400 INVALID_INPUT naming it, with a machine-readable reason. */
export function fieldRefused(field: string, message: string, reason: string, details: Record<string, unknown> = {}): DomainError {
  const errors: FieldError[] = [{ field, constraint: {}, message }];
  return new DomainError('INVALID_INPUT', message, { errors, reason, ...details });
}

/** A burn larger than the supply not yet burned or reserved by pending burns. */
export function insufficientSupply(details: { stablecoinId: string; requested: number; outstanding: number; pendingBurns: number }): DomainError {
  const message = 'The burn exceeds the outstanding supply not already reserved by pending burns';
  return new DomainError('INVALID_AMOUNT', message, {
    reason: 'INSUFFICIENT_SUPPLY',
    ...details,
    errors: [{ field: 'amount', constraint: {}, message }],
  });
}
