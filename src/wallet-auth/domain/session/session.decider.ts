import { Decider } from '../../../infra/domain/decider';
import { sessionNotFound } from '../wallet-auth.errors';
import { WalletSessionCreated, WalletSessionEvent } from './session.events';

/** A session lasts 15 minutes (SPEC.md "Session", "Limits"). */
export const SESSION_LIFETIME_MS = 15 * 60 * 1000;

export type SessionRecord = WalletSessionCreated['data'];

export type WalletSessionState =
  | { status: 'none' }
  | { status: 'created'; session: SessionRecord }
  | { status: 'revoked'; session: SessionRecord; revokedAt: string };

export type WalletSessionCommand =
  | { type: 'CreateSession'; session: SessionRecord }
  | { type: 'RevokeSession'; requestId: string; now: string };

/** Live: created, not revoked, and `now` before `expiresAt`. Expired or revoked sessions sign nothing. */
export function isSessionActive(state: WalletSessionState, nowMs: number): state is { status: 'created'; session: SessionRecord } {
  return state.status === 'created' && Date.parse(state.session.expiresAt) > nowMs;
}

export const walletSessionDecider: Decider<WalletSessionCommand, WalletSessionState, WalletSessionEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'CreateSession':
        if (state.status !== 'none') return [];
        return [{ type: 'WalletSessionCreated', data: command.session }];
      case 'RevokeSession': {
        if (!isSessionActive(state, Date.parse(command.now))) throw sessionNotFound();
        const { sessionId, platformId, accountId } = state.session;
        return [{ type: 'WalletSessionRevoked', data: { sessionId, platformId, accountId, requestId: command.requestId, revokedAt: command.now } }];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'WalletSessionCreated':
        return { status: 'created', session: event.data };
      case 'WalletSessionRevoked':
        if (state.status !== 'created') return state;
        return { status: 'revoked', session: state.session, revokedAt: event.data.revokedAt };
    }
  },
};
