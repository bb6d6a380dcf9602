import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { ValidationError } from '../../infra/domain/domain-error';
import { streamNameFor } from '../../infra/ids';
import { READ_MODEL_WAITER, ReadModelWaiter, awaitOwnWrites } from '../../infra/projections/read-model-waiter';
import { MAX_AMOUNT_MINOR } from '../../shared/currencies';
import { feeConfigFromWire } from '../domain/platform/fee-configs';
import { PlatformConfigPatch } from '../domain/platform/platform.decider';
import { TRANSACTION_TYPES } from '../domain/platform/platform.events';
import { PlatformConfigQuery, PlatformConfigView } from '../queries/platform-config.query';
import { PLATFORM_STREAM } from '../streams';
import { PlatformConfigUpdate, platformConfigUpdateErrors } from './platform-config-rules';

export type { PlatformConfigUpdate };

/** `PATCH /config`: answers the configuration as `GET /config` now shows it. */
export class UpdatePlatformConfig extends Command<PlatformConfigView> {
  constructor(
    readonly platformId: string,
    readonly update: PlatformConfigUpdate,
  ) {
    super();
  }
}

/**
 * Checks the update's rules (400 listing every bad field), maps it to the decider's patch (the
 * decider answers 501 for fee configs it cannot take yet), appends, and answers once the read
 * model includes the change.
 */
@CommandHandler(UpdatePlatformConfig)
export class UpdatePlatformConfigHandler implements ICommandHandler<UpdatePlatformConfig, PlatformConfigView> {
  constructor(
    private readonly commands: CommandStore,
    private readonly query: PlatformConfigQuery,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(READ_MODEL_WAITER) private readonly waiter: ReadModelWaiter,
  ) {}

  async execute({ platformId, update }: UpdatePlatformConfig): Promise<PlatformConfigView> {
    const errors = platformConfigUpdateErrors(update, [], this.config.webhooks.allowPrivateTargets);
    if (errors.length > 0) throw new ValidationError(errors);
    await this.commands.handle(PLATFORM_STREAM, streamNameFor(platformId), {
      type: 'UpdatePlatformConfig',
      patch: patchFrom(update),
      now: new Date().toISOString(),
    });
    await awaitOwnWrites(this.waiter);
    return this.query.get(platformId);
  }
}

/** The decider's patch for a valid update: wire shapes mapped to the stored ones, defaults filled in. */
function patchFrom(update: PlatformConfigUpdate): PlatformConfigPatch {
  const patch: PlatformConfigPatch = {};
  if (update.webhookEndpoint !== undefined) patch.webhookEndpoint = update.webhookEndpoint;
  if (update.umaDomain !== undefined) patch.umaDomain = update.umaDomain;
  if (update.supportedCurrencies) {
    patch.supportedCurrencies = update.supportedCurrencies.map((entry) => {
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
  if (update.feeConfigs) {
    patch.feeConfigs = update.feeConfigs.map((entry) =>
      feeConfigFromWire({
        feeType: entry.feeType,
        sourceCurrency: entry.sourceCurrency,
        variableFeeBps: entry.variableFeeBps,
        fixedFee: { amount: entry.fixedFee.amount, currency: entry.fixedFee.currency },
      }),
    );
  }
  if (update.embeddedWalletConfig) patch.embeddedWalletConfig = { ...update.embeddedWalletConfig };
  if (update.cardTokenization2faConfig) {
    const { email, sms, ...top } = update.cardTokenization2faConfig;
    patch.cardTokenization2faConfig = { ...top, ...(email ? { email: { ...email } } : {}), ...(sms ? { sms: { ...sms } } : {}) };
  }
  return patch;
}
