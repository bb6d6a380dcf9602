import { Type } from '@nestjs/common';
import { AccountsModule } from './accounts';
import { AgentsModule } from './agents';
import { CardsModule } from './cards';
import { ConsoleModule } from './console';
import { CustomersHttpModule } from './customers';
import { DirectoriesModule } from './directories';
import { InvitationsModule } from './invitations';
import { ExchangeRatesModule } from './quotes';
import { QuotesModule } from './quotes';
import { ReceivingModule } from './receiving';
import { WalletAuthModule } from './wallet-auth';
import { ScaModule } from './sca';
import { StablecoinsModule } from './stablecoins';
import { WebhooksModule } from './webhooks';

/**
 * Feature contexts (customers, accounts, quotes, webhooks, sca, wallet-auth, cards).
 * Each adds its module here with one line. Routes register in this order: AccountsModule must
 * come before CustomersHttpModule (`GET /customers/internal-accounts` before `/customers/:id`).
 */
export const FEATURE_MODULES: Type<unknown>[] = [
  AccountsModule,
  CustomersHttpModule,
  ExchangeRatesModule,
  WebhooksModule,
  CardsModule,
  QuotesModule,
  WalletAuthModule,
  ScaModule,
  DirectoriesModule,
  InvitationsModule,
  ReceivingModule,
  AgentsModule,
  StablecoinsModule,
  ConsoleModule,
];
