import { Inject, Injectable } from '@nestjs/common';
import { ExternalAccountsQuery, InternalAccountsQuery, TransactionsQuery } from '../../accounts';
import { CardsQuery, cardWire } from '../../cards';
import { CustomersQuery } from '../../customers';
import { QuotesQuery } from '../../quotes';

type ViewReader = (platformId: string, id: string) => Promise<unknown>;

/**
 * The resources as their public GETs answer them now, through each context's public query (the
 * same reads, so the console never shows a resource otherwise than the API does).
 */
@Injectable()
export class PublicViews {
  private readonly readers: Record<string, ViewReader>;

  constructor(
    @Inject(CustomersQuery) customers: CustomersQuery,
    @Inject(InternalAccountsQuery) internalAccounts: InternalAccountsQuery,
    @Inject(ExternalAccountsQuery) externalAccounts: ExternalAccountsQuery,
    @Inject(QuotesQuery) quotes: QuotesQuery,
    @Inject(TransactionsQuery) transactions: TransactionsQuery,
    @Inject(CardsQuery) cards: CardsQuery,
  ) {
    this.readers = {
      Customer: (platformId, id) => customers.findById(platformId, id),
      InternalAccount: (platformId, id) => internalAccounts.findById(platformId, id),
      // A customer's account (GET /customers/external-accounts/{id}) or the platform's own.
      ExternalAccount: async (platformId, id) => (await externalAccounts.findView(platformId, id)) ?? externalAccounts.findView(platformId, id, true),
      Quote: (platformId, id) => quotes.findById(platformId, id),
      Transaction: (platformId, id) => transactions.findIncludingCards(platformId, id),
      CardTransaction: (platformId, id) => transactions.findIncludingCards(platformId, id),
      Card: async (platformId, id) => {
        const view = await cards.findById(platformId, id);
        return view && cardWire(view);
      },
    };
  }

  /** The GET answer, or null when the type has no GET here or GET does not show it (yet). */
  async find(platformId: string, type: string, id: string): Promise<unknown> {
    const reader = this.readers[type];
    return reader ? reader(platformId, id) : null;
  }
}
