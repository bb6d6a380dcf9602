import { DomainError } from '../../infra/domain/domain-error';

/**
 * A source balance too low for a quote: 400 INVALID_AMOUNT with `details.reason =
 * "INSUFFICIENT_FUNDS"` (the contract has no INSUFFICIENT_FUNDS code), plus the account, what is
 * available and what the quote needs.
 */
export const INSUFFICIENT_FUNDS = 'INSUFFICIENT_FUNDS';

export function insufficientFunds(details: { accountId: string; available: number; requested: number }): DomainError {
  return new DomainError('INVALID_AMOUNT', 'The account balance is too low for this quote', { reason: INSUFFICIENT_FUNDS, ...details });
}

/** Whether the ledger refused a hold for want of funds (under either code it may use). */
export function isInsufficientFunds(error: unknown): boolean {
  return error instanceof DomainError && (error.code === INSUFFICIENT_FUNDS || (error.code === 'INVALID_AMOUNT' && error.details?.reason === INSUFFICIENT_FUNDS));
}
