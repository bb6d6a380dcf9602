import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { isInsufficientFunds } from '../../accounts';
import { CustomersQuery } from '../../customers';
import { DomainError } from '../../infra/domain/domain-error';
import { newId } from '../../infra/ids';
import { cardAuthorizationScenario } from '../../sandbox';
import { ExistingCard } from '../domain/card/card.decider';
import { cardTransactionDecider, declineReason, isDebit } from '../domain/card-transaction/card-transaction.decider';
import { CardAuthorizationKind, CardDeclineReason, CardMerchant, CardPull, CardPullScenario, CardTransactionAuthorized } from '../domain/card-transaction/card-transaction.events';
import { CardTransactionWriter } from './card-transaction-commit';
import { CardFundingAccounts, FundingCandidate } from './card-transaction-funding';
import { fundingPullId } from './card-transaction-movements';

/** The network messages that open a transaction with an amount (a balance inquiry has its own command). */
export type AuthorizingKind = Exclude<CardAuthorizationKind, 'BALANCE_INQUIRY'>;

export interface SimulationAnswer {
  issuerTransactionToken: string;
}

/** Tries on one funding account when its stream keeps moving under another process. */
const ATTEMPTS_PER_ACCOUNT = 5;

/** A sandbox authorization-family message: decided and recorded before the answer. */
export class AuthorizeCardTransaction extends Command<SimulationAnswer> {
  constructor(
    readonly platformId: string,
    readonly cardId: string,
    readonly kind: AuthorizingKind,
    readonly amountCents: number,
    readonly merchant: CardMerchant,
  ) {
    super();
  }
}

/** What one approval places: on which account, in which units, with which hold and pull. */
type Approval = Pick<CardTransactionAuthorized['data'], 'accountId' | 'accountCurrency' | 'amountUnits' | 'holdId' | 'pull' | 'delegatedKeyId'>;

/**
 * Decisioning (docs/cards.md "Card transactions"): the card's state, its spend limit and the
 * descriptor's sandbox suffix first, then its funding accounts in order: the first whose ledger
 * accepts the hold (or the debit, or the credit) carries the transaction, committed with
 * `CardTransactionAuthorized` in one step. A decline records `CardAuthorizationDeclined` only.
 * The issuer token of a message that opens a transaction is that transaction's uuid, so
 * `CardTransaction:<issuerTransactionToken>` names it.
 */
@CommandHandler(AuthorizeCardTransaction)
export class AuthorizeCardTransactionHandler implements ICommandHandler<AuthorizeCardTransaction, SimulationAnswer> {
  constructor(
    private readonly writer: CardTransactionWriter,
    private readonly funding: CardFundingAccounts,
    private readonly customers: CustomersQuery,
  ) {}

  async execute(command: AuthorizeCardTransaction): Promise<SimulationAnswer> {
    const card = await this.writer.card(command.platformId, command.cardId);
    const transactionId = newId('CardTransaction');
    const token = transactionId.slice(transactionId.indexOf(':') + 1);
    const now = new Date().toISOString();
    const scenario = cardAuthorizationScenario(command.merchant.descriptor);
    const declined = declineReason({
      kind: command.kind,
      cardStatus: card.status,
      amountCents: command.amountCents,
      maxSpendPerTransaction: card.maxSpendPerTransaction,
      forced: scenario.decline,
    });
    const context = { command, card, transactionId, token, now, pullScenario: scenario.pullScenario };
    const reason = declined ?? (await this.approve(context));
    if (reason) await this.decline(context, reason);
    return { issuerTransactionToken: token };
  }

  /** Tries the funding accounts in order; answers why it declined, or null once one carried the transaction. */
  private async approve(context: ApprovalContext): Promise<CardDeclineReason | null> {
    const { command, card, transactionId } = context;
    const debit = isDebit(command.kind);
    const candidates = debit
      ? this.funding.debitCandidates({ platformId: command.platformId, cardId: card.cardId, transactionId, amountCents: command.amountCents, fundingSources: card.fundingSources })
      : this.funding.creditCandidates({ platformId: command.platformId, amountCents: command.amountCents, fundingSources: card.fundingSources });
    const customer = await this.customers.findById(command.platformId, card.cardholderId);
    let short = false;
    for await (const candidate of candidates) {
      const outcome = await this.tryAccount(context, approvalOn(command.kind, transactionId, candidate), customer?.platformCustomerId ?? '');
      if (outcome === 'approved') return null;
      short ||= outcome === 'short';
    }
    return short ? 'INSUFFICIENT_FUNDS' : 'FUNDING_SOURCE_UNAVAILABLE';
  }

