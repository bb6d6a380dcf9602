import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConfirmQuotePaymentReceipt, WireTransaction } from '../../accounts';
import { QuoteStore } from '../quote-store';
import { quotePaymentAnswer } from './quote-payment-answer';

/** The accounts context's ConfirmQuotePaymentReceipt (`POST /transactions/{id}/confirm` on a quote's payment). */
@CommandHandler(ConfirmQuotePaymentReceipt)
export class ConfirmQuotePaymentReceiptHandler implements ICommandHandler<ConfirmQuotePaymentReceipt, WireTransaction> {
  constructor(private readonly store: QuoteStore) {}

  async execute({ platformId, quoteId, receiptDeliveryConfirmedAt }: ConfirmQuotePaymentReceipt): Promise<WireTransaction> {
    const loaded = await this.store.loadFor(platformId, quoteId);
    const handled = await this.store.handle(platformId, quoteId, { type: 'ConfirmReceipt', receiptDeliveryConfirmedAt, now: new Date().toISOString() }, loaded);
    // Quote streams are read whole (QUOTE_STREAM fullReads): the stream the decision read, then its event.
    return quotePaymentAnswer(platformId, [...handled.recorded, ...handled.events]);
  }
}
