import { Injectable } from '@nestjs/common';
import { TransactionsQuery } from '../../accounts';
import { CustomersQuery } from '../../customers';
import { QuotesQuery } from '../../quotes';
import { AgentActionSource, AgentActionView, agentActionView } from './agent-action.view';

/**
 * Composes an action's view from its source and the resources it names, read now: the quote, the
 * transaction the operation created, the customer's platform id (a transaction carries it; else
 * the customer's view).
 */
@Injectable()
export class AgentActionViews {
  constructor(
    private readonly quotes: QuotesQuery,
    private readonly transactions: TransactionsQuery,
    private readonly customers: CustomersQuery,
  ) {}

  async present(source: AgentActionSource): Promise<AgentActionView> {
    const { platformId, request, transactionId } = source;
    const [quote, transaction] = await Promise.all([
      request.quoteId ? this.quotes.findById(platformId, request.quoteId) : null,
      transactionId ? this.transactions.findById(platformId, transactionId) : null,
    ]);
    const platformCustomerId = transaction?.platformCustomerId ?? (await this.customers.findById(platformId, source.customerId))?.platformCustomerId ?? '';
    return agentActionView(source, { platformCustomerId, quote, transaction });
  }

  presentAll(sources: AgentActionSource[]): Promise<AgentActionView[]> {
    return Promise.all(sources.map((source) => this.present(source)));
  }
}
