import { Provider, Type } from '@nestjs/common';
import { Pool } from 'pg';
import { ExternalAccountsQuery, InternalAccountsQuery, TransactionsQuery } from '../../accounts';
import { AuditModule } from '../../audit';
import { CardsQuery } from '../../cards';
import { CustomersModule } from '../../customers';
import { QuotesQuery } from '../../quotes';
import { WebhookDeliveriesQuery } from '../../webhooks';
import { PersonalDataKeys } from '../../infra/crypto/personal-data';
import { PG_POOL } from '../../infra/postgres/pool';
import { ChartsController } from '../charts/charts.controller';
import { ChartsQuery } from '../charts/charts.query';
import { ConsoleExplorer, RESOURCE_FOLDS } from './console-explorer.service';
import { contextFolds } from './context-folds';
import { ExplorerController } from './explorer.controller';
import { PublicViews } from './public-views';
import { RelatedResources } from './related-resources';
import { ResourceHistories } from './resource-history';

/**
 * The platform console API (explorer, time travel, charts) for the console module: its
 * controllers, and the contexts' public reads it answers with (stateless queries over the pool).
 */
export const CONSOLE_API_IMPORTS: Type<unknown>[] = [AuditModule, CustomersModule];

export const CONSOLE_API_CONTROLLERS: Type<unknown>[] = [ExplorerController, ChartsController];

export const CONSOLE_API_PROVIDERS: Provider[] = [
  ConsoleExplorer,
  ResourceHistories,
  PublicViews,
  RelatedResources,
  ChartsQuery,
  InternalAccountsQuery,
  ExternalAccountsQuery,
  TransactionsQuery,
  QuotesQuery,
  CardsQuery,
  { provide: WebhookDeliveriesQuery, inject: [PG_POOL], useFactory: (pool: Pool) => new WebhookDeliveriesQuery(pool) },
  { provide: RESOURCE_FOLDS, inject: [PersonalDataKeys], useFactory: contextFolds },
];
