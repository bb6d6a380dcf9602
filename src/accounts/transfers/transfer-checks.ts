import { DomainError, ValidationError } from '../../infra/domain/domain-error';

/** The requested rail, which the external account must support, or the first it supports. */
export function pickRail(requested: string | null, supported: string[], field: string): string {
  if (requested === null) return supported[0];
  if (!supported.includes(requested)) {
    throw new ValidationError([{ field, constraint: { enum: supported }, message: `${field} must be one the external account supports: ${supported.join(', ')}` }]);
  }
  return requested;
}

export function assertSameCurrency(source: string, destination: string): void {
  if (source !== destination) {
    throw new DomainError('INVALID_CURRENCY', `Transfers move one currency: the source holds ${source}, the destination ${destination}`, {
      sourceCurrency: source,
      destinationCurrency: destination,
    });
  }
}
