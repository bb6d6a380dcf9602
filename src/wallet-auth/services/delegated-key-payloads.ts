import { canonicalJson } from '../../infra/crypto/canonical-json';
import { DelegatedKeyScope } from '../domain/delegated-key/delegated-key.events';

/**
 * The two payloads a wallet owner signs to delegate signing to a custodied key, in the activity
 * format of every wallet payload (src/shared/wallet-payloads.ts: organizationId, parameters,
 * timestampMs, type, canonical JSON): first the creation of the key's signer identity, then the
 * policy that lets it sign for the card funding source (and revoke itself).
 */
export const DELEGATED_KEY_ACTIVITY_TYPES = {
  CREATE_SIGNER: 'ACTIVITY_TYPE_CREATE_USERS',
  GRANT_POLICY: 'ACTIVITY_TYPE_CREATE_POLICIES',
} as const;

export interface DelegatedKeyPayloadInput {
  scope: DelegatedKeyScope;
  delegatedKeyId: string;
  publicKey: string;
  nickname: string;
  requestId: string;
  timestampMs: number;
}

export function createSignerPayload(input: DelegatedKeyPayloadInput): string {
  return activity(input, DELEGATED_KEY_ACTIVITY_TYPES.CREATE_SIGNER, { nickname: input.nickname });
}

export function grantPolicyPayload(input: DelegatedKeyPayloadInput): string {
  return activity(input, DELEGATED_KEY_ACTIVITY_TYPES.GRANT_POLICY, { effect: 'ALLOW', consensus: 'SIGN_CARD_PAYMENTS_AND_SELF_REVOKE' });
}

function activity(input: DelegatedKeyPayloadInput, type: string, extra: Record<string, unknown>): string {
  return canonicalJson({
    organizationId: input.scope.accountId,
    parameters: {
      ...extra,
      delegatedKeyId: input.delegatedKeyId,
      publicKey: input.publicKey,
      cardId: input.scope.cardId,
      fundingSourceId: input.scope.fundingSourceId,
      requestId: input.requestId,
    },
    timestampMs: String(input.timestampMs),
    type,
  });
}
