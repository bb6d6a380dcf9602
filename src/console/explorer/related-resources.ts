import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { ExternalAccountsQuery, InternalAccountsQuery, TransactionsQuery } from '../../accounts';
import { AuditEntry } from '../../audit';
import { CardsQuery } from '../../cards';
import { QuotesQuery } from '../../quotes';
import { PG_POOL } from '../../infra/postgres/pool';
import { ID_PREFIXES } from '../../infra/ids';
import { labelOf } from './resource-labels';
import { ResourceHistories, ResourceHistory, typeOf } from './resource-history';

/**
 * A resource linked to the one shown, and how (`account`, `quote`, `transaction`, `card`,
 * `customer`, `hold`, `settlement`, `release`, `webhook`, `delivery`, ...).
 */
export interface RelatedResource {
  id: string;
  type: string;
  label: string;
  relation: string;
}

/** The most of each kind a customer's page lists (newest first); the lists of the API page further. */
const RELATED_PER_KIND = 50;
const FIRST_PAGE = { limit: RELATED_PER_KIND, cursor: null };

/** What a ledger event of a payment's hold did to it, in the chain. */
const LEDGER_RELATIONS: Record<string, string> = {
  FundsHeld: 'hold',
  HoldAdjusted: 'hold',
  HoldCaptured: 'settlement',
  HoldSettled: 'settlement',
  FundsDebited: 'settlement',
  FundsCredited: 'settlement',
  HoldReleased: 'release',
  HoldVoided: 'release',
};

const ID_PATTERN = new RegExp(`^(${ID_PREFIXES.join('|')}):[0-9a-f-]{36}$`);

/**
 * The resources around one: a customer's accounts, quotes, transactions and cards; a payment's
 * chain (its quote, the ledger holds and settlements naming it, the transaction, the webhooks
 * sent about it and their deliveries); for the others, the resources their events name.
 */
@Injectable()
export class RelatedResources {
  constructor(
    private readonly histories: ResourceHistories,
    @Inject(InternalAccountsQuery) private readonly internalAccounts: InternalAccountsQuery,
    @Inject(ExternalAccountsQuery) private readonly externalAccounts: ExternalAccountsQuery,
    @Inject(QuotesQuery) private readonly quotes: QuotesQuery,
    @Inject(TransactionsQuery) private readonly transactions: TransactionsQuery,
    @Inject(CardsQuery) private readonly cards: CardsQuery,
    @Inject(PG_POOL) private readonly pool: Pool,
  ) {}

  async of(history: ResourceHistory, state: unknown, platformId: string): Promise<RelatedResource[]> {
    if (history.type === 'Customer') return this.ofCustomer(history.id, platformId);
    if (['Quote', 'Transaction', 'CardTransaction'].includes(history.type)) return this.chainOf(history, state, platformId);
    if (history.delivery) return namedIn([history.delivery.payload], history.id).concat(deliveryPair(history));
    return namedIn(history.events.map((event) => event.data), history.id);
  }

  private async ofCustomer(customerId: string, platformId: string): Promise<RelatedResource[]> {
    const [internal, external, quotes, transactions, cards] = await Promise.all([
      this.internalAccounts.listForCustomer(platformId, customerId),
      this.externalAccounts.list(platformId, { customerId }, FIRST_PAGE),
      this.quotes.list(platformId, { customerId }, FIRST_PAGE),
      this.transactions.listIncludingCards(platformId, { customerId }, FIRST_PAGE),
      this.cards.list(platformId, { cardholderId: customerId }, FIRST_PAGE, 'desc'),
    ]);
    return [
      ...internal.map((details) => related(details.view.id, details.view, 'account')),
      ...external.data.map((view) => related(view.id, view, 'account')),
      ...quotes.data.map((view) => related(view.id, view, 'quote')),
      ...transactions.data.map((view) => related(view.id, view, 'transaction')),
      ...cards.data.map((view) => related(view.id, view, 'card')),
    ];
  }

  /** quote -> holds -> settlements -> transaction -> webhooks and their deliveries, in that order. */
  private async chainOf(history: ResourceHistory, state: unknown, platformId: string): Promise<RelatedResource[]> {
    const view = (state ?? {}) as { quoteId?: string; transactionId?: string; cardId?: string };
    const quoteId = history.type === 'Quote' ? history.id : view.quoteId;
    const transactionId = history.type === 'Quote' ? view.transactionId : history.id;
    const chain: RelatedResource[] = [];
    if (quoteId && quoteId !== history.id) chain.push(related(quoteId, await this.quotes.findById(platformId, quoteId), 'quote'));
    chain.push(...(await this.ledgerOf(history.events, [quoteId, transactionId], platformId)));
    if (transactionId && transactionId !== history.id) {
      chain.push(related(transactionId, await this.transactions.findIncludingCards(platformId, transactionId), 'transaction'));
    }
    chain.push(...(await this.webhooksAbout(history.events, platformId)));
    return chain;
  }

