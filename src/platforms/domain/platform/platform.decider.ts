import { Decider } from '../../../infra/domain/decider';
import { DomainError } from '../../../infra/domain/domain-error';
import { FEE_CONFIG_SOURCE_CURRENCIES, upsertFeeConfigs } from './fee-configs';
import { CardTokenization2faConfig, EmbeddedWalletConfig, FeeConfig, PlatformConfig, PlatformEvent, SupportedCurrencyConfig } from './platform.events';

export type PlatformState =
  | { status: 'none' }
  | { status: 'active'; platformId: string; name: string; config: PlatformConfig };

export type PlatformCommand =
  | { type: 'RegisterPlatform'; platformId: string; name: string; config: PlatformConfig; now: string }
  | { type: 'UpdatePlatformConfig'; patch: PlatformConfigPatch; now: string };

/**
 * What `PATCH /config` asks for, field by field (absent: unchanged). Each field has its own
 * update rule, applied to the current configuration by the decider.
 */
export interface PlatformConfigPatch {
  /** Replaced; null clears it. */
  webhookEndpoint?: string | null;
  /** Replaced. */
  umaDomain?: string;
  /** The list is replaced as a whole. */
  supportedCurrencies?: SupportedCurrencyConfig[];
  /** Merged by (feeType, currencyCode); an entry charging nothing deactivates its key. */
  feeConfigs?: FeeConfig[];
  /** Merged: fields not given keep their value. */
  embeddedWalletConfig?: Partial<EmbeddedWalletConfig>;
  /** Merged, and so are its `email` and `sms` objects. */
  cardTokenization2faConfig?: CardTokenization2faConfig;
}

export const DEFAULT_SANDBOX_CONFIG: PlatformConfig = {
  webhookEndpoint: null,
  supportedCurrencies: ['USD', 'USDC', 'USDB'].map((currencyCode) => ({
    currencyCode,
    minAmount: 1,
    maxAmount: 9_000_000_000_000_000,
    requiredCounterpartyFields: [],
    enabledTransactionTypes: ['OUTGOING', 'INCOMING'],
  })),
  feeConfigs: [],
  embeddedWalletConfig: { rpId: 'localhost', allowedOrigins: ['http://localhost:3000'] },
  isRegulatedFinancialInstitution: true,
};

export const platformDecider: Decider<PlatformCommand, PlatformState, PlatformEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'RegisterPlatform':
        if (state.status !== 'none') return [];
        return [
          {
            type: 'PlatformRegistered',
            data: { platformId: command.platformId, name: command.name, config: command.config, registeredAt: command.now },
          },
        ];
      case 'UpdatePlatformConfig': {
        // Only an authenticated platform updates its configuration: a missing one is a fault of ours.
        if (state.status !== 'active') throw new Error(`Platform configuration update on a stream without a platform`);
        const unsupported = (command.patch.feeConfigs ?? []).find((entry) => !FEE_CONFIG_SOURCE_CURRENCIES.includes(entry.currencyCode));
        if (unsupported) {
          throw new DomainError('NOT_IMPLEMENTED', `Platform fee configs are only supported for source currency ${FEE_CONFIG_SOURCE_CURRENCIES.join(', ')}`, {
            sourceCurrency: unsupported.currencyCode,
          });
        }
        const changes: Partial<PlatformConfig> = {};
        for (const [key, value] of Object.entries(applyPatch(state.config, command.patch)) as [keyof PlatformConfig, unknown][]) {
          if (JSON.stringify(state.config[key]) !== JSON.stringify(value)) (changes as Record<string, unknown>)[key] = value;
        }
        if (Object.keys(changes).length === 0) return [];
        return [{ type: 'PlatformConfigUpdated', data: { platformId: state.platformId, changes, updatedAt: command.now } }];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'PlatformRegistered':
        return { status: 'active', platformId: event.data.platformId, name: event.data.name, config: event.data.config };
      case 'PlatformConfigUpdated':
        if (state.status !== 'active') return state;
        return { ...state, config: { ...state.config, ...event.data.changes } };
    }
  },
};

/** The new value of every field the patch names (the others are left out). */
function applyPatch(config: PlatformConfig, patch: PlatformConfigPatch): Partial<PlatformConfig> {
  const next: Partial<PlatformConfig> = {};
  if (patch.webhookEndpoint !== undefined) next.webhookEndpoint = patch.webhookEndpoint;
  if (patch.umaDomain !== undefined) next.umaDomain = patch.umaDomain;
  if (patch.supportedCurrencies) next.supportedCurrencies = patch.supportedCurrencies;
  if (patch.feeConfigs) next.feeConfigs = upsertFeeConfigs(config.feeConfigs, patch.feeConfigs);
  if (patch.embeddedWalletConfig) next.embeddedWalletConfig = { ...config.embeddedWalletConfig, ...definedOnly(patch.embeddedWalletConfig) };
  if (patch.cardTokenization2faConfig) {
    const current = config.cardTokenization2faConfig ?? {};
    const { email, sms, ...top } = definedOnly(patch.cardTokenization2faConfig);
    const merged: CardTokenization2faConfig = { ...current, ...top };
    if (email) merged.email = { ...current.email, ...definedOnly(email) };
    if (sms) merged.sms = { ...current.sms, ...definedOnly(sms) };
    next.cardTokenization2faConfig = merged;
  }
  return next;
}

function definedOnly<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined)) as T;
}
