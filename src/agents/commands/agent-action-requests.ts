import { Injectable } from '@nestjs/common';
import { ExternalAccountsQuery, InternalAccountsQuery, TransferRequest } from '../../accounts';
import { DomainError, ValidationError } from '../../infra/domain/domain-error';
import { QuotesQuery } from '../../quotes';
import { AgentActionRequest } from '../domain/agent-action.events';

/** The agent a request comes from (the Bearer guard's `request.agent`). */
export interface ActingAgentRef {
  agentId: string;
  platformId: string;
  customerId: string;
}

/** A transfer as the agent asked for it (TransferOutRequest / TransferInRequest): the platform route's request and its direction. */
export type AgentTransferAsked = TransferRequest & { direction: 'OUT' | 'IN' };

/**
 * Turns what an agent asked for into the action the policy evaluates: the customer's internal
 * account it moves money from or to, and the amount in that account's currency. Every account must
 * be the agent's customer's: another customer's or platform's answers 404 exactly like an unknown
 * one. The underlying command checks the rest (rails, ranges, funds) when the action runs.
 */
@Injectable()
export class AgentActionRequests {
  constructor(
    private readonly quotes: QuotesQuery,
    private readonly internalAccounts: InternalAccountsQuery,
    private readonly externalAccounts: ExternalAccountsQuery,
  ) {}

  /** EXECUTE_QUOTE: the quote's source account and total sending amount (what leaves the account). */
  async forQuote(agent: ActingAgentRef, quoteId: string): Promise<AgentActionRequest> {
    const quote = await this.quotes.findById(agent.platformId, quoteId);
    if (!quote || quote.source.sourceType !== 'ACCOUNT') throw new DomainError('QUOTE_NOT_FOUND', 'Quote not found');
    const source = await this.internalAccounts.findDetails(agent.platformId, quote.source.accountId);
    if (source?.accountType === 'EMBEDDED_WALLET') throw embeddedWalletSource(source.accountId);
    return {
      type: 'EXECUTE_QUOTE',
      accountId: quote.source.accountId,
      amount: quote.totalSendingAmount,
      currency: quote.sendingCurrency.code,
      quoteId: quote.id,
      quoteTransactionId: quote.transactionId,
      transfer: null,
    };
  }

  /** TRANSFER_OUT / TRANSFER_IN; a transfer-out without an amount sweeps what the source holds available now. */
  async forTransfer(agent: ActingAgentRef, asked: AgentTransferAsked): Promise<AgentActionRequest> {
    const out = asked.direction === 'OUT';
    const internalId = out ? asked.sourceAccountId : asked.destinationAccountId;
    const externalId = out ? asked.destinationAccountId : asked.sourceAccountId;
    const internal = await this.internalAccounts.findDetails(agent.platformId, internalId);
    if (!internal || internal.customerId !== agent.customerId) throw new DomainError('REFERENCE_NOT_FOUND', `${out ? 'Source' : 'Destination'} internal account not found`);
    const external = await this.externalAccounts.findById(agent.platformId, externalId);
    if (!external || external.customerId !== agent.customerId) throw new DomainError('REFERENCE_NOT_FOUND', `${out ? 'Destination' : 'Source'} external account not found`);
    if (out && internal.accountType === 'EMBEDDED_WALLET') throw embeddedWalletSource(internal.accountId);
    const amount = asked.amount ?? (out ? internal.view.balance.amount : null);
    if (amount === null || amount <= 0) {
      throw new ValidationError([{ field: 'amount', constraint: {}, message: out ? 'Nothing available to sweep: give amount' : 'amount is required for a transfer-in' }]);
    }
    const transfer = {
      sourceAccountId: asked.sourceAccountId,
      destinationAccountId: asked.destinationAccountId,
      paymentRail: asked.paymentRail,
      amount,
      currency: internal.currency,
      ...(asked.remittanceInformation !== undefined ? { remittanceInformation: asked.remittanceInformation } : {}),
      ...(asked.purposeOfPayment !== undefined ? { purposeOfPayment: asked.purposeOfPayment } : {}),
    };
    return { type: out ? 'TRANSFER_OUT' : 'TRANSFER_IN', accountId: internalId, amount, currency: internal.currency, quoteId: null, quoteTransactionId: null, transfer };
  }
}

/**
 * Money leaves an embedded wallet only with its owner's wallet signature, which an agent never
 * has: refused when the action is submitted (400, before anything is reserved), not when it would
 * run (an approved action could only fail). Paying into a wallet needs no signature.
 */
function embeddedWalletSource(accountId: string): DomainError {
  return new DomainError('INVALID_INPUT', 'An agent cannot move money out of an embedded wallet: it needs the wallet owner\'s signature', {
    reason: 'EMBEDDED_WALLET_SOURCE',
    accountId,
  });
}
