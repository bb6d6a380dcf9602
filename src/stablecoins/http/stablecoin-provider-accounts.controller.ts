import { Body, Controller, Get, Headers, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Request } from 'express';
import { Page } from '../../infra/http/pagination';
import { RequiresPermission } from '../../infra/http/permissions';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { QueryReader } from '../../infra/http/query-params';
import { Idempotent } from '../../infra/http/route-metadata';
import { validateBody } from '../../infra/http/validation';
import { parseId } from '../../infra/ids';
import { LinkStablecoinProviderAccount } from '../commands/link-provider-account';
import { PROVIDER_ACCOUNT_STATUSES, STABLECOIN_PROVIDERS } from '../domain/provider-account/provider-account.events';
import { providerAccountNotFound } from '../domain/stablecoins.errors';
import { StablecoinProviderAccountWire } from '../queries/stablecoin.views';
import { StablecoinsQuery } from '../queries/stablecoins.query';
import { requireIdempotencyKey } from './idempotency-key';
import { LinkStablecoinProviderAccountDto } from './stablecoins.dto';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/** `POST /stablecoin-provider-accounts`, `GET /stablecoin-provider-accounts`, `GET .../{id}` (docs/stablecoins.md). */
@Controller('stablecoin-provider-accounts')
export class StablecoinProviderAccountsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly query: StablecoinsQuery,
  ) {}

  /** Idempotency-Key required: a replay answers the first link; the stored answer never holds the secret. */
  @Post()
  @RequiresPermission('MANAGE')
  @Idempotent()
  async link(@Req() request: PlatformRequest, @Headers('idempotency-key') key: string | undefined, @Body() body: unknown): Promise<StablecoinProviderAccountWire> {
    requireIdempotencyKey(key);
    const value = validateBody(LinkStablecoinProviderAccountDto, body);
    return this.commandBus.execute(
      new LinkStablecoinProviderAccount(request.platform.platformId, {
        provider: value.provider,
        apiClientId: value.apiClientId,
        apiClientSecret: value.apiClientSecret,
        providerAccountId: value.providerAccountId ?? null,
      }),
    );
  }

  @Get()
  @RequiresPermission('VIEW')
  async list(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>): Promise<Page<StablecoinProviderAccountWire>> {
    const reader = new QueryReader(query, ['provider', 'status']);
    const filters = { provider: reader.oneOf('provider', STABLECOIN_PROVIDERS), status: reader.oneOf('status', PROVIDER_ACCOUNT_STATUSES) };
    const page = reader.page('StablecoinProviderAccount');
    reader.done();
    return this.query.listProviderAccounts(request.platform.platformId, filters, page);
  }

  /** GET declares no 400: an id that cannot name a link is a link that does not exist. */
  @Get(':stablecoinProviderAccountId')
  @RequiresPermission('VIEW')
  async get(@Req() request: PlatformRequest, @Param('stablecoinProviderAccountId') id: string): Promise<StablecoinProviderAccountWire> {
    if (!parseId('StablecoinProviderAccount', id)) throw providerAccountNotFound();
    const link = await this.query.findProviderAccount(request.platform.platformId, id);
    if (!link) throw providerAccountNotFound();
    return link;
  }
}
