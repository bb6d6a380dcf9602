import { Command } from '@nestjs/cqrs';
import { WireTransaction } from '../queries/transaction-wire';

/*
 * Ports to the quotes context: `POST /transactions/{id}/...` is served here, but a quote's
 * payment lives on the quote's stream, and quotes depend on accounts (not the other way round).
 * Accounts owns these commands; the quotes context handles them (its module registers the
 * handlers), and CancelTransaction / ConfirmReceiptDelivery send them for quote payments.
 */

/** Cancel the bank payout of quote `quoteId` before it settles (TRANSACTION_NOT_CANCELLABLE otherwise). */
export class CancelQuotePayment extends Command<WireTransaction> {
  constructor(
    readonly platformId: string,
    readonly quoteId: string,
    readonly reason: string | null,
  ) {
    super();
  }
}

/** Record the receipt delivery of quote `quoteId`'s payment at `receiptDeliveryConfirmedAt`. */
export class ConfirmQuotePaymentReceipt extends Command<WireTransaction> {
  constructor(
    readonly platformId: string,
    readonly quoteId: string,
    readonly receiptDeliveryConfirmedAt: string,
  ) {
    super();
  }
}
