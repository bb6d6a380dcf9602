import { Body, Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Request } from 'express';
import { WireTransaction } from '../../accounts';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { DomainError } from '../../infra/domain/domain-error';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { Idempotent } from '../../infra/http/route-metadata';
import { checkBody, throwIfAny } from '../../infra/http/validation';
import { ReceiveUmaPayment } from '../commands/receive-uma-payment';
import { SandboxUmaReceiveDto } from './sandbox-receive.dto';
import { RequiresPermission } from '../../infra/http/permissions';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/**
 * `POST /sandbox/uma/receive`: a sandbox payer (`senderUmaAddress`, a test address) pays one of
 * the platform's customers (`customerId` or `receiverUmaAddress`) `receivingCurrencyAmount` of
 * `receivingCurrencyCode`. Answers 200 with the INCOMING transaction, PENDING until the platform
 * approves it (docs/receiving.md). Sandbox mode only.
 */
@Controller('sandbox/uma')
@RequiresPermission('TRANSACT')
export class SandboxReceiveController {
  constructor(
    private readonly commandBus: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('receive')
  @HttpCode(200)
  @Idempotent()
  async receive(@Req() request: PlatformRequest, @Body() body: unknown): Promise<WireTransaction> {
    if (this.config.mode !== 'sandbox') throw new DomainError('FORBIDDEN', 'Sandbox operations are not available in production mode');
    const { value, errors } = checkBody(SandboxUmaReceiveDto, body);
    if (errors.length === 0 && value.customerId === undefined && value.receiverUmaAddress === undefined) {
      errors.push(
        { field: 'customerId', constraint: {}, message: 'customerId or receiverUmaAddress is required' },
        { field: 'receiverUmaAddress', constraint: {}, message: 'customerId or receiverUmaAddress is required' },
      );
    }
    throwIfAny(errors);
    return this.commandBus.execute(new ReceiveUmaPayment(request.platform.platformId, value));
  }
}
