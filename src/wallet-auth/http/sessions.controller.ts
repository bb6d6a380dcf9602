import { Body, Controller, Delete, Get, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody, ApiQuery } from '@nestjs/swagger';
import { ValidationError } from '../../infra/domain/domain-error';
import { HttpResult } from '../../infra/http/http-result';
import { validateBody } from '../../infra/http/validation';
import { requirePathId } from '../../shared/validation/path-ids';
import { WalletAuthQuery } from '../queries/wallet-auth.query';
import { SessionView } from '../queries/wallet-auth.views';
import { RefreshWalletSession } from '../commands/refresh-wallet-session';
import { RevokeWalletSession } from '../commands/revoke-wallet-session';
import { CLIENT_PUBLIC_KEY_PATTERN, checkClientPublicKey } from '../crypto/credential-bundle';
import { WalletClock } from '../services/wallet-clock';
import { ClientPublicKeyDto } from './wallet-auth.dto';
import { PlatformRequest, requireAccountIdQuery, signedCallHeaders } from './wallet-request';
import { RequiresPermission } from '../../infra/http/permissions';

/** Embedded-wallet sessions: the live ones, revocation and refresh (both signed). */
@Controller('auth/sessions')
export class SessionsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly query: WalletAuthQuery,
    private readonly clock: WalletClock,
  ) {}

  /** Live sessions only: expired and revoked sessions sign nothing and are not listed. */
  @Get()
  @RequiresPermission('VIEW')
  @ApiQuery({ name: 'accountId', required: true, schema: { type: 'string' } })
  async list(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>): Promise<{ data: SessionView[] }> {
    // Not paginated (a wallet has a handful); an account with none visible to the platform lists none.
    const accountId = requireAccountIdQuery(query);
    return { data: await this.query.listActiveSessions(request.platform.platformId, accountId, this.clock.now()) };
  }

  @Delete(':sessionId')
  @RequiresPermission('TRANSACT')
  async revoke(@Req() request: PlatformRequest, @Param('sessionId') sessionId: string): Promise<HttpResult<unknown>> {
    requirePathId('Session', 'sessionId', sessionId);
    return this.commandBus.execute(new RevokeWalletSession(request.platform.platformId, sessionId, signedCallHeaders(request)));
  }

  @Post(':sessionId/refresh')
  @RequiresPermission('TRANSACT')
  @ApiBody({ schema: { $ref: '#/components/schemas/ClientPublicKeyDto' } })
  async refresh(@Req() request: PlatformRequest, @Param('sessionId') sessionId: string, @Body() body: unknown): Promise<HttpResult<unknown>> {
    requirePathId('Session', 'sessionId', sessionId);
    const { clientPublicKey } = validateBody(ClientPublicKeyDto, body);
    const key = checkClientPublicKey(clientPublicKey);
    if (!key.ok) throw new ValidationError([{ field: 'clientPublicKey', constraint: { pattern: CLIENT_PUBLIC_KEY_PATTERN.source }, message: key.reason }]);
    return this.commandBus.execute(new RefreshWalletSession(request.platform.platformId, sessionId, clientPublicKey, body, signedCallHeaders(request)));
  }
}
