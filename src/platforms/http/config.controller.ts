import { Body, Controller, Get, HttpCode, Inject, Patch, Req } from '@nestjs/common';
import { ApiBody, ApiResponse } from '@nestjs/swagger';
import type { Request } from 'express';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { FieldError } from '../../infra/domain/domain-error';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { checkBody, hasErrorAt, throwIfAny } from '../../infra/http/validation';
import { streamNameFor } from '../../infra/ids';
import { READ_MODEL_WAITER, ReadModelWaiter, awaitOwnWrites } from '../../infra/projections/read-model-waiter';
import { MAX_AMOUNT_MINOR } from '../../shared/currencies';
import { feeConfigFromWire } from '../domain/platform/fee-configs';
import { PlatformConfigPatch, platformDecider } from '../domain/platform/platform.decider';
import { TRANSACTION_TYPES } from '../domain/platform/platform.events';
import { PlatformConfigQuery, PlatformConfigView } from '../queries/platform-config.query';
import { checkWebhookEndpoint } from '../webhook-endpoint-policy';
import { UpdateConfigDto } from './config.dto';
import { CommandStore } from '../../infra/commands/command-store';
import { PLATFORM_STREAM } from '../streams';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

@Controller('config')
export class ConfigController {
  constructor(
    private readonly commands: CommandStore,
    private readonly query: PlatformConfigQuery,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(READ_MODEL_WAITER) private readonly waiter: ReadModelWaiter,
  ) {}

  @Get()
  async get(@Req() request: PlatformRequest): Promise<PlatformConfigView> {
    return this.query.get(request.platform.platformId);
  }

  @Patch()
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
    throwIfAny([...errors, ...this.semanticErrors(dto, errors)]);
    const platformId = request.platform.platformId;
    await this.commands.handle(PLATFORM_STREAM, streamNameFor(platformId), {
      type: 'UpdatePlatformConfig',
      patch: patchFrom(dto),
      now: new Date().toISOString(),
    });
    await awaitOwnWrites(this.waiter);
    return this.query.get(platformId);
  }

  /** Checks beyond the DTO's shape, on the fields whose shape is right. */
  private semanticErrors(dto: UpdateConfigDto, shapeErrors: FieldError[]): FieldError[] {
    const errors: FieldError[] = [];
    if (typeof dto.webhookEndpoint === 'string' && !hasErrorAt(shapeErrors, 'webhookEndpoint')) {
      const problem = checkWebhookEndpoint(dto.webhookEndpoint, this.config.webhooks.allowPrivateTargets);
      if (problem) errors.push(problem);
    }
    if (Array.isArray(dto.supportedCurrencies) && dto.supportedCurrencies.length === 0) {
      // Customers get an account per supported currency: a platform without any could do nothing.
      errors.push({ field: 'supportedCurrencies', constraint: {}, message: 'supportedCurrencies must list at least one currency' });
    }
    if (Array.isArray(dto.supportedCurrencies) && !shapeErrors.some((error) => error.field === 'supportedCurrencies')) {
      const seen = new Set<string>();
      dto.supportedCurrencies.forEach((entry, index) => {
        // Entries with shape errors are already reported; the others are still checked.
        if (hasErrorAt(shapeErrors, `supportedCurrencies.${index}`)) return;
        if (seen.has(entry.currencyCode)) {
          errors.push({ field: `supportedCurrencies.${index}.currencyCode`, constraint: {}, message: `${entry.currencyCode} is listed twice` });
        }
        seen.add(entry.currencyCode);
        if ((entry.minAmount ?? 1) > (entry.maxAmount ?? MAX_AMOUNT_MINOR)) {
          errors.push({ field: `supportedCurrencies.${index}.minAmount`, constraint: {}, message: 'minAmount must not exceed maxAmount' });
        }
      });
    }
    if (Array.isArray(dto.feeConfigs) && !shapeErrors.some((error) => error.field === 'feeConfigs')) {
      const keys = new Set<string>();
      dto.feeConfigs.forEach((entry, index) => {
        if (hasErrorAt(shapeErrors, `feeConfigs.${index}`)) return;
        const key = `${entry.feeType}/${entry.sourceCurrency}`;
        if (keys.has(key)) {
          errors.push({ field: `feeConfigs.${index}.sourceCurrency`, constraint: {}, message: `${entry.feeType} for ${entry.sourceCurrency} is listed twice` });
        }
        keys.add(key);
        // Fees are taken from the sending amount: a fixed fee in another currency would need a rate.
        if (entry.fixedFee.currency !== entry.sourceCurrency) {
          errors.push({
            field: `feeConfigs.${index}.fixedFee.currency`,
            constraint: { enum: [entry.sourceCurrency] },
            message: 'fixedFee.currency must be the sourceCurrency',
          });
        }
      });
    }
    if (Array.isArray(dto.embeddedWalletConfig?.allowedOrigins) && !hasErrorAt(shapeErrors, 'embeddedWalletConfig.allowedOrigins')) {
      dto.embeddedWalletConfig.allowedOrigins.forEach((origin, index) => {
        if (!isOrigin(origin)) {
          errors.push({
            field: `embeddedWalletConfig.allowedOrigins.${index}`,
            constraint: { format: 'origin' },
            message: 'Each origin must be a scheme://host[:port] origin without a path',
          });
        }
      });
    }
    return errors;
  }
}

function isOrigin(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === text;
  } catch {
    return false;
  }
}

/** The decider's patch for a valid body: wire shapes mapped to the stored ones, defaults filled in. */
function patchFrom(dto: UpdateConfigDto): PlatformConfigPatch {
  const patch: PlatformConfigPatch = {};
  if (dto.webhookEndpoint !== undefined) patch.webhookEndpoint = dto.webhookEndpoint;
  if (dto.umaDomain !== undefined) patch.umaDomain = dto.umaDomain;
  if (dto.supportedCurrencies) {
    patch.supportedCurrencies = dto.supportedCurrencies.map((entry) => {
      const fields = entry.requiredCounterpartyFields ?? [];
      const optional = fields.filter((field) => !field.mandatory).map((field) => field.name);
      return {
        currencyCode: entry.currencyCode,
        minAmount: entry.minAmount ?? 1,
        maxAmount: entry.maxAmount ?? MAX_AMOUNT_MINOR,
        requiredCounterpartyFields: fields.filter((field) => field.mandatory).map((field) => field.name),
        ...(optional.length > 0 ? { optionalCounterpartyFields: optional } : {}),
        enabledTransactionTypes: entry.enabledTransactionTypes ?? [...TRANSACTION_TYPES],
      };
    });
  }
  if (dto.feeConfigs) {
    patch.feeConfigs = dto.feeConfigs.map((entry) =>
      feeConfigFromWire({
        feeType: entry.feeType,
        sourceCurrency: entry.sourceCurrency,
        variableFeeBps: entry.variableFeeBps,
        fixedFee: { amount: entry.fixedFee.amount, currency: entry.fixedFee.currency },
      }),
    );
  }
  if (dto.embeddedWalletConfig) patch.embeddedWalletConfig = { ...dto.embeddedWalletConfig };
  if (dto.cardTokenization2faConfig) {
    const { email, sms, ...top } = dto.cardTokenization2faConfig;
    patch.cardTokenization2faConfig = { ...top, ...(email ? { email: { ...email } } : {}), ...(sms ? { sms: { ...sms } } : {}) };
  }
  return patch;
}
