import { Body, Controller, Param, Patch, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody } from '@nestjs/swagger';
import { HttpResult } from '../../infra/http/http-result';
import { requirePathId } from '../../shared/validation/path-ids';
import { ExportWallet } from '../commands/export-wallet';
import { UpdateWalletPrivacy } from '../commands/update-wallet-privacy';
import { PlatformRequest, signedCallHeaders } from './wallet-request';
import { RequiresPermission } from '../../infra/http/permissions';

/**
 * The signed actions on an EMBEDDED_WALLET internal account (SPEC.md): `PATCH
 * /internal-accounts/{id}` (privacy) and `POST /internal-accounts/{id}/export`. They live in the
 * wallet context; the accounts context keeps the reads of `/internal-accounts`.
 */
@Controller('internal-accounts')
@RequiresPermission('MANAGE')
export class WalletAccountsController {
  constructor(private readonly commandBus: CommandBus) {}

  @Patch(':accountId')
  @ApiBody({ schema: { $ref: '#/components/schemas/UpdateWalletPrivacyDto' } })
  async updatePrivacy(@Req() request: PlatformRequest, @Param('accountId') accountId: string, @Body() body: unknown): Promise<HttpResult<unknown>> {
    requirePathId('InternalAccount', 'id', accountId);
    return this.commandBus.execute(new UpdateWalletPrivacy(request.platform.platformId, accountId, body, signedCallHeaders(request)));
  }

  @Post(':accountId/export')
  @ApiBody({ schema: { $ref: '#/components/schemas/ClientPublicKeyDto' } })
  async export(@Req() request: PlatformRequest, @Param('accountId') accountId: string, @Body() body: unknown): Promise<HttpResult<unknown>> {
    requirePathId('InternalAccount', 'id', accountId);
    return this.commandBus.execute(new ExportWallet(request.platform.platformId, accountId, body, signedCallHeaders(request)));
  }
}
