import { Decider } from '../../../infra/domain/decider';
import { walletUnauthorized } from '../wallet-auth.errors';
import { WalletRequestEvent, WalletRequestIssued } from './request.events';

/**
 * A pending signed request is issued once and completed once: a Request-Id is single use and
 * lives until `expiresAt` (5 minutes). Completing it twice (a replayed retry, or two retries
 * racing) is refused, and the expected-revision append makes the race safe.
 */
export type PendingRequest = WalletRequestIssued['data'];

export type WalletRequestState =
  | { status: 'none' }
  | { status: 'issued'; request: PendingRequest }
  | { status: 'completed'; request: PendingRequest; completedAt: string };

export type WalletRequestCommand =
  | { type: 'IssueWalletRequest'; request: PendingRequest }
  | { type: 'CompleteWalletRequest'; signedBySessionId: string | null; now: string };

export const REQUEST_ALREADY_USED_REASON = 'Request-Id was already used; request ids are single use';
export const REQUEST_EXPIRED_REASON = 'Request-Id has expired; start the request again';

export const walletRequestDecider: Decider<WalletRequestCommand, WalletRequestState, WalletRequestEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'IssueWalletRequest':
        if (state.status !== 'none') return [];
        return [{ type: 'WalletRequestIssued', data: command.request }];
      case 'CompleteWalletRequest': {
        if (state.status === 'none') throw walletUnauthorized('Request-Id does not name a pending request', 'REQUEST_ID');
        if (state.status === 'completed') throw walletUnauthorized(REQUEST_ALREADY_USED_REASON, 'REQUEST_ID');
        if (Date.parse(state.request.expiresAt) <= Date.parse(command.now)) throw walletUnauthorized(REQUEST_EXPIRED_REASON, 'REQUEST_ID');
        const { requestId, platformId, accountId, action } = state.request;
        return [
          {
            type: 'WalletRequestCompleted',
            data: { requestId, platformId, accountId, action, signedBySessionId: command.signedBySessionId, completedAt: command.now },
          },
        ];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'WalletRequestIssued':
        return { status: 'issued', request: event.data };
      case 'WalletRequestCompleted':
        if (state.status !== 'issued') return state;
        return { status: 'completed', request: state.request, completedAt: event.data.completedAt };
    }
  },
};
