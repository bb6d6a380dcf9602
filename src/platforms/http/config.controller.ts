import { Body, Controller, Get, HttpCode, Inject, Patch, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody, ApiResponse } from '@nestjs/swagger';
import type { Request } from 'express';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { checkBody, throwIfAny } from '../../infra/http/validation';
import { platformConfigUpdateErrors } from '../commands/platform-config-rules';
import { UpdatePlatformConfig } from '../commands/update-platform-config';
import { PlatformConfigQuery, PlatformConfigView } from '../queries/platform-config.query';
import { UpdateConfigDto } from './config.dto';
import { RequiresPermission } from '../../infra/http/permissions';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

@Controller('config')
export class ConfigController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly query: PlatformConfigQuery,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @RequiresPermission('VIEW')
  async get(@Req() request: PlatformRequest): Promise<PlatformConfigView> {
    return this.query.get(request.platform.platformId);
  }

  @Patch()
  @RequiresPermission('MANAGE')
  @HttpCode(200)
  @ApiBody({
    schema: { $ref: '#/components/schemas/UpdateConfigDto' },
    examples: {
      endpointCurrenciesAndFee: {
        summary: 'Webhook endpoint, USD and EUR limits, a 0.15% fee on cross-currency payments from USD',
        value: {
          webhookEndpoint: 'https://api.example.com/webhooks/payments',
          supportedCurrencies: [
            { currencyCode: 'USD', minAmount: 100, maxAmount: 1000000000, enabledTransactionTypes: ['OUTGOING', 'INCOMING'] },
            { currencyCode: 'EUR', minAmount: 100, maxAmount: 500000000, requiredCounterpartyFields: [{ name: 'FULL_NAME', mandatory: true }], enabledTransactionTypes: ['OUTGOING'] },
          ],
          feeConfigs: [{ feeType: 'CROSS_CURRENCY_TRANSACTION', sourceCurrency: 'USD', variableFeeBps: 15, fixedFee: { amount: 0, currency: 'USD' } }],
        },
      },
    },
  })
  // Declared responses replace the default one in the published document, so 200 is listed too.
  @ApiResponse({ status: 200, description: 'The updated configuration' })
  // Beyond the statuses every operation has: fee configs for a source currency other than USD.
  @ApiResponse({ status: 501, description: 'Error (NOT_IMPLEMENTED)', schema: { $ref: '#/components/schemas/Error501' } })
  async update(@Req() request: PlatformRequest, @Body() body: unknown): Promise<PlatformConfigView> {
    const { value: dto, errors } = checkBody(UpdateConfigDto, body);
    // One 400 lists every bad field: with shape errors, the update's rules (UpdatePlatformConfig
    // checks them on a well-shaped body) report on the fields whose shape is right.
    if (errors.length > 0) throwIfAny([...errors, ...platformConfigUpdateErrors(dto, errors, this.config.webhooks.allowPrivateTargets)]);
    return this.commandBus.execute(new UpdatePlatformConfig(request.platform.platformId, dto));
  }
}
