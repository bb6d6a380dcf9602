import { Injectable } from '@nestjs/common';
import { uuidv5 } from '../../infra/ids';
import { PlatformConfigQuery } from '../../platforms/queries/platform-config.query';
import { STABLECOINS, isCurrencyCode } from '../../shared/currencies';
import { InternalAccountType } from '../domain/internal-account/internal-account.events';
import { AccountsLedger } from '../ledger/accounts-ledger';

/** Currencies provisioned when the platform configuration cannot be read. */
const FALLBACK_CURRENCIES = ['USD', 'USDC'];

/** Deterministic ids: provisioning twice (request and reactor, or a replay) opens one account. */
export function customerAccountId(customerId: string, currency: string): string {
  return `InternalAccount:${uuidv5(`internal-account:${customerId}:${currency}`)}`;
}

export function platformAccountId(platformId: string, currency: string): string {
  return `InternalAccount:${uuidv5(`platform-account:${platformId}:${currency}`)}`;
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
    private readonly platformConfig: PlatformConfigQuery,
  ) {}

  async provisionCustomer(input: { platformId: string; customerId: string; createdAt: string }): Promise<void> {
    const config = await this.platformConfig.findRaw(input.platformId);
    const currencies = config ? config.supportedCurrencies.map((entry) => entry.currencyCode) : FALLBACK_CURRENCIES;
    for (const currency of currencies.filter(isCurrencyCode)) {
      await this.ledger.open({
        platformId: input.platformId,
        accountId: customerAccountId(input.customerId, currency),
        customerId: input.customerId,
        accountType: customerAccountType(currency),
        currency,
        openedAt: input.createdAt,
      });
    }
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
