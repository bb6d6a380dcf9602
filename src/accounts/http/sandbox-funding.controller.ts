import { Body, Controller, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Request } from 'express';
import { InternalAccountView } from '../queries/internal-account.view';
import { FundDto } from './accounts.dto';
import { FundInternalAccount } from '../commands/fund-internal-account';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { DomainError } from '../../infra/domain/domain-error';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { Idempotent } from '../../infra/http/route-metadata';
import { validateBody } from '../../infra/http/validation';
import { requirePathId } from '../../shared/validation/path-ids';
import { RequiresPermission } from '../../infra/http/permissions';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/**
 * `POST /sandbox/internal-accounts/{accountId}/fund {amount}`: credits the account as an incoming
 * payment (a COMPLETED INCOMING transaction, `INCOMING_PAYMENT.COMPLETED` and a balance update)
 * and answers 200 with the account. Sandbox mode only.
 */
@Controller('sandbox/internal-accounts')
@RequiresPermission('TRANSACT')
export class SandboxFundingController {
  constructor(
    private readonly commandBus: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post(':accountId/fund')
  @HttpCode(200)
  @Idempotent()
  async fund(@Req() request: PlatformRequest, @Param('accountId') accountId: string, @Body() body: unknown): Promise<InternalAccountView> {
    if (this.config.mode !== 'sandbox') throw new DomainError('FORBIDDEN', 'Sandbox operations are not available in production mode');
    requirePathId('InternalAccount', 'accountId', accountId);
    const dto = validateBody(FundDto, body);
    return this.commandBus.execute(new FundInternalAccount(request.platform.platformId, accountId, dto.amount));
  }
}
