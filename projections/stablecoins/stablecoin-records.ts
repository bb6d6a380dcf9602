import {
  OperationSourceRecord,
  ProviderAccountSource,
  StablecoinEvent,
  StablecoinOperationEvent,
  StablecoinProviderAccountEvent,
  StablecoinSource,
} from '../../src/stablecoins';

/**
 * The `stablecoins` read model's own records of links, coins and operations: what their GET views
 * and list filters show, folded from the events (never the write side's state, which also keeps
 * the supply, the ledger plan and the sandbox scenario).
 */
export type ProviderAccountRecord = ProviderAccountSource & { platformId: string };
export type StablecoinRecord = StablecoinSource & { platformId: string };
export type OperationRecord = OperationSourceRecord & { platformId: string };

export function evolveProviderAccountRecord(record: ProviderAccountRecord | null, event: StablecoinProviderAccountEvent): ProviderAccountRecord | null {
  if (event.type === 'StablecoinProviderAccountLinked') {
    const { stablecoinProviderAccountId, platformId, provider, providerAccountId, providerEnvironment, linkedAt } = event.data;
    return { stablecoinProviderAccountId, platformId, provider, providerAccountId, providerEnvironment, status: 'ACTIVE', createdAt: linkedAt, updatedAt: linkedAt };
  }
  if (record === null) return null;
  switch (event.type) {
    case 'StablecoinProviderAccountRevoked':
      return { ...record, status: 'REVOKED', updatedAt: event.data.revokedAt };
    case 'StablecoinProviderAccountInvalidated':
      return { ...record, status: 'INVALID', updatedAt: event.data.invalidatedAt };
  }
}

/** Only the registration shows: supply movements change nothing a coin's view shows. */
export function evolveStablecoinRecord(record: StablecoinRecord | null, event: StablecoinEvent): StablecoinRecord | null {
  if (event.type !== 'StablecoinRegistered') return record;
  const { registeredAt, ...data } = event.data;
  return { ...data, createdAt: registeredAt, updatedAt: registeredAt };
}

export function evolveOperationRecord(record: OperationRecord | null, event: StablecoinOperationEvent): OperationRecord | null {
  if (event.type === 'StablecoinOperationCreated') {
    const { providerScenario: _sandbox, ledger: _ledger, fiatAmount: _fiat, baseCurrency: _base, ...data } = event.data;
    return { ...data, failureReason: null, updatedAt: data.createdAt };
  }
  if (record === null) return null;
  switch (event.type) {
    case 'StablecoinOperationFunded':
      return { ...record, status: 'PROCESSING', updatedAt: event.data.fundedAt };
    case 'StablecoinOperationCompleted':
      return { ...record, status: 'COMPLETED', updatedAt: event.data.completedAt };
    case 'StablecoinOperationFailed':
      return { ...record, status: 'FAILED', failureReason: event.data.failureReason, updatedAt: event.data.failedAt };
    case 'StablecoinOperationExpired':
      return { ...record, status: 'EXPIRED', updatedAt: event.data.expiredAt };
  }
}