  /** The account events of the holds the payment's events name (or that name the payment), in ledger order. */
  private async ledgerOf(events: AuditEntry[], paymentIds: Array<string | undefined>, platformId: string): Promise<RelatedResource[]> {
    const holdIds = new Set(events.map((event) => event.data.holdId).filter((value): value is string => typeof value === 'string'));
    const names = new Set(paymentIds.filter((value): value is string => Boolean(value)));
    const accounts = [...new Set(namedIn(events.map((event) => event.data), '').filter((item) => item.type === 'InternalAccount').map((item) => item.id))];
    const steps: RelatedResource[] = [];
    for (const accountId of accounts) {
      for (const entry of (await this.histories.eventsOf(accountId, platformId)) ?? []) {
        const relation = LEDGER_RELATIONS[entry.type];
        const touches = holdIds.has(entry.data.holdId as string) || names.has(entry.data.reference as string);
        if (relation && touches) steps.push({ id: accountId, type: 'InternalAccount', label: ledgerLabel(entry), relation });
      }
    }
    // Holds before settlements and releases whatever the account (a payment may hold on several).
    const order = ['hold', 'settlement', 'release'];
    return steps.sort((a, b) => order.indexOf(a.relation) - order.indexOf(b.relation));
  }

  /** The webhooks made from the payment's events, each followed by its delivery, oldest first. */
  private async webhooksAbout(events: AuditEntry[], platformId: string): Promise<RelatedResource[]> {
    const rows = await this.pool.query<{ id: string; webhook_id: string; type: string; status: string }>(
      `SELECT id, webhook_id, type, status FROM webhook_deliveries WHERE platform_id = $1 AND source_event_id = ANY($2) ORDER BY seq`,
      [platformId, events.map((event) => event.eventId)],
    );
    return rows.rows.flatMap((row) => [
      { id: row.webhook_id, type: 'Webhook', label: `Webhook · ${row.type}`, relation: 'webhook' },
      { id: row.id, type: 'WebhookDelivery', label: `WebhookDelivery · ${row.type} · ${row.status}`, relation: 'delivery' },
    ]);
  }
}

function related(id: string, view: unknown, relation: string): RelatedResource {
  return { id, type: typeOf(id), label: labelOf(typeOf(id), view), relation };
}

function ledgerLabel(entry: AuditEntry): string {
  const { amount, currency } = entry.data as { amount?: number; currency?: string };
  return `${entry.type} · ${amount ?? ''} ${currency ?? ''} · revision ${entry.revision}`.replace(/\s+·\s+·/, ' ·').trim();
}

/** A delivery's webhook, or a webhook's delivery. */
function deliveryPair(history: ResourceHistory): RelatedResource[] {
  const delivery = history.delivery!;
  return history.type === 'Webhook'
    ? [{ id: delivery.id, type: 'WebhookDelivery', label: `WebhookDelivery · ${delivery.type} · ${delivery.status}`, relation: 'delivery' }]
    : [{ id: delivery.webhookId, type: 'Webhook', label: `Webhook · ${delivery.type}`, relation: 'webhook' }];
}

/** Every resource id the values name (nested too), but `selfId` and platforms, once each, in order of appearance. */
export function namedIn(values: unknown[], selfId: string): RelatedResource[] {
  const found = new Map<string, RelatedResource>();
  const visit = (value: unknown, depth: number): void => {
    if (typeof value === 'string') {
      if (ID_PATTERN.test(value) && value !== selfId && !value.startsWith('Platform:') && !found.has(value)) {
        found.set(value, { id: value, type: typeOf(value), label: typeOf(value), relation: relationOf(typeOf(value)) });
      }
    } else if (value && typeof value === 'object' && depth < 4) {
      for (const child of Object.values(value)) visit(child, depth + 1);
    }
  };
  for (const value of values) visit(value, 0);
  return [...found.values()];
}

function relationOf(type: string): string {
  if (type === 'InternalAccount' || type === 'ExternalAccount') return 'account';
  if (type === 'CardTransaction') return 'transaction';
  return type.charAt(0).toLowerCase() + type.slice(1);
}
