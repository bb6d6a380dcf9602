import { Decider } from '../../../infra/domain/decider';
import { delegatedKeyAlreadyActive, delegatedKeyNotActive, delegatedKeyNotFound } from '../wallet-auth.errors';
import { DelegatedKeyEvent, DelegatedKeyScope, DelegatedKeyStatus } from './delegated-key.events';

/**
 * The delegated signing keys of one card funding source. The rule that needs the stream: at most
 * one ACTIVE key at a time (creating or activating another is 409 until it is revoked); PENDING
 * keys, left by an abandoned creation, block nothing. Only an ACTIVE key is revoked.
 */
export type DelegatedKeyRecord = DelegatedKeyScope & {
  delegatedKeyId: string;
  publicKey: string;
  nickname: string;
  status: DelegatedKeyStatus;
  activationRequestId: string;
  createdAt: string;
  updatedAt: string;
};

export type FundingSourceKeysState = {
  keys: Record<string, DelegatedKeyRecord>;
  activeKeyId: string | null;
};

export type FundingSourceKeysCommand =
  | (DelegatedKeyScope & {
      type: 'CreateDelegatedKey';
      delegatedKeyId: string;
      publicKey: string;
      nickname: string;
      requestId: string;
      activationRequestId: string;
      signedBySessionId: string | null;
      now: string;
    })
  | { type: 'ActivateDelegatedKey'; delegatedKeyId: string; requestId: string; signedBySessionId: string | null; now: string }
  | { type: 'RevokeDelegatedKey'; delegatedKeyId: string; now: string };

/**
 * The key the second signed leg activates, found by the Request-Id that leg echoes (whatever its
 * status: a replayed leg is then refused as a used Request-Id, not as another operation's).
 */
export function keyActivatedBy(state: FundingSourceKeysState, requestId: string): DelegatedKeyRecord | null {
  return Object.values(state.keys).find((key) => key.activationRequestId === requestId) ?? null;
}

export const fundingSourceKeysDecider: Decider<FundingSourceKeysCommand, FundingSourceKeysState, DelegatedKeyEvent> = {
  initialState: () => ({ keys: {}, activeKeyId: null }),

  decide(command, state) {
    switch (command.type) {
      case 'CreateDelegatedKey': {
        if (state.keys[command.delegatedKeyId]) return [];
        if (state.activeKeyId !== null) throw delegatedKeyAlreadyActive(state.activeKeyId);
        const { type: _type, now, ...data } = command;
        return [{ type: 'DelegatedKeyCreated', data: { ...data, createdAt: now } }];
      }
      case 'ActivateDelegatedKey': {
        const key = state.keys[command.delegatedKeyId];
        if (!key) throw delegatedKeyNotFound();
        // A replayed activation: the key is already past PENDING.
        if (key.status !== 'PENDING') return [];
        if (state.activeKeyId !== null) throw delegatedKeyAlreadyActive(state.activeKeyId);
        const { type: _type, now, ...data } = command;
        return [{ type: 'DelegatedKeyActivated', data: { ...scopeOf(key), ...data, activatedAt: now } }];
      }
      case 'RevokeDelegatedKey': {
        const key = state.keys[command.delegatedKeyId];
        if (!key) throw delegatedKeyNotFound();
        if (key.status !== 'ACTIVE') throw delegatedKeyNotActive(key.status);
        return [{ type: 'DelegatedKeyRevoked', data: { ...scopeOf(key), delegatedKeyId: key.delegatedKeyId, revokedAt: command.now } }];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'DelegatedKeyCreated': {
        const { requestId: _requestId, signedBySessionId: _signedBy, createdAt, ...key } = event.data;
        return { ...state, keys: { ...state.keys, [key.delegatedKeyId]: { ...key, status: 'PENDING', createdAt, updatedAt: createdAt } } };
      }
      case 'DelegatedKeyActivated':
        return {
          keys: withStatus(state, event.data.delegatedKeyId, 'ACTIVE', event.data.activatedAt),
          activeKeyId: event.data.delegatedKeyId,
        };
      case 'DelegatedKeyRevoked':
        return {
          keys: withStatus(state, event.data.delegatedKeyId, 'REVOKED', event.data.revokedAt),
          activeKeyId: state.activeKeyId === event.data.delegatedKeyId ? null : state.activeKeyId,
        };
    }
  },
};

function scopeOf(key: DelegatedKeyRecord): DelegatedKeyScope {
  return { platformId: key.platformId, cardId: key.cardId, fundingSourceId: key.fundingSourceId, accountId: key.accountId };
}

function withStatus(state: FundingSourceKeysState, delegatedKeyId: string, status: DelegatedKeyStatus, at: string): Record<string, DelegatedKeyRecord> {
  const key = state.keys[delegatedKeyId];
  if (!key) return state.keys;
  return { ...state.keys, [delegatedKeyId]: { ...key, status, updatedAt: at } };
}
