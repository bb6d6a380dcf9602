/**
 * Events of a card funding source's delegated signing keys (`cardFundingSource-<uuid>` for
 * `CardFundingSource:<uuid>`): the binding of one card to one embedded wallet that funds it. One
 * stream per binding, because its rule spans keys: at most one ACTIVE key at a time. A key is
 * created PENDING (the owner's first signed leg), becomes ACTIVE (the second) and ends REVOKED.
 * The private key is sealed in the KeyVault; events carry only its public key.
 */
export const DELEGATED_KEY_STATUSES = ['PENDING', 'ACTIVE', 'REVOKED'] as const;
export type DelegatedKeyStatus = (typeof DELEGATED_KEY_STATUSES)[number];

/** What a key is delegated for: the card, its funding source and the wallet behind it. */
export type DelegatedKeyScope = {
  platformId: string;
  cardId: string;
  fundingSourceId: string;
  /** The EMBEDDED_WALLET internal account that funds the card. */
  accountId: string;
};

export type DelegatedKeyCreated = {
  type: 'DelegatedKeyCreated';
  data: DelegatedKeyScope & {
    delegatedKeyId: string;
    /** Compressed P-256 public key (hex) of the custodied key pair. */
    publicKey: string;
    nickname: string;
    /** The signed request (the first call's Request-Id) that authorised the key's creation. */
    requestId: string;
    /** The Request-Id the second signed leg must echo to activate this key. */
    activationRequestId: string;
    signedBySessionId: string | null;
    createdAt: string;
  };
};

export type DelegatedKeyActivated = {
  type: 'DelegatedKeyActivated';
  data: DelegatedKeyScope & { delegatedKeyId: string; requestId: string; signedBySessionId: string | null; activatedAt: string };
};

export type DelegatedKeyRevoked = {
  type: 'DelegatedKeyRevoked';
  data: DelegatedKeyScope & { delegatedKeyId: string; revokedAt: string };
};

export type DelegatedKeyEvent = DelegatedKeyCreated | DelegatedKeyActivated | DelegatedKeyRevoked;

export const DELEGATED_KEY_EVENT_TYPES: DelegatedKeyEvent['type'][] = ['DelegatedKeyCreated', 'DelegatedKeyActivated', 'DelegatedKeyRevoked'];
