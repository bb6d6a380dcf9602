import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody, ApiQuery } from '@nestjs/swagger';
import { HttpResult } from '../../infra/http/http-result';
import { requirePathId } from '../../shared/validation/path-ids';
import { WalletAuthQuery } from '../queries/wallet-auth.query';
import { CredentialView } from '../queries/wallet-auth.views';
import { IssueCredentialChallenge } from '../commands/issue-credential-challenge';
import { RegisterCredential } from '../commands/register-credential';
import { RemoveCredential } from '../commands/remove-credential';
import { VerifyCredential } from '../commands/verify-credential';
import { parseCreateCredentialBody } from './credential-body';
import { PlatformRequest, requireAccountIdQuery, signedCallHeaders } from './wallet-request';
import { RequiresPermission } from '../../infra/http/permissions';

/** Embedded-wallet credentials and their login flows (SPEC.md "Embedded wallet authentication operations"). */
@Controller('auth/credentials')
export class CredentialsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly query: WalletAuthQuery,
  ) {}

  @Get()
  @RequiresPermission('VIEW')
  @ApiQuery({ name: 'accountId', required: true, schema: { type: 'string' } })
  async list(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>): Promise<{ data: CredentialView[] }> {
    // Not paginated (a wallet has a handful); an account with none visible to the platform lists none.
    const accountId = requireAccountIdQuery(query);
    return { data: await this.query.listCredentials(request.platform.platformId, accountId) };
  }

  @Post()
  @RequiresPermission('MANAGE')
  @ApiBody({ schema: { oneOf: [{ $ref: '#/components/schemas/CreateEmailOtpCredentialDto' }, { $ref: '#/components/schemas/CreateSmsOtpCredentialDto' }, { $ref: '#/components/schemas/CreatePasskeyCredentialDto' }, { $ref: '#/components/schemas/CreateOauthCredentialDto' }] } })
  async create(@Req() request: PlatformRequest, @Body() body: unknown): Promise<HttpResult<unknown>> {
    const parsed = parseCreateCredentialBody(body);
    return this.commandBus.execute(new RegisterCredential(request.platform.platformId, parsed, body, signedCallHeaders(request)));
  }

  @Post(':credentialId/challenge')
  @RequiresPermission('TRANSACT')
  @ApiBody({ required: false, schema: { $ref: '#/components/schemas/ChallengeDto' } })
  @HttpCode(200)
  async challenge(@Req() request: PlatformRequest, @Param('credentialId') credentialId: string, @Body() body: unknown): Promise<HttpResult<unknown>> {
    requirePathId('AuthMethod', 'credentialId', credentialId);
    return this.commandBus.execute(new IssueCredentialChallenge(request.platform.platformId, credentialId, body));
  }

  @Post(':credentialId/verify')
  @RequiresPermission('TRANSACT')
  @ApiBody({ schema: { oneOf: [{ $ref: '#/components/schemas/OtpVerifyDto' }, { $ref: '#/components/schemas/PasskeyVerifyDto' }, { $ref: '#/components/schemas/OauthVerifyDto' }] } })
  async verify(@Req() request: PlatformRequest, @Param('credentialId') credentialId: string, @Body() body: unknown): Promise<HttpResult<unknown>> {
    requirePathId('AuthMethod', 'credentialId', credentialId);
    return this.commandBus.execute(new VerifyCredential(request.platform.platformId, credentialId, body, signedCallHeaders(request)));
  }

  @Delete(':credentialId')
  @RequiresPermission('MANAGE')
  async remove(@Req() request: PlatformRequest, @Param('credentialId') credentialId: string): Promise<HttpResult<unknown>> {
    requirePathId('AuthMethod', 'credentialId', credentialId);
    return this.commandBus.execute(new RemoveCredential(request.platform.platformId, credentialId, signedCallHeaders(request)));
  }
}
