import { Body, Controller, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Request } from 'express';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { DomainError, FieldError } from '../../infra/domain/domain-error';
import { RequiresPermission } from '../../infra/http/permissions';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { Idempotent } from '../../infra/http/route-metadata';
import { checkBody, hasErrorAt, throwIfAny } from '../../infra/http/validation';
import { parseId } from '../../infra/ids';
import { AdviseCardAuthorization } from '../commands/card-transaction-advise';
import { AuthorizeCardTransaction, AuthorizingKind, SimulationAnswer } from '../commands/card-transaction-authorize';
import { AnswerCardBalanceInquiry } from '../commands/card-transaction-balance-inquiry';
import { ClearCardTransaction } from '../commands/card-transaction-clear';
import { ReturnCardTransaction } from '../commands/card-transaction-return';
import { ReverseCardReturn } from '../commands/card-transaction-reverse';
import { CardMerchant } from '../domain/card-transaction/card-transaction.events';
import {
  CardMerchantDto,
  SandboxCardAmountDto,
  SandboxCardAuthorizationDto,
  SandboxCardBalanceInquiryDto,
  SandboxCardClearingDto,
  SandboxCardTransactionRefDto,
  checkCardTransactionId,
  checkSimulationCurrency,
} from './card-simulations.dto';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/**
 * The ten `POST /sandbox/cards/{id}/simulate/<op>` routes (docs/cards.md "Card transactions"):
 * each message is decided and recorded before the 202 `{issuerTransactionToken}`; only the
 * funding pull's confirmation comes later. Sandbox mode only (403 FORBIDDEN otherwise).
 */
