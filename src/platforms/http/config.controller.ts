import { Body, Controller, Get, HttpCode, Inject, Patch, Req } from '@nestjs/common';
import type { Request } from 'express';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { FieldError } from '../../infra/domain/domain-error';
import { EventStoreService } from '../../infra/event-store/event-store.service';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { checkBody, hasErrorAt, throwIfAny } from '../../infra/http/validation';
import { streamNameFor } from '../../infra/ids';
import { READ_MODEL_WAITER, ReadModelWaiter, awaitOwnWrites } from '../../infra/projections/read-model-waiter';
import { platformDecider } from '../domain/platform/platform.decider';
import { PlatformConfig } from '../domain/platform/platform.events';
import { PlatformConfigQuery, PlatformConfigView } from '../queries/platform-config.query';
import { checkWebhookEndpoint } from '../webhook-endpoint-policy';
import { UpdateConfigDto } from './config.dto';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

@Controller('config')
export class ConfigController {
  constructor(
    private readonly events: EventStoreService,
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
  async update(@Req() request: PlatformRequest, @Body() body: unknown): Promise<PlatformConfigView> {
    const { value: dto, errors } = checkBody(UpdateConfigDto, body);
    throwIfAny([...errors, ...this.semanticErrors(dto, errors)]);
    const changes: Partial<PlatformConfig> = {};
    if (dto.webhookEndpoint !== undefined) changes.webhookEndpoint = dto.webhookEndpoint;
    if (dto.supportedCurrencies) {
      changes.supportedCurrencies = dto.supportedCurrencies.map((entry) => ({
        currencyCode: entry.currencyCode,
        minAmount: entry.minAmount ?? 1,
        maxAmount: entry.maxAmount ?? 9_000_000_000_000_000,
        requiredCounterpartyFields: entry.requiredCounterpartyFields ?? [],
      }));
    }
    if (dto.feeConfigs) {
      changes.feeConfigs = dto.feeConfigs.map((entry) => ({
        currencyCode: entry.currencyCode,
        fixedFee: entry.fixedFee,
        variableFeeRate: entry.variableFeeRate,
      }));
    }
    if (dto.embeddedWalletConfig) {
      changes.embeddedWalletConfig = {
        rpId: dto.embeddedWalletConfig.rpId,
        allowedOrigins: dto.embeddedWalletConfig.allowedOrigins,
      };
    }
    const platformId = request.platform.platformId;
    await this.events.handle(streamNameFor(platformId), platformDecider, {
      type: 'UpdatePlatformConfig',
      changes,
      now: new Date().toISOString(),
    });
    await awaitOwnWrites(this.waiter);
    return this.query.get(platformId);
  }

  /** Checks beyond the DTO's shape, on the fields whose shape is right. */
  private semanticErrors(dto: UpdateConfigDto, shapeErrors: FieldError[]): FieldError[] {
    const errors: FieldError[] = [];
    if (typeof dto.webhookEndpoint === 'string' && !hasErrorAt(shapeErrors, 'webhookEndpoint')) {
      const problem = checkWebhookEndpoint(dto.webhookEndpoint, this.config.mode);
      if (problem) errors.push(problem);
    }
    if (Array.isArray(dto.supportedCurrencies) && dto.supportedCurrencies.length === 0) {
      // Customers get an account per supported currency: a platform without any could do nothing.
      errors.push({ field: 'supportedCurrencies', constraint: 'MIN_LENGTH', message: 'supportedCurrencies must list at least one currency' });
    }
    if (Array.isArray(dto.supportedCurrencies) && !shapeErrors.some((error) => error.field === 'supportedCurrencies')) {
      const seen = new Set<string>();
      dto.supportedCurrencies.forEach((entry, index) => {
        // Entries with shape errors are already reported; the others are still checked.
        if (hasErrorAt(shapeErrors, `supportedCurrencies.${index}`)) return;
        if (seen.has(entry.currencyCode)) {
          errors.push({ field: `supportedCurrencies.${index}.currencyCode`, constraint: 'FORMAT', message: `${entry.currencyCode} is listed twice` });
        }
        seen.add(entry.currencyCode);
        if (entry.minAmount !== undefined && entry.maxAmount !== undefined && entry.minAmount > entry.maxAmount) {
          errors.push({ field: `supportedCurrencies.${index}.minAmount`, constraint: 'MAX', message: 'minAmount must not exceed maxAmount' });
        }
      });
    }
    if (Array.isArray(dto.feeConfigs) && !hasErrorAt(shapeErrors, 'feeConfigs')) {
      const feeCurrencies = new Set<string>();
      dto.feeConfigs.forEach((entry, index) => {
        if (feeCurrencies.has(entry.currencyCode)) {
          errors.push({ field: `feeConfigs.${index}.currencyCode`, constraint: 'FORMAT', message: `${entry.currencyCode} is listed twice` });
        }
        feeCurrencies.add(entry.currencyCode);
      });
    }
    if (Array.isArray(dto.embeddedWalletConfig?.allowedOrigins) && !hasErrorAt(shapeErrors, 'embeddedWalletConfig.allowedOrigins')) {
      dto.embeddedWalletConfig.allowedOrigins.forEach((origin, index) => {
        if (!isOrigin(origin)) {
          errors.push({
            field: `embeddedWalletConfig.allowedOrigins.${index}`,
            constraint: 'FORMAT',
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
