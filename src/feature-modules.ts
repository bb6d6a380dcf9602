import { Type } from '@nestjs/common';
import { ExchangeRatesModule } from './quotes/exchange-rates.module';

/**
 * Feature contexts (customers, accounts, quotes, webhooks, sca, wallet-auth, cards, sandbox).
 * Each adds its module here with one line.
 */
export const FEATURE_MODULES: Type<unknown>[] = [
  ExchangeRatesModule,
];
