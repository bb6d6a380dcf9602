import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody } from '@nestjs/swagger';
import type { Request } from 'express';
import { Page } from '../../infra/http/pagination';
import { RequiresPermission } from '../../infra/http/permissions';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { QueryReader } from '../../infra/http/query-params';
import { checkBody, throwIfAny } from '../../infra/http/validation';
import { parseId } from '../../infra/ids';
import { requirePathId } from '../../shared/validation/path-ids';
import { CreateToken } from '../commands/create-token';
import { RevokeToken } from '../commands/revoke-token';
import { tokenNotFound } from '../domain/tokens.errors';
import { ApiTokenView, CreatedApiTokenView } from '../queries/token.view';
import { TokensQuery } from '../queries/tokens.query';
import { CreateTokenDto } from './tokens.dto';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/**
 * `POST /tokens`, `GET /tokens`, `GET /tokens/{tokenId}`, `DELETE /tokens/{tokenId}`
 * (docs/platforms.md "API tokens"). Tokens are credentials: every operation needs MANAGE, the
 * reads included (a VIEW token does not enumerate the platform's credentials).
 */
@Controller('tokens')
@RequiresPermission('MANAGE')
export class TokensController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly query: TokensQuery,
  ) {}

  /**
   * No Idempotency-Key: a stored answer would keep the secret. A retry after a lost answer makes
   * a second token; revoke the first.
   */
  @Post()
  @ApiBody({
    schema: { $ref: '#/components/schemas/CreateTokenDto' },
    examples: { payouts: { summary: 'A token that reads and sends payments, without administration', value: { name: 'Payouts', permissions: ['VIEW', 'TRANSACT'] } } },
  })
  async create(@Req() request: PlatformRequest, @Body() body: unknown): Promise<CreatedApiTokenView> {
    const { value, errors } = checkBody(CreateTokenDto, body);
    throwIfAny(errors);
    return this.commandBus.execute(new CreateToken(request.platform.platformId, request.platform.permissions, { name: value.name, permissions: value.permissions }));
  }

  @Get()
  async list(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>): Promise<Page<ApiTokenView>> {
    const reader = new QueryReader(query, ['name', 'createdAfter', 'createdBefore', 'updatedAfter', 'updatedBefore']);
    const filters = {
      name: reader.string('name', 255),
      createdAfter: reader.dateTime('createdAfter'),
      createdBefore: reader.dateTime('createdBefore'),
      updatedAfter: reader.dateTime('updatedAfter'),
      updatedBefore: reader.dateTime('updatedBefore'),
    };
    const page = reader.page('Token');
    reader.done();
    return this.query.list(request.platform.platformId, filters, page);
  }

  /** GET declares no 400: an id that cannot name a token is a token that does not exist. */
  @Get(':tokenId')
  async get(@Req() request: PlatformRequest, @Param('tokenId') tokenId: string): Promise<ApiTokenView> {
    if (!parseId('Token', tokenId)) throw tokenNotFound();
    const view = await this.query.findById(request.platform.platformId, tokenId);
    if (!view) throw tokenNotFound();
    return view;
  }

  @Delete(':tokenId')
  @HttpCode(204)
  async revoke(@Req() request: PlatformRequest, @Param('tokenId') tokenId: string): Promise<void> {
    requirePathId('Token', 'tokenId', tokenId);
    await this.commandBus.execute(new RevokeToken(request.platform.platformId, tokenId));
  }
}
