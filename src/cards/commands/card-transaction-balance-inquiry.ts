import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { newId } from '../../infra/ids';
import { cardAuthorizationScenario } from '../../sandbox';
import { cardTransactionDecider, declineReason } from '../domain/card-transaction/card-transaction.decider';
import { CardMerchant, CardTransactionEvent } from '../domain/card-transaction/card-transaction.events';
import { SimulationAnswer } from './card-transaction-authorize';
import { CardTransactionWriter } from './card-transaction-commit';
import { CardFundingAccounts } from './card-transaction-funding';

/** A sandbox BALANCE_INQUIRY (a 0-amount authorization): moves no money, shows no CardTransaction. */
export class AnswerCardBalanceInquiry extends Command<SimulationAnswer> {
  constructor(
    readonly platformId: string,
    readonly cardId: string,
    readonly merchant: CardMerchant,
  ) {
    super();
  }
}

/**
 * An ACTIVE card (and a descriptor without `003`) answers what its ACTIVE funding accounts have
 * available (`CardBalanceInquiryAnswered`); any other card declines it (`CardAuthorizationDeclined`,
 * kind BALANCE_INQUIRY). Either is recorded on a stream of its own, for the audit history.
 */
@CommandHandler(AnswerCardBalanceInquiry)
export class AnswerCardBalanceInquiryHandler implements ICommandHandler<AnswerCardBalanceInquiry, SimulationAnswer> {
  constructor(
    private readonly writer: CardTransactionWriter,
    private readonly funding: CardFundingAccounts,
  ) {}

  async execute({ platformId, cardId, merchant }: AnswerCardBalanceInquiry): Promise<SimulationAnswer> {
    const card = await this.writer.card(platformId, cardId);
    const transactionId = newId('CardTransaction');
    const token = transactionId.slice(transactionId.indexOf(':') + 1);
    const now = new Date().toISOString();
    // Only `003` speaks to an inquiry: no money is asked for, so `002` has nothing to decline.
    const paused = cardAuthorizationScenario(merchant.descriptor).decline === 'CARD_PAUSED';
    const reason = declineReason({ kind: 'BALANCE_INQUIRY', cardStatus: card.status, amountCents: 0, maxSpendPerTransaction: null, forced: paused ? 'CARD_PAUSED' : null });
    const base = { transactionId, platformId, cardId, customerId: card.cardholderId, issuerTransactionToken: token, merchant };
    const state = { status: 'none' as const };
    const events: CardTransactionEvent[] = reason
      ? cardTransactionDecider.decide({ type: 'RecordDecline', data: { ...base, kind: 'BALANCE_INQUIRY', amountCents: 0, reason, declinedAt: now } }, state)
      : cardTransactionDecider.decide(
          { type: 'AnswerBalanceInquiry', data: { ...base, availableCents: await this.funding.availableCents(platformId, card.fundingSources), answeredAt: now } },
          state,
        );
    await this.writer.commit(transactionId, { state, revision: 'no_stream' }, events, platformId, now);
    return { issuerTransactionToken: token };
  }
}
