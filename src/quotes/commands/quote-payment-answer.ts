import { WireTransaction, transactionOnWire } from '../../accounts';
import { DomainError } from '../../infra/domain/domain-error';
import { quoteTransactionViewFromEvents } from '../queries/quote-transaction.reducers';

/**
 * What `/transactions/{id}/cancel` and `/confirm` answer for a quote's payment: its transaction
 * as GET shows it, folded from the quote's stream through the events just recorded.
 */
export function quotePaymentAnswer(platformId: string, events: Array<{ type: string; data: unknown }>): WireTransaction {
  const view = quoteTransactionViewFromEvents(events as Array<{ type: string; data: Record<string, unknown> }>);
  if (!view) throw new DomainError('TRANSACTION_NOT_FOUND', 'Transaction not found');
  return transactionOnWire(view, platformId);
}
