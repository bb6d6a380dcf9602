import { Body, Controller, Delete, Get, Param, Post, Query, Req } from '@nestjs/common';
import { HttpResult } from '../../infra/http/http-result';
import { requirePathId } from '../../shared/validation/path-ids';
import { WalletAuthQuery } from '../queries/wallet-auth.query';
import { SessionView } from '../queries/wallet-auth.views';
import { SessionActions } from '../services/session-actions';
import { WalletAccounts } from '../services/wallet-accounts';
import { WalletClock } from '../services/wallet-clock';
import { PlatformRequest, requireAccountIdQuery, signedCallHeaders } from './wallet-request';
import { ApiBody, ApiQuery } from '@nestjs/swagger';

/** Embedded-wallet sessions: the live ones, revocation and refresh (both signed). */
@Controller('auth/sessions')
export class SessionsController {
  constructor(
    private readonly query: WalletAuthQuery,
    private readonly accounts: WalletAccounts,
    private readonly actions: SessionActions,
    private readonly clock: WalletClock,
  ) {}

  /** Live sessions only: expired and revoked sessions sign nothing and are not listed. */
  @Get()
  @ApiQuery({ name: 'accountId', required: true, schema: { type: 'string' } })
  async list(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>): Promise<{ data: SessionView[] }> {
    const accountId = requireAccountIdQuery(query);
    await this.accounts.requireListedWallet(request.platform.platformId, accountId);
    return { data: await this.query.listActiveSessions(request.platform.platformId, accountId, this.clock.now()) };
  }

  @Delete(':sessionId')
  async revoke(@Req() request: PlatformRequest, @Param('sessionId') sessionId: string): Promise<HttpResult<unknown>> {
    requirePathId('Session', 'sessionId', sessionId);
    return this.actions.revoke(request.platform.platformId, sessionId, signedCallHeaders(request));
  }

  @Post(':sessionId/refresh')
  @ApiBody({ schema: { $ref: '#/components/schemas/ClientPublicKeyDto' } })
  async refresh(@Req() request: PlatformRequest, @Param('sessionId') sessionId: string, @Body() body: unknown): Promise<HttpResult<unknown>> {
    requirePathId('Session', 'sessionId', sessionId);
    return this.actions.refresh(request.platform.platformId, sessionId, body, signedCallHeaders(request));
  }
}
