/**
 * The stablecoins context's public entry: what other contexts, the read models and the app module
 * may use. Anything not exported here is internal to the context (test/architecture checks it).
 */
export { StablecoinsModule } from './stablecoins.module';
export { PROVIDER_ACCOUNT_EVENT_TYPES } from './domain/provider-account/provider-account.events';
export type { StablecoinProviderAccountEvent } from './domain/provider-account/provider-account.events';
export { STABLECOIN_EVENT_TYPES } from './domain/stablecoin/stablecoin.events';
export type { StablecoinEvent } from './domain/stablecoin/stablecoin.events';
export { STABLECOIN_OPERATION_EVENT_TYPES } from './domain/operation/operation.events';
export type { StablecoinOperationEvent } from './domain/operation/operation.events';
export { providerAccountWire, stablecoinOperationWire, stablecoinWire } from './queries/stablecoin.views';
export type { OperationSourceRecord, ProviderAccountSource, StablecoinSource } from './queries/stablecoin.views';
