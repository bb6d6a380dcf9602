import { Decider } from '../../../infra/domain/decider';
import { DomainError } from '../../../infra/domain/domain-error';
import { PlatformConfig, PlatformEvent } from './platform.events';

export type PlatformState =
  | { status: 'none' }
  | { status: 'active'; platformId: string; name: string; config: PlatformConfig };

export type PlatformCommand =
  | { type: 'RegisterPlatform'; platformId: string; name: string; config: PlatformConfig; now: string }
  | { type: 'UpdatePlatformConfig'; changes: Partial<PlatformConfig>; now: string };

export const DEFAULT_SANDBOX_CONFIG: PlatformConfig = {
  webhookEndpoint: null,
  supportedCurrencies: ['USD', 'USDC', 'USDB'].map((currencyCode) => ({
    currencyCode,
    minAmount: 1,
    maxAmount: 9_000_000_000_000_000,
    requiredCounterpartyFields: [],
  })),
  feeConfigs: [],
  embeddedWalletConfig: { rpId: 'localhost', allowedOrigins: ['http://localhost:3000'] },
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
        if (state.status !== 'active') throw new DomainError('NOT_FOUND', 'Platform not found');
        const changes: Partial<PlatformConfig> = {};
        for (const [key, value] of Object.entries(command.changes) as [keyof PlatformConfig, unknown][]) {
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
