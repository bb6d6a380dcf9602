import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { DomainError } from '../../infra/domain/domain-error';
import { Page } from '../../infra/http/pagination';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { QueryReader } from '../../infra/http/query-params';
import { requirePathId } from '../../shared/validation/path-ids';
import { InternalAccountView } from '../queries/internal-account.view';
import { InternalAccountsQuery } from '../queries/internal-accounts.query';
import { RequiresPermission } from '../../infra/http/permissions';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

export const INTERNAL_ACCOUNT_TYPES = ['INTERNAL_FIAT', 'INTERNAL_CRYPTO', 'EMBEDDED_WALLET'] as const;

/** `GET /internal-accounts` and `GET /customers/internal-accounts` (the same list), and one account. */
@Controller()
@RequiresPermission('VIEW')
export class InternalAccountsController {
  constructor(private readonly query: InternalAccountsQuery) {}

  @Get('internal-accounts')
  async list(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>): Promise<Page<InternalAccountView>> {
    const reader = new QueryReader(query, ['customerId', 'type', 'currency']);
    const filters = {
      customerId: reader.id('customerId', 'Customer'),
      type: reader.oneOf('type', INTERNAL_ACCOUNT_TYPES),
      // Any currency code (the reference types it as a string): one we hold no account in lists none.
      currency: reader.string('currency', 8),
    };
    const page = reader.page('InternalAccount');
    reader.done();
    return this.query.list(request.platform.platformId, filters, page);
  }

  @Get('customers/internal-accounts')
  async listForCustomers(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>): Promise<Page<InternalAccountView>> {
    return this.list(request, query);
  }

  @Get('internal-accounts/:accountId')
  async get(@Req() request: PlatformRequest, @Param('accountId') accountId: string): Promise<InternalAccountView> {
    requirePathId('InternalAccount', 'accountId', accountId);
    const view = await this.query.findById(request.platform.platformId, accountId);
    if (!view) throw new DomainError('REFERENCE_NOT_FOUND', 'Internal account not found');
    return view;
  }
}
