import { Body, Controller, Get, Headers, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Request } from 'express';
import { FieldError } from '../../infra/domain/domain-error';
import { Page } from '../../infra/http/pagination';
import { RequiresPermission } from '../../infra/http/permissions';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { QueryReader } from '../../infra/http/query-params';
import { Idempotent } from '../../infra/http/route-metadata';
import { checkBody, hasErrorAt, throwIfAny } from '../../infra/http/validation';
import { idConstraint, parseId } from '../../infra/ids';
import { requirePathId } from '../../shared/validation/path-ids';
import { CreateStablecoinOperation, OperationRequest } from '../commands/create-stablecoin-operation';
import { BurnInput, MintInput } from '../commands/operation-plans';
import { RegisterStablecoin } from '../commands/register-stablecoin';
import { STABLECOIN_PROVIDERS } from '../domain/provider-account/provider-account.events';
import { STABLECOIN_GRID_OPERATIONS_STATUSES, STABLECOIN_ISSUANCE_STATUSES, STABLECOIN_OPERATION_TYPES } from '../domain/stablecoin/stablecoin.events';
import { stablecoinNotFound } from '../domain/stablecoins.errors';
import { StablecoinOperationWire, StablecoinWire } from '../queries/stablecoin.views';
import { StablecoinsQuery } from '../queries/stablecoins.query';
import { requireIdempotencyKey } from './idempotency-key';
import { RegisterStablecoinDto, StablecoinBurnDto, StablecoinMintDto, checkBurnParts, checkMintParts } from './stablecoins.dto';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/** `/stablecoins`: register and read coins, create and list their mints and burns (docs/stablecoins.md). */
@Controller('stablecoins')
export class StablecoinsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly query: StablecoinsQuery,
  ) {}

  @Post()
  @RequiresPermission('MANAGE')
  @Idempotent()
  async register(@Req() request: PlatformRequest, @Headers('idempotency-key') key: string | undefined, @Body() body: unknown): Promise<StablecoinWire> {
    requireIdempotencyKey(key);
    const { value, errors } = checkBody(RegisterStablecoinDto, body);
    const linkId = value.stablecoinProviderAccountId;
    if (typeof linkId === 'string' && !hasErrorAt(errors, 'stablecoinProviderAccountId') && !parseId('StablecoinProviderAccount', linkId)) {
      errors.push({ field: 'stablecoinProviderAccountId', constraint: idConstraint('StablecoinProviderAccount'), message: 'stablecoinProviderAccountId must be a StablecoinProviderAccount:<uuid> id' });
    }
    throwIfAny(errors);
    return this.commandBus.execute(
      new RegisterStablecoin(request.platform.platformId, {
        providerTokenIdentifier: value.providerTokenIdentifier,
        networkTokenIdentifier: value.networkTokenIdentifier,
        network: value.network,
        stablecoinProviderAccountId: linkId ?? null,
      }),
    );
  }

  @Get()
  @RequiresPermission('VIEW')
  async list(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>): Promise<Page<StablecoinWire>> {
    const reader = new QueryReader(query, ['issuanceStatus', 'gridOperationsStatus', 'provider']);
    const filters = {
      issuanceStatus: reader.oneOf('issuanceStatus', STABLECOIN_ISSUANCE_STATUSES),
      gridOperationsStatus: reader.oneOf('gridOperationsStatus', STABLECOIN_GRID_OPERATIONS_STATUSES),
      provider: reader.oneOf('provider', STABLECOIN_PROVIDERS),
    };
    const page = reader.page('Stablecoin');
    reader.done();
    return this.query.listStablecoins(request.platform.platformId, filters, page);
  }

  /** GET declares no 400: an id that cannot name a coin is a coin that does not exist. */
  @Get(':stablecoinId')
  @RequiresPermission('VIEW')
  async get(@Req() request: PlatformRequest, @Param('stablecoinId') stablecoinId: string): Promise<StablecoinWire> {
    return this.coinOf(request.platform.platformId, stablecoinId);
  }

  @Post(':stablecoinId/mints')
  @RequiresPermission('TRANSACT')
  @Idempotent()
  async mint(
    @Req() request: PlatformRequest,
    @Headers('idempotency-key') key: string | undefined,
    @Param('stablecoinId') stablecoinId: string,
    @Body() body: unknown,
  ): Promise<StablecoinOperationWire> {
    const value = checkedOperation(key, stablecoinId, StablecoinMintDto, body, checkMintParts);
    const mint = { fundingSource: value.fundingSource, destination: value.destination } as unknown as MintInput;
    return this.create(request, stablecoinId, { operationType: 'MINT', amount: value.amount, description: value.description ?? null, mint });
  }

  @Post(':stablecoinId/burns')
  @RequiresPermission('TRANSACT')
  @Idempotent()
  async burn(
    @Req() request: PlatformRequest,
    @Headers('idempotency-key') key: string | undefined,
    @Param('stablecoinId') stablecoinId: string,
    @Body() body: unknown,
  ): Promise<StablecoinOperationWire> {
    const value = checkedOperation(key, stablecoinId, StablecoinBurnDto, body, checkBurnParts);
    const burn = { source: value.source, destination: value.destination } as unknown as BurnInput;
    return this.create(request, stablecoinId, { operationType: 'BURN', amount: value.amount, description: value.description ?? null, burn });
  }

  /** Newest first. Declares no 400 but for its query: an id that cannot name a coin is 404. */
  @Get(':stablecoinId/operations')
  @RequiresPermission('VIEW')
  async operations(
    @Req() request: PlatformRequest,
    @Param('stablecoinId') stablecoinId: string,
    @Query() query: Record<string, unknown>,
  ): Promise<Page<StablecoinOperationWire>> {
    await this.coinOf(request.platform.platformId, stablecoinId);
    const reader = new QueryReader(query, ['operationType']);
    const operationType = reader.oneOf('operationType', STABLECOIN_OPERATION_TYPES);
    const page = reader.page('StablecoinOperation');
    reader.done();
    return this.query.listOperations(request.platform.platformId, stablecoinId, { operationType }, page);
  }

  private create(request: PlatformRequest, stablecoinId: string, operation: OperationRequest): Promise<StablecoinOperationWire> {
    return this.commandBus.execute(new CreateStablecoinOperation(request.platform.platformId, stablecoinId, operation));
  }

  private async coinOf(platformId: string, stablecoinId: string): Promise<StablecoinWire> {
    if (!parseId('Stablecoin', stablecoinId)) throw stablecoinNotFound();
    const coin = await this.query.findStablecoin(platformId, stablecoinId);
    if (!coin) throw stablecoinNotFound();
    return coin;
  }
}

/**
 * A mint's or a burn's request, checked as the reference asks: the Idempotency-Key, the coin id,
 * then every field of the body at once (the shapes, then the parts that depend on each other).
 */
function checkedOperation<T extends object>(
  key: string | undefined,
  stablecoinId: string,
  dto: new () => T,
  body: unknown,
  checkParts: (value: T, errors: FieldError[]) => void,
): T {
  requireIdempotencyKey(key);
  requirePathId('Stablecoin', 'stablecoinId', stablecoinId);
  const { value, errors } = checkBody(dto, body);
  if (!hasErrorAt(errors, 'body')) checkParts(value, errors);
  throwIfAny(errors);
  return value;
}
