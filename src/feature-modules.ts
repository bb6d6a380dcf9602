import { Type } from '@nestjs/common';
import { WebhooksModule } from './webhooks/webhooks.module';

/**
 * Feature contexts (customers, accounts, quotes, webhooks, sca, wallet-auth, cards, sandbox).
 * Each adds its module here with one line.
 */
export const FEATURE_MODULES: Type<unknown>[] = [
  WebhooksModule,
];
