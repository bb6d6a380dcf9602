import { Decider } from '../../../infra/domain/decider';
import { tokenNotFound } from '../tokens.errors';
import { TokenCreated, TokenEvent } from './token.events';

export type TokenState = { status: 'none' } | (TokenCreated['data'] & { status: 'ACTIVE' | 'REVOKED' });

export type TokenCommand =
  | { type: 'CreateToken'; token: TokenCreated['data'] }
  | { type: 'RevokeToken'; platformId: string; now: string };

/**
 * One stream per API token: created once, revoked once. A revoked token is gone for its platform
 * (TOKEN_NOT_FOUND, as `DELETE` answers twice), and another platform's token is one that does
 * not exist.
 */
export const tokenDecider: Decider<TokenCommand, TokenState, TokenEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    if (command.type === 'CreateToken') {
      // A retried creation (same id) finds its own token: nothing more to record.
      if (state.status !== 'none') return [];
      return [{ type: 'TokenCreated', data: command.token }];
    }
    if (state.status !== 'ACTIVE' || state.platformId !== command.platformId) throw tokenNotFound();
    return [{ type: 'TokenRevoked', data: { tokenId: state.tokenId, platformId: state.platformId, clientId: state.clientId, revokedAt: command.now } }];
  },

  evolve(state, event) {
    switch (event.type) {
      case 'TokenCreated':
        return { ...event.data, status: 'ACTIVE' };
      case 'TokenRevoked':
        return state.status === 'none' ? state : { ...state, status: 'REVOKED' };
    }
  },
};
