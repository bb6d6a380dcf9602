import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody, ApiQuery } from '@nestjs/swagger';
import { HttpResult } from '../../infra/http/http-result';
import { checkBody, hasErrorAt, throwIfAny } from '../../infra/http/validation';
import { parseId } from '../../infra/ids';
import { RequiresPermission } from '../../infra/http/permissions';
import { requirePathId } from '../../shared/validation/path-ids';
import { CreateDelegatedKey, DelegatedKeyRequest } from '../commands/create-delegated-key';
import { RevokeDelegatedKey } from '../commands/revoke-delegated-key';
import { delegatedKeyNotFound } from '../domain/wallet-auth.errors';
import { DelegatedKeyView } from '../queries/delegated-key.view';
import { DelegatedKeysQuery } from '../queries/delegated-keys.query';
import { SignedRequestChallenge } from '../services/signed-requests';
import { CreateDelegatedKeyDto } from './wallet-auth.dto';
import { PlatformRequest, readDelegatedKeyFilters, signedCallHeaders } from './wallet-request';

/** Delegated signing keys of card funding sources (docs/wallets.md "Delegated keys"). */
@Controller('auth/delegated-keys')
export class DelegatedKeysController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly query: DelegatedKeysQuery,
  ) {}

  /** Three legs with the same body: 202, then signed 202, then signed 201. */
  @Post()
  @RequiresPermission('MANAGE')
  @ApiBody({
    schema: { $ref: '#/components/schemas/CreateDelegatedKeyDto' },
    examples: {
      cardPayments: {
        summary: 'Delegate the card payments of a card funded by an embedded wallet',
        value: {
          cardId: 'Card:019a4a19-1874-7c6d-8e2a-4b9f0a3d1c58',
          internalAccountId: 'InternalAccount:019a2a17-5758-7f90-b3a2-0c6d8e1f4b57',
          nickname: 'Card payments key',
        },
      },
    },
  })
  async create(@Req() request: PlatformRequest, @Body() body: unknown): Promise<HttpResult<DelegatedKeyView | SignedRequestChallenge>> {
    return this.commandBus.execute(new CreateDelegatedKey(request.platform.platformId, parseCreateBody(body), body, signedCallHeaders(request)));
  }

  @Get()
  @RequiresPermission('VIEW')
  @ApiQuery({ name: 'accountId', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'fundingSourceId', required: false, schema: { type: 'string' } })
  async list(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>): Promise<{ data: DelegatedKeyView[] }> {
    return { data: await this.query.list(request.platform.platformId, readDelegatedKeyFilters(query)) };
  }

  /** GET declares no 400: an id that cannot name a key is a key that does not exist. */
  @Get(':id')
  @RequiresPermission('VIEW')
  async get(@Req() request: PlatformRequest, @Param('id') id: string): Promise<DelegatedKeyView> {
    const found = parseId('DelegatedKey', id) ? await this.query.find(request.platform.platformId, id) : null;
    if (!found) throw delegatedKeyNotFound();
    return found.view;
  }

  @Delete(':id')
  @RequiresPermission('MANAGE')
  @HttpCode(204)
  async revoke(@Req() request: PlatformRequest, @Param('id') id: string): Promise<void> {
    requirePathId('DelegatedKey', 'id', id);
    await this.commandBus.execute(new RevokeDelegatedKey(request.platform.platformId, id));
  }
}

/** The body's shape and both ids' types, every bad field at once. */
function parseCreateBody(body: unknown): DelegatedKeyRequest {
  const { value, errors } = checkBody(CreateDelegatedKeyDto, body);
  if (hasErrorAt(errors, 'body')) throwIfAny(errors);
  for (const [field, prefix] of [['cardId', 'Card'], ['internalAccountId', 'InternalAccount']] as const) {
    if (!hasErrorAt(errors, field) && !parseId(prefix, value[field])) {
      errors.push({ field, constraint: { format: `${prefix}-id` }, message: `${field} must be a ${prefix}:<uuid> id` });
    }
  }
  throwIfAny(errors);
  return { cardId: value.cardId, internalAccountId: value.internalAccountId, nickname: value.nickname };
}
