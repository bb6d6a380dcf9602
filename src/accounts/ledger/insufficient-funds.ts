import { DomainError } from '../../infra/domain/domain-error';

/**
 * A balance too low for a hold, as every request path answers it: 400 INVALID_AMOUNT with
 * `details.reason = "INSUFFICIENT_FUNDS"` (the contract has no INSUFFICIENT_FUNDS code), plus the
 * account, what is available and what was asked. The ledger's decider refuses with its own
 * INSUFFICIENT_FUNDS code; quotes and transfers answer with this.
 */
export const INSUFFICIENT_FUNDS = 'INSUFFICIENT_FUNDS';

export function insufficientFunds(details: { accountId: string; requested: number; available?: number }, subject: 'quote' | 'amount' = 'amount'): DomainError {
  return new DomainError('INVALID_AMOUNT', `The account balance is too low for this ${subject}`, { reason: INSUFFICIENT_FUNDS, ...details });
}

/** Whether the ledger refused a hold for want of funds (under either code it may come with). */
export function isInsufficientFunds(error: unknown): boolean {
  return error instanceof DomainError && (error.code === INSUFFICIENT_FUNDS || (error.code === 'INVALID_AMOUNT' && error.details?.reason === INSUFFICIENT_FUNDS));
}
