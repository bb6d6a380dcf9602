import { Injectable } from '@nestjs/common';
import { EventStoreService } from '../../infra/event-store/event-store.service';
import { streamNameFor, uuidv7From, uuidv7Millis } from '../../infra/ids';
import { STABLECOINS, isCurrencyCode } from '../../shared/currencies';
import { InternalAccountType } from '../domain/internal-account/internal-account.events';
import { AccountsLedger } from '../ledger/accounts-ledger';

/**
 * Deterministic ids: provisioning twice (request and reactor, or a replay) opens one account.
 * They are uuid v7 carrying the owner's creation time, like every other id.
 */
export function customerAccountId(customerId: string, currency: string): string {
  return `InternalAccount:${uuidv7From(`internal-account:${customerId}:${currency}`, uuidv7Millis(customerId) ?? 0)}`;
}

export function platformAccountId(platformId: string, currency: string): string {
  return `InternalAccount:${uuidv7From(`platform-account:${platformId}:${currency}`, uuidv7Millis(platformId) ?? 0)}`;
}

/** USDB is the embedded wallet's currency; other stablecoins and BTC are crypto holdings. */
export function customerAccountType(currency: string): InternalAccountType {
  if (currency === 'USDB') return 'EMBEDDED_WALLET';
  return STABLECOINS.has(currency) || currency === 'BTC' ? 'INTERNAL_CRYPTO' : 'INTERNAL_FIAT';
}

function platformAccountType(currency: string): InternalAccountType {
  return STABLECOINS.has(currency) || currency === 'BTC' ? 'INTERNAL_CRYPTO' : 'INTERNAL_FIAT';
}

/**
 * Opens internal accounts: one per supported currency of the platform for each customer (an
 * EMBEDDED_WALLET account in USDB when USDB is supported), and the platform's own accounts.
 */
@Injectable()
export class InternalAccountProvisioner {
  constructor(
    private readonly ledger: AccountsLedger,
    private readonly events: EventStoreService,
  ) {}

  async provisionCustomer(input: { platformId: string; customerId: string; createdAt: string }): Promise<void> {
    const currencies = await this.supportedCurrencies(input.platformId);
    await this.provisionCustomerCurrencies({ platformId: input.platformId, customerId: input.customerId, currencies, openedAt: input.createdAt });
  }

  /** Opens the customer's accounts in `currencies` (already open ones are left as they are). */
  async provisionCustomerCurrencies(input: { platformId: string; customerId: string; currencies: string[]; openedAt: string }): Promise<void> {
    for (const currency of input.currencies.filter(isCurrencyCode)) {
      await this.ledger.open({
        platformId: input.platformId,
        accountId: customerAccountId(input.customerId, currency),
        customerId: input.customerId,
        accountType: customerAccountType(currency),
        currency,
        openedAt: input.openedAt,
      });
    }
  }

  /**
   * The platform's supported currencies just before the platform event at `revision`: what a
   * configuration change added is its new list minus this one.
   */
  async supportedCurrenciesBefore(platformId: string, revision: number): Promise<string[]> {
    const events = await this.events.readStream(streamNameFor(platformId));
    return currenciesOf(events.filter((event) => event.revision < revision));
  }

  /**
   * The platform's supported currencies from its event stream rather than the platform-config
   * read model, which a reactor may run ahead of (a customer created right after its platform).
   * Reads the published payloads of `PlatformRegistered` / `PlatformConfigUpdated` only.
   */
  private async supportedCurrencies(platformId: string): Promise<string[]> {
    return currenciesOf(await this.events.readStream(streamNameFor(platformId)));
  }

  async provisionPlatform(input: { platformId: string; currencies: string[]; at: string }): Promise<void> {
    for (const currency of input.currencies.filter(isCurrencyCode)) {
      await this.ledger.open({
        platformId: input.platformId,
        accountId: platformAccountId(input.platformId, currency),
        customerId: null,
        accountType: platformAccountType(currency),
        currency,
        openedAt: input.at,
      });
    }
  }
}

function currenciesOf(platformEvents: Array<{ type: string; data: Record<string, unknown> }>): string[] {
  let currencies: string[] = [];
  for (const event of platformEvents) {
    const data = event.data as {
      config?: { supportedCurrencies?: Array<{ currencyCode: string }> };
      changes?: { supportedCurrencies?: Array<{ currencyCode: string }> };
    };
    const list = event.type === 'PlatformRegistered' ? data.config?.supportedCurrencies : event.type === 'PlatformConfigUpdated' ? data.changes?.supportedCurrencies : undefined;
    if (list) currencies = list.map((entry) => entry.currencyCode);
  }
  return currencies;
}
