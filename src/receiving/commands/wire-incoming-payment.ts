import { WireTransaction, transactionOnWire } from '../../accounts';
import { incomingPaymentViewFromEvents } from '../queries/incoming-payment.reducers';

/** The payment as `GET /transactions/{id}` shows it, folded from its stream's events. */
export function wireIncomingPayment(events: Array<{ type: string; data: unknown }>, platformId: string): WireTransaction {
  const view = incomingPaymentViewFromEvents(events);
  if (!view) throw new Error('An incoming payment stream without its IncomingPaymentReceived event');
  return transactionOnWire(view, platformId);
}
