import { Controller, Get, Param, Req } from '@nestjs/common';
import type { Request } from 'express';
import { RequiresPermission } from '../../infra/http/permissions';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { parseId } from '../../infra/ids';
import { operationNotFound } from '../domain/stablecoins.errors';
import { StablecoinOperationWire } from '../queries/stablecoin.views';
import { StablecoinsQuery } from '../queries/stablecoins.query';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/** `GET /stablecoin-operations/{id}`. */
@Controller('stablecoin-operations')
export class StablecoinOperationsController {
  constructor(private readonly query: StablecoinsQuery) {}

  /** GET declares no 400: an id that cannot name an operation is an operation that does not exist. */
  @Get(':stablecoinOperationId')
  @RequiresPermission('VIEW')
  async get(@Req() request: PlatformRequest, @Param('stablecoinOperationId') id: string): Promise<StablecoinOperationWire> {
    if (!parseId('StablecoinOperation', id)) throw operationNotFound();
    const operation = await this.query.findOperation(request.platform.platformId, id);
    if (!operation) throw operationNotFound();
    return operation;
  }
}
