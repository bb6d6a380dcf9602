import { OperationDestination, OperationSource, StablecoinOperationStatus } from '../domain/operation/operation.events';
import { ProviderAccountStatus, ProviderEnvironment, StablecoinProvider } from '../domain/provider-account/provider-account.events';
import { StablecoinGridOperationsStatus, StablecoinIssuanceStatus, StablecoinOperationType } from '../domain/stablecoin/stablecoin.events';

/** The reference's StablecoinProviderAccount. The API client id and secret are never shown. */
export interface StablecoinProviderAccountWire {
  id: string;
  provider: StablecoinProvider;
  providerAccountId: string;
  providerEnvironment: ProviderEnvironment;
  status: ProviderAccountStatus;
  lastVerifiedAt?: string;
  createdAt: string;
  updatedAt: string;
}

/** The reference's Stablecoin (the supply is the service's own record, not shown). */
export interface StablecoinWire {
  id: string;
  name: string;
  symbol: string;
  baseCurrency: string;
  network: 'SPARK';
  decimals: number;
  issuanceStatus: StablecoinIssuanceStatus;
  gridOperationsStatus: StablecoinGridOperationsStatus;
  networkTokenIdentifier: string;
  currency?: string;
  provider: StablecoinProvider;
  stablecoinProviderAccountId: string;
  providerEnvironment: ProviderEnvironment;
  providerTokenIdentifier: string;
  createdAt: string;
  updatedAt: string;
}

/** The reference's StablecoinOperation; `amount` in the coin's smallest unit, as text. */
export interface StablecoinOperationWire {
  id: string;
  stablecoinId: string;
  operationType: StablecoinOperationType;
  status: StablecoinOperationStatus;
  amount: string;
  provider: StablecoinProvider;
  providerEnvironment: ProviderEnvironment;
  stablecoinProviderAccountId: string;
  source?: OperationSource;
  fundingInstructions?: Record<string, string>;
  destination?: OperationDestination;
  estimatedDelivery?: Record<string, string>;
  expiresAt?: string;
  failureReason?: string;
  description?: string;
  createdAt: string;
  updatedAt: string;
}

export interface ProviderAccountSource {
  stablecoinProviderAccountId: string;
  provider: StablecoinProvider;
  providerAccountId: string;
  providerEnvironment: ProviderEnvironment;
  status: ProviderAccountStatus;
  createdAt: string;
  updatedAt: string;
}

/** Verified when linked: `lastVerifiedAt` is the link's creation (the provider's later verdicts only revoke). */
export function providerAccountWire(link: ProviderAccountSource): StablecoinProviderAccountWire {
  return {
    id: link.stablecoinProviderAccountId,
    provider: link.provider,
    providerAccountId: link.providerAccountId,
    providerEnvironment: link.providerEnvironment,
    status: link.status,
    lastVerifiedAt: link.createdAt,
    createdAt: link.createdAt,
    updatedAt: link.updatedAt,
  };
}

export type StablecoinSource = Omit<StablecoinWire, 'id' | 'currency'> & { stablecoinId: string; currency: string | null };

export function stablecoinWire(coin: StablecoinSource): StablecoinWire {
  const wire: StablecoinWire = {
    id: coin.stablecoinId,
    name: coin.name,
    symbol: coin.symbol,
    baseCurrency: coin.baseCurrency,
    network: coin.network,
    decimals: coin.decimals,
    issuanceStatus: coin.issuanceStatus,
    gridOperationsStatus: coin.gridOperationsStatus,
    networkTokenIdentifier: coin.networkTokenIdentifier,
    provider: coin.provider,
    stablecoinProviderAccountId: coin.stablecoinProviderAccountId,
    providerEnvironment: coin.providerEnvironment,
    providerTokenIdentifier: coin.providerTokenIdentifier,
    createdAt: coin.createdAt,
    updatedAt: coin.updatedAt,
  };
  if (coin.currency !== null) wire.currency = coin.currency;
  return wire;
}

export interface OperationSourceRecord {
  operationId: string;
  stablecoinId: string;
  operationType: StablecoinOperationType;
  status: StablecoinOperationStatus;
  amount: number;
  provider: StablecoinProvider;
  providerEnvironment: ProviderEnvironment;
  stablecoinProviderAccountId: string;
  source: OperationSource;
  destination: OperationDestination;
  fundingInstructions: Record<string, string> | null;
  estimatedDelivery: Record<string, string> | null;
  expiresAt: string | null;
  failureReason: string | null;
  description: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Nulls are left out; funding instructions and expiry only while the funding is awaited. */
export function stablecoinOperationWire(operation: OperationSourceRecord): StablecoinOperationWire {
  const wire: StablecoinOperationWire = {
    id: operation.operationId,
    stablecoinId: operation.stablecoinId,
    operationType: operation.operationType,
    status: operation.status,
    amount: String(operation.amount),
    provider: operation.provider,
    providerEnvironment: operation.providerEnvironment,
    stablecoinProviderAccountId: operation.stablecoinProviderAccountId,
    source: operation.source,
    destination: operation.destination,
    createdAt: operation.createdAt,
    updatedAt: operation.updatedAt,
  };
  const awaitingFunding = operation.status === 'PENDING_FUNDING';
  if (operation.fundingInstructions && awaitingFunding) wire.fundingInstructions = operation.fundingInstructions;
  if (operation.expiresAt && (awaitingFunding || operation.status === 'EXPIRED')) wire.expiresAt = operation.expiresAt;
  if (operation.estimatedDelivery) wire.estimatedDelivery = operation.estimatedDelivery;
  if (operation.failureReason) wire.failureReason = operation.failureReason;
  if (operation.description !== null) wire.description = operation.description;
  return wire;
}
