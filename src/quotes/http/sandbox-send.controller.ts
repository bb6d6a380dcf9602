import { Body, Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Request } from 'express';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { DomainError } from '../../infra/domain/domain-error';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { Idempotent } from '../../infra/http/route-metadata';
import { checkBody, hasErrorAt, throwIfAny } from '../../infra/http/validation';
import { parseId } from '../../infra/ids';
import { CURRENCY_CODES, isCurrencyCode } from '../../shared/currencies';
import { FundRealtimeQuote, WireTransaction } from '../commands/fund-realtime-quote';
import { SandboxSendDto } from './quotes.dto';
import { RequiresPermission } from '../../infra/http/permissions';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/**
 * `POST /sandbox/send {quoteId, currencyCode, currencyAmount?}` (DECISIONS.md section 5): the
 * payer pays a REALTIME_FUNDING quote's instructions. The currency must be the quote's sending
 * currency and the amount, when given, exactly its totalSendingAmount. Answers 200 with the
 * quote's transaction, now PROCESSING; settlement follows the destination's sandbox scenario.
 */
@Controller('sandbox')
@RequiresPermission('TRANSACT')
export class SandboxSendController {
  constructor(
    private readonly commandBus: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('send')
  @HttpCode(200)
  @Idempotent()
  async send(@Req() request: PlatformRequest, @Body() body: unknown): Promise<WireTransaction> {
    if (this.config.mode !== 'sandbox') throw new DomainError('FORBIDDEN', 'Sandbox operations are not available in production mode');
    const { value, errors } = checkBody(SandboxSendDto, body);
    if (!hasErrorAt(errors, 'quoteId') && !parseId('Quote', value.quoteId)) {
      errors.push({ field: 'quoteId', constraint: { format: 'Quote-id' }, message: 'quoteId must be a Quote:<uuid> id' });
    }
    if (!hasErrorAt(errors, 'currencyCode') && !isCurrencyCode(value.currencyCode)) {
      errors.push({ field: 'currencyCode', constraint: { enum: CURRENCY_CODES }, message: `currencyCode must be one of ${CURRENCY_CODES.join(', ')}` });
    }
    throwIfAny(errors);
    return this.commandBus.execute(new FundRealtimeQuote(request.platform.platformId, {
      quoteId: value.quoteId,
      currencyCode: value.currencyCode,
      currencyAmount: value.currencyAmount ?? null,
    }));
  }
}
