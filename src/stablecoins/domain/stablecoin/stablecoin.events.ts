import { ProviderEnvironment, StablecoinProvider } from '../provider-account/provider-account.events';

/**
 * Events of a registered stablecoin (`stablecoin-<uuid>`): its registration and its supply. Every
 * operation opens on this stream (a burn reserving its amount) and settles or is abandoned here,
 * so the supply invariant is decided at the stream's expected revision. Amounts are integers in
 * the coin's smallest unit. Never rename an event type: add a new one.
 */
export const STABLECOIN_ISSUANCE_STATUSES = ['PENDING_REVIEW', 'PROVISIONING', 'PROVISIONED', 'REJECTED', 'FAILED'] as const;
export type StablecoinIssuanceStatus = (typeof STABLECOIN_ISSUANCE_STATUSES)[number];

export const STABLECOIN_GRID_OPERATIONS_STATUSES = ['NOT_ENABLED', 'PENDING_APPROVAL', 'ENABLING', 'ENABLED', 'DISABLED'] as const;
export type StablecoinGridOperationsStatus = (typeof STABLECOIN_GRID_OPERATIONS_STATUSES)[number];

export const STABLECOIN_OPERATION_TYPES = ['MINT', 'BURN'] as const;
export type StablecoinOperationType = (typeof STABLECOIN_OPERATION_TYPES)[number];

type CoinRef = { stablecoinId: string; platformId: string };

export interface StablecoinRegistered {
  type: 'StablecoinRegistered';
  data: CoinRef & {
    name: string;
    symbol: string;
    baseCurrency: string;
    network: 'SPARK';
    decimals: number;
    issuanceStatus: StablecoinIssuanceStatus;
    gridOperationsStatus: StablecoinGridOperationsStatus;
    networkTokenIdentifier: string;
    /** The service currency code the coin is held in, once enabled for Grid operations; else null. */
    currency: string | null;
    provider: StablecoinProvider;
    stablecoinProviderAccountId: string;
    providerEnvironment: ProviderEnvironment;
    providerTokenIdentifier: string;
    registeredAt: string;
  };
}

/** An operation started: a burn reserves its amount out of the outstanding supply. */
export interface StablecoinOperationOpened {
  type: 'StablecoinOperationOpened';
  data: CoinRef & { operationId: string; operationType: StablecoinOperationType; amount: number; openedAt: string };
}

/** The provider completed the operation: the supply after it. */
export interface StablecoinSupplyChanged {
  type: 'StablecoinSupplyChanged';
  data: CoinRef & {
    operationId: string;
    operationType: StablecoinOperationType;
    amount: number;
    minted: number;
    burned: number;
    outstanding: number;
    changedAt: string;
  };
}

/** The operation ended without changing the supply (failed, expired, or refused by the ledger). */
export interface StablecoinOperationAbandoned {
  type: 'StablecoinOperationAbandoned';
  data: CoinRef & { operationId: string; operationType: StablecoinOperationType; amount: number; abandonedAt: string };
}

export type StablecoinEvent = StablecoinRegistered | StablecoinOperationOpened | StablecoinSupplyChanged | StablecoinOperationAbandoned;

export const STABLECOIN_EVENT_TYPES: StablecoinEvent['type'][] = [
  'StablecoinRegistered',
  'StablecoinOperationOpened',
  'StablecoinSupplyChanged',
  'StablecoinOperationAbandoned',
];
