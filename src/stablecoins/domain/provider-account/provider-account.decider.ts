import { Decider } from '../../../infra/domain/decider';
import { providerAccountNotFound } from '../stablecoins.errors';
import { ProviderAccountStatus, StablecoinProviderAccountEvent, StablecoinProviderAccountLinked } from './provider-account.events';

export type ProviderAccountRecord = Omit<StablecoinProviderAccountLinked['data'], 'linkedAt'> & {
  createdAt: string;
  updatedAt: string;
};

export type ProviderAccountState = { status: 'none' } | ({ status: ProviderAccountStatus } & ProviderAccountRecord);
export type ExistingProviderAccount = Exclude<ProviderAccountState, { status: 'none' }>;

export type ProviderAccountCommand =
  | ({ type: 'LinkProviderAccount'; now: string } & Omit<StablecoinProviderAccountLinked['data'], 'linkedAt'>)
  /** The provider's later verdict on the credentials (a task). */
  | { type: 'RecordProviderVerdict'; verdict: 'REVOKED' | 'INVALID'; now: string };

/**
 * A link is ACTIVE from its creation; the provider may revoke it (REVOKED) or stop accepting its
 * credentials (INVALID). Both are final: a platform links the credentials again to get a new link.
 */
export const providerAccountDecider: Decider<ProviderAccountCommand, ProviderAccountState, StablecoinProviderAccountEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'LinkProviderAccount': {
        if (state.status !== 'none') return [];
        const { type: _type, now, ...data } = command;
        return [{ type: 'StablecoinProviderAccountLinked', data: { ...data, linkedAt: now } }];
      }
      case 'RecordProviderVerdict': {
        if (state.status === 'none') throw providerAccountNotFound();
        if (state.status !== 'ACTIVE') return [];
        const ref = { stablecoinProviderAccountId: state.stablecoinProviderAccountId, platformId: state.platformId };
        return command.verdict === 'REVOKED'
          ? [{ type: 'StablecoinProviderAccountRevoked', data: { ...ref, revokedAt: command.now } }]
          : [{ type: 'StablecoinProviderAccountInvalidated', data: { ...ref, invalidatedAt: command.now } }];
      }
    }
  },

  evolve(state, event) {
    if (event.type === 'StablecoinProviderAccountLinked') {
      const { linkedAt, ...data } = event.data;
      return { status: 'ACTIVE', ...data, createdAt: linkedAt, updatedAt: linkedAt };
    }
    if (state.status === 'none') return state;
    switch (event.type) {
      case 'StablecoinProviderAccountRevoked':
        return { ...state, status: 'REVOKED', updatedAt: event.data.revokedAt };
      case 'StablecoinProviderAccountInvalidated':
        return { ...state, status: 'INVALID', updatedAt: event.data.invalidatedAt };
    }
  },
};
