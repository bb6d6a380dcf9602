import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiQuery } from '@nestjs/swagger';
import type { Request } from 'express';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { QueryReader } from '../../infra/http/query-params';
import { LookUpReceiver } from '../commands/look-up-receiver';
import {
  ReceiverExternalAccountLookupView, ReceiverUmaLookupView, receiverExternalAccountLookupView, receiverUmaLookupView,
} from '../queries/receiver-lookup.view';
import { checkExternalAccountId, checkReceiverUmaAddress, readLookupSender, throwIfBadLookup } from './receiver-lookup.query';
import { RequiresPermission } from '../../infra/http/permissions';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/**
 * `GET /receiver/uma/{receiverUmaAddress}`, `GET /receiver/external-account/{accountId}`: what the
 * receiver takes, estimated for the sender, and the `lookupId` a quote may name (docs/quotes.md
 * "Receiver lookups"). A lookup is recorded (LookUpReceiver), hence a command.
 */
@Controller('receiver')
@RequiresPermission('VIEW')
export class ReceiverLookupsController {
  constructor(private readonly commandBus: CommandBus) {}

  @Get('uma/:receiverUmaAddress')
  @ApiQuery({ name: 'senderUmaAddress', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'customerId', required: false, schema: { type: 'string' } })
  async lookUpUma(
    @Req() request: PlatformRequest,
    @Param('receiverUmaAddress') receiverUmaAddress: string,
    @Query() query: Record<string, unknown>,
  ): Promise<ReceiverUmaLookupView> {
    const reader = new QueryReader(query, ['senderUmaAddress', 'customerId']);
    const sender = readLookupSender(reader, query);
    checkReceiverUmaAddress(reader, receiverUmaAddress);
    throwIfBadLookup(reader);
    const lookup = await this.commandBus.execute(new LookUpReceiver(request.platform.platformId, { kind: 'UMA_ADDRESS', umaAddress: receiverUmaAddress }, sender));
    return receiverUmaLookupView(lookup);
  }

  @Get('external-account/:accountId')
  @ApiQuery({ name: 'senderUmaAddress', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'customerId', required: false, schema: { type: 'string' } })
  async lookUpExternalAccount(
    @Req() request: PlatformRequest,
    @Param('accountId') accountId: string,
    @Query() query: Record<string, unknown>,
  ): Promise<ReceiverExternalAccountLookupView> {
    const reader = new QueryReader(query, ['senderUmaAddress', 'customerId']);
    const sender = readLookupSender(reader, query);
    checkExternalAccountId(reader, accountId);
    throwIfBadLookup(reader);
    const lookup = await this.commandBus.execute(new LookUpReceiver(request.platform.platformId, { kind: 'EXTERNAL_ACCOUNT', accountId }, sender));
    return receiverExternalAccountLookupView(lookup);
  }
}