  /** `short`: the ledger found too little money; `unavailable`: it refused the account for another reason (no longer ACTIVE). */
  private async tryAccount(context: ApprovalContext, approval: Approval, platformCustomerId: string): Promise<'approved' | 'short' | 'unavailable'> {
    const { command, card, transactionId, token, now } = context;
    const data: CardTransactionAuthorized['data'] = {
      transactionId,
      platformId: command.platformId,
      cardId: card.cardId,
      customerId: card.cardholderId,
      platformCustomerId,
      issuerTransactionToken: token,
      kind: command.kind,
      direction: isDebit(command.kind) ? 'DEBIT' : 'CREDIT',
      merchant: command.merchant,
      amountCents: command.amountCents,
      ...approval,
      pullScenario: context.pullScenario,
      authorizedAt: now,
    };
    const singleMessage = command.kind === 'FINANCIAL_AUTHORIZATION' || command.kind === 'FINANCIAL_CREDIT_AUTHORIZATION';
    const events = cardTransactionDecider.decide({ type: 'Authorize', data, clearingId: singleMessage ? token : null }, { status: 'none' });
    for (let attempt = 1; attempt <= ATTEMPTS_PER_ACCOUNT; attempt++) {
      const outcome = await this.writer.commit(transactionId, { state: { status: 'none' }, revision: 'no_stream' }, events, command.platformId, now);
      if (outcome.kind === 'committed') return 'approved';
      // The next account may carry it.
      if (outcome.kind === 'refused') return isInsufficientFunds(outcome.error) ? 'short' : 'unavailable';
    }
    throw new DomainError('CONFLICT', 'The funding account is too busy; retry the request');
  }

  private async decline(context: ApprovalContext, reason: CardDeclineReason): Promise<void> {
    const { command, card, transactionId, token, now } = context;
    const loaded = { state: { status: 'none' as const }, revision: 'no_stream' as const };
    const events = cardTransactionDecider.decide(
      {
        type: 'RecordDecline',
        data: {
          transactionId,
          platformId: command.platformId,
          cardId: card.cardId,
          customerId: card.cardholderId,
          issuerTransactionToken: token,
          kind: command.kind,
          amountCents: command.amountCents,
          merchant: command.merchant,
          reason,
          declinedAt: now,
        },
      },
      loaded.state,
    );
    await this.writer.commit(transactionId, loaded, events, command.platformId, now);
  }
}

type ApprovalContext = {
  command: AuthorizeCardTransaction;
  card: ExistingCard;
  transactionId: string;
  token: string;
  now: string;
  pullScenario: CardPullScenario;
};

/**
 * An AUTHORIZATION holds the amount and starts a PENDING pull (confirmed later by a task); a
 * FINANCIAL_AUTHORIZATION debits at once (its pull is CONFIRMED in the same commit); credits
 * hold and pull nothing.
 */
function approvalOn(kind: AuthorizingKind, transactionId: string, candidate: FundingCandidate): Approval {
  const base = { accountId: candidate.account.accountId, accountCurrency: candidate.account.currency, amountUnits: candidate.amountUnits, delegatedKeyId: candidate.delegatedKeyId };
  const pull = (status: CardPull['status']): CardPull => ({ pullId: fundingPullId(transactionId), amountUnits: candidate.amountUnits, status });
  switch (kind) {
    case 'AUTHORIZATION':
      return { ...base, holdId: `${transactionId}:hold`, pull: pull('PENDING') };
    case 'FINANCIAL_AUTHORIZATION':
      return { ...base, holdId: null, pull: pull('CONFIRMED') };
    default:
      return { ...base, holdId: null, pull: null };
  }
}