@Controller('sandbox/cards')
@RequiresPermission('TRANSACT')
export class CardSimulationsController {
  constructor(
    private readonly commandBus: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post(':id/simulate/authorization')
  @HttpCode(202)
  @Idempotent()
  async authorization(@Req() request: PlatformRequest, @Param('id') cardId: string, @Body() body: unknown): Promise<SimulationAnswer> {
    return this.authorize(request, cardId, body, 'AUTHORIZATION');
  }

  @Post(':id/simulate/financial_authorization')
  @HttpCode(202)
  @Idempotent()
  async financialAuthorization(@Req() request: PlatformRequest, @Param('id') cardId: string, @Body() body: unknown): Promise<SimulationAnswer> {
    return this.authorize(request, cardId, body, 'FINANCIAL_AUTHORIZATION');
  }

  @Post(':id/simulate/credit_authorization')
  @HttpCode(202)
  @Idempotent()
  async creditAuthorization(@Req() request: PlatformRequest, @Param('id') cardId: string, @Body() body: unknown): Promise<SimulationAnswer> {
    return this.authorize(request, cardId, body, 'CREDIT_AUTHORIZATION');
  }

  @Post(':id/simulate/credit_authorization_advice')
  @HttpCode(202)
  @Idempotent()
  async creditAuthorizationAdvice(@Req() request: PlatformRequest, @Param('id') cardId: string, @Body() body: unknown): Promise<SimulationAnswer> {
    return this.authorize(request, cardId, body, 'CREDIT_AUTHORIZATION_ADVICE');
  }

  @Post(':id/simulate/financial_credit_authorization')
  @HttpCode(202)
  @Idempotent()
  async financialCreditAuthorization(@Req() request: PlatformRequest, @Param('id') cardId: string, @Body() body: unknown): Promise<SimulationAnswer> {
    return this.authorize(request, cardId, body, 'FINANCIAL_CREDIT_AUTHORIZATION');
  }

  @Post(':id/simulate/balance_inquiry')
  @HttpCode(202)
  @Idempotent()
  async balanceInquiry(@Req() request: PlatformRequest, @Param('id') cardId: string, @Body() body: unknown): Promise<SimulationAnswer> {
    this.requireSandbox();
    const { value, errors } = checkBody(SandboxCardBalanceInquiryDto, body);
    throwIfAny([...cardIdErrors(cardId), ...errors]);
    return this.commandBus.execute(new AnswerCardBalanceInquiry(request.platform.platformId, cardId, merchantOf(value.merchant)));
  }

  @Post(':id/simulate/clearing')
  @HttpCode(202)
  @Idempotent()
  async clearing(@Req() request: PlatformRequest, @Param('id') cardId: string, @Body() body: unknown): Promise<SimulationAnswer> {
    this.requireSandbox();
    const { value, errors } = checkBody(SandboxCardClearingDto, body);
    checkCardTransactionId(value, errors);
    throwIfAny([...cardIdErrors(cardId), ...errors]);
    return this.commandBus.execute(new ClearCardTransaction(request.platform.platformId, cardId, value.cardTransactionId, value.amount));
  }

  @Post(':id/simulate/authorization_advice')
  @HttpCode(202)
  @Idempotent()
  async authorizationAdvice(@Req() request: PlatformRequest, @Param('id') cardId: string, @Body() body: unknown): Promise<SimulationAnswer> {
    this.requireSandbox();
    const { value, errors } = checkBody(SandboxCardAmountDto, body);
    checkCardTransactionId(value, errors);
    throwIfAny([...cardIdErrors(cardId), ...errors]);
    return this.commandBus.execute(new AdviseCardAuthorization(request.platform.platformId, cardId, value.cardTransactionId, value.amount));
  }

  @Post(':id/simulate/return')
  @HttpCode(202)
  @Idempotent()
  async return(@Req() request: PlatformRequest, @Param('id') cardId: string, @Body() body: unknown): Promise<SimulationAnswer> {
    this.requireSandbox();
    const { value, errors } = checkBody(SandboxCardAmountDto, body);
    checkCardTransactionId(value, errors);
    throwIfAny([...cardIdErrors(cardId), ...errors]);
    return this.commandBus.execute(new ReturnCardTransaction(request.platform.platformId, cardId, value.cardTransactionId, value.amount));
  }

  @Post(':id/simulate/return_reversal')
  @HttpCode(202)
  @Idempotent()
  async returnReversal(@Req() request: PlatformRequest, @Param('id') cardId: string, @Body() body: unknown): Promise<SimulationAnswer> {
    this.requireSandbox();
    const { value, errors } = checkBody(SandboxCardTransactionRefDto, body);
    checkCardTransactionId(value, errors);
    throwIfAny([...cardIdErrors(cardId), ...errors]);
    return this.commandBus.execute(new ReverseCardReturn(request.platform.platformId, cardId, value.cardTransactionId));
  }

  private async authorize(request: PlatformRequest, cardId: string, body: unknown, kind: AuthorizingKind): Promise<SimulationAnswer> {
    this.requireSandbox();
    const { value, errors } = checkBody(SandboxCardAuthorizationDto, body);
    if (!hasErrorAt(errors, 'body')) checkSimulationCurrency(value, errors);
    throwIfAny([...cardIdErrors(cardId), ...errors]);
    return this.commandBus.execute(new AuthorizeCardTransaction(request.platform.platformId, cardId, kind, value.amount, merchantOf(value.merchant)));
  }

  private requireSandbox(): void {
    if (this.config.mode !== 'sandbox') throw new DomainError('FORBIDDEN', 'Sandbox operations are not available in production mode');
  }
}

/** A malformed card id is a bad field, reported with the body's. */
function cardIdErrors(cardId: string): FieldError[] {
  return parseId('Card', cardId) ? [] : [{ field: 'id', constraint: { format: 'Card-id' }, message: 'id must be a Card:<uuid> id' }];
}

/** The merchant as recorded: absent fields stay absent. */
function merchantOf(dto: CardMerchantDto): CardMerchant {
  return { descriptor: dto.descriptor, ...(dto.mcc !== undefined ? { mcc: dto.mcc } : {}), ...(dto.country !== undefined ? { country: dto.country } : {}) };
}
