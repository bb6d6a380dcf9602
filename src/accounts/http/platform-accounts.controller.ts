import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody } from '@nestjs/swagger';
import type { Request } from 'express';
import { Page } from '../../infra/http/pagination';
import { RequiresPermission } from '../../infra/http/permissions';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { QueryReader } from '../../infra/http/query-params';
import { Idempotent } from '../../infra/http/route-metadata';
import { validateBody } from '../../infra/http/validation';
import { parseId } from '../../infra/ids';
import { requirePathId } from '../../shared/validation/path-ids';
import { CreateExternalAccount } from '../commands/create-external-account';
import { DeleteExternalAccount } from '../commands/delete-external-account';
import { IssueOwnershipChallenge } from '../commands/issue-ownership-challenge';
import { VerifyOwnership } from '../commands/verify-ownership';
import { externalAccountNotFound } from '../domain/external-account/external-account.errors';
import { ExternalAccountView } from '../queries/external-account.view';
import { ExternalAccountsQuery } from '../queries/external-accounts.query';
import { PlatformInternalAccountList } from '../queries/internal-account.view';
import { InternalAccountsQuery } from '../queries/internal-accounts.query';
import { OwnershipChallengeView } from '../queries/ownership-challenge.view';
import { OwnershipChallengeDto, OwnershipVerifyDto } from './accounts.dto';
import { parseExternalAccountBody } from './external-account-body';
import { INTERNAL_ACCOUNT_TYPES } from './internal-accounts.controller';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/**
 * `/platform/...`: the platform's own accounts, which have no customer. Its internal accounts open
 * with each supported currency (the `platform-accounts` reactor); its external accounts are
 * created, checked, verified and deleted exactly as a customer's (the same commands), and these
 * routes see no customer's account: one answers 404 here, as another platform's does.
 */
@Controller('platform')
export class PlatformAccountsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly externalAccounts: ExternalAccountsQuery,
    private readonly internalAccounts: InternalAccountsQuery,
  ) {}

  @Get('internal-accounts')
  @RequiresPermission('VIEW')
  async listInternal(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>): Promise<PlatformInternalAccountList> {
    const reader = new QueryReader(query, ['currency', 'type']);
    const filters = { currency: reader.string('currency', 8), type: reader.oneOf('type', INTERNAL_ACCOUNT_TYPES) };
    reader.done();
    return { data: await this.internalAccounts.listForPlatform(request.platform.platformId, filters) };
  }

  @Post('external-accounts')
  @RequiresPermission('MANAGE')
  @Idempotent()
  @ApiBody({
    schema: { $ref: '#/components/schemas/CreatePlatformExternalAccountDto' },
    examples: {
      treasuryWallet: {
        summary: "The platform's own self-custody USDC wallet on Base (its ownership is then verified)",
        value: {
          currency: 'USDC',
          platformAccountId: 'treasury-base',
          ownershipType: 'FIRST_PARTY',
          accountInfo: { accountType: 'BASE_WALLET', address: '0x52908400098527886E0F7030069857D2E4169EE7' },
        },
      },
    },
  })
  async create(@Req() request: PlatformRequest, @Body() body: unknown): Promise<ExternalAccountView> {
    const { input, primaryField } = parseExternalAccountBody(body, 'PLATFORM');
    return this.commandBus.execute(new CreateExternalAccount(request.platform.platformId, input, primaryField));
  }

  @Get('external-accounts')
  @RequiresPermission('VIEW')
  async listExternal(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>): Promise<Page<ExternalAccountView>> {
    const reader = new QueryReader(query, ['currency']);
    const filters = { currency: reader.string('currency', 8), platformOwned: true };
    const page = reader.page('ExternalAccount');
    reader.done();
    return this.externalAccounts.list(request.platform.platformId, filters, page);
  }

  @Get('external-accounts/:externalAccountId')
  @RequiresPermission('VIEW')
  async getExternal(@Req() request: PlatformRequest, @Param('externalAccountId') id: string): Promise<ExternalAccountView> {
    // The reference declares no 400 here: an id that cannot exist is simply not found.
    if (!parseId('ExternalAccount', id)) throw externalAccountNotFound();
    const view = await this.externalAccounts.findView(request.platform.platformId, id, true);
    if (!view) throw externalAccountNotFound();
    return view;
  }

  @Delete('external-accounts/:externalAccountId')
  @RequiresPermission('MANAGE')
  @HttpCode(204)
  async deleteExternal(@Req() request: PlatformRequest, @Param('externalAccountId') id: string): Promise<void> {
    if (!parseId('ExternalAccount', id)) throw externalAccountNotFound();
    await this.commandBus.execute(new DeleteExternalAccount(request.platform.platformId, id, 'PLATFORM'));
  }

  @Post('external-accounts/:externalAccountId/challenge')
  @RequiresPermission('MANAGE')
  async challenge(@Req() request: PlatformRequest, @Param('externalAccountId') id: string, @Body() body: unknown): Promise<OwnershipChallengeView> {
    // A malformed id is 400 here: the ownership operations declare it.
    requirePathId('ExternalAccount', 'externalAccountId', id);
    const { method } = validateBody(OwnershipChallengeDto, body);
    return this.commandBus.execute(new IssueOwnershipChallenge(request.platform.platformId, id, method, 'PLATFORM'));
  }

  @Post('external-accounts/:externalAccountId/verify')
  @RequiresPermission('MANAGE')
  @HttpCode(200)
  async verify(@Req() request: PlatformRequest, @Param('externalAccountId') id: string, @Body() body: unknown): Promise<ExternalAccountView> {
    requirePathId('ExternalAccount', 'externalAccountId', id);
    const { signature, signatureScheme } = validateBody(OwnershipVerifyDto, body);
    return this.commandBus.execute(new VerifyOwnership(request.platform.platformId, id, signature, signatureScheme, 'PLATFORM'));
  }
}
