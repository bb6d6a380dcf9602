import { Type } from '@nestjs/common';
import { AccountsModule } from './accounts/accounts.module';
import { CardsModule } from './cards/cards.module';
import { CustomersHttpModule } from './customers/customers-http.module';
import { ExchangeRatesModule } from './quotes/exchange-rates.module';
import { QuotesModule } from './quotes/quotes.module';
import { SandboxModule } from './sandbox/sandbox.module';
import { WalletAuthModule } from './wallet-auth/wallet-auth.module';
import { ScaModule } from './sca/sca.module';
import { WebhooksModule } from './webhooks/webhooks.module';

/**
 * Feature contexts (customers, accounts, quotes, webhooks, sca, wallet-auth, cards, sandbox).
 * Each adds its module here with one line. Routes register in this order: AccountsModule must
 * come before CustomersHttpModule (`GET /customers/internal-accounts` before `/customers/:id`).
 */
export const FEATURE_MODULES: Type<unknown>[] = [
  AccountsModule,
  SandboxModule,
  CustomersHttpModule,
  ExchangeRatesModule,
  WebhooksModule,
  CardsModule,
  QuotesModule,
  WalletAuthModule,
  ScaModule,
];
