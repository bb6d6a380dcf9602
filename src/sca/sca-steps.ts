import { SequenceStep } from './domain/sequence/sequence.events';

/** What a send is, as its SCA challenges link to it. */
export interface SendForSca {
  quoteId: string;
  sendingCurrency: string;
  receivingCurrency: string;
  /** Minor units of the sending currency. */
  totalSendingAmount: number;
  /** Minor units of the receiving currency. */
  totalReceivingAmount: number;
  /** Destination account id or UMA address. */
  payee: string;
}

/**
 * The challenges of a send (DECISIONS.md section 3): one `TRANSFER` for a same-currency send,
 * `CURRENCY_CONVERSION` then `PAYOUT` for a cross-currency one. A PASSKEY challenge links the
 * amount the step is about: what leaves (sending amount and currency) for a transfer and a
 * conversion, what arrives (receiving amount and currency) for the payout.
 */
export function sendChallengeSteps(send: SendForSca): SequenceStep[] {
  const sending = { quoteId: send.quoteId, amount: send.totalSendingAmount, currency: send.sendingCurrency, payee: send.payee };
  if (send.sendingCurrency === send.receivingCurrency) return [{ purpose: 'TRANSFER', linking: sending }];
  return [
    { purpose: 'CURRENCY_CONVERSION', linking: sending },
    { purpose: 'PAYOUT', linking: { quoteId: send.quoteId, amount: send.totalReceivingAmount, currency: send.receivingCurrency, payee: send.payee } },
  ];
}
