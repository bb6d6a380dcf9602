import { DelegatedKeyStatus } from '../domain/delegated-key/delegated-key.events';

/**
 * A delegated signing key exactly as `GET /auth/delegated-keys/{id}` answers it (and the list,
 * and the creation's 201). The private key is custodied by the service and never shown.
 * @example
 * {
 *   "id": "DelegatedKey:019a4a19-2c7e-7b41-8d3f-5a6e9c0b1d72",
 *   "cardId": "Card:019a4a19-1874-7c6d-8e2a-4b9f0a3d1c58",
 *   "fundingSourceId": "CardFundingSource:019a4a19-1874-7e02-9c4b-7d1f3a5e8b20",
 *   "accountId": "InternalAccount:019a2a17-5758-7f90-b3a2-0c6d8e1f4b57",
 *   "publicKey": "02a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90",
 *   "nickname": "Card payments key",
 *   "status": "ACTIVE",
 *   "createdAt": "2025-11-03T14:22:30.004Z",
 *   "updatedAt": "2025-11-03T14:22:41.250Z"
 * }
 */
export interface DelegatedKeyView {
  id: string;
  cardId: string;
  fundingSourceId: string;
  accountId: string;
  /** Compressed P-256 public key (hex) of the custodied key pair. */
  publicKey: string;
  nickname: string;
  status: DelegatedKeyStatus;
  createdAt: string;
  updatedAt: string;
}

/** What a view is made of: the write side's record of a key and the read model's both carry it. */
export interface DelegatedKeyViewSource {
  delegatedKeyId: string;
  cardId: string;
  fundingSourceId: string;
  accountId: string;
  publicKey: string;
  nickname: string;
  status: DelegatedKeyStatus;
  createdAt: string;
  updatedAt: string;
}

export function delegatedKeyView(source: DelegatedKeyViewSource): DelegatedKeyView {
  return {
    id: source.delegatedKeyId,
    cardId: source.cardId,
    fundingSourceId: source.fundingSourceId,
    accountId: source.accountId,
    publicKey: source.publicKey,
    nickname: source.nickname,
    status: source.status,
    createdAt: source.createdAt,
    updatedAt: source.updatedAt,
  };
}
