/**
 * The platforms context's public entry: what other contexts, the read models and the app module may
 * use. Anything not exported here is internal to the context (test/architecture checks it).
 */
export { DEFAULT_SANDBOX_CONFIG } from './domain/platform/platform.decider';
export type { EmbeddedWalletConfig, PlatformConfig } from './domain/platform/platform.events';
export { TOKEN_EVENT_TYPES } from './domain/token/token.events';
export type { TokenEvent } from './domain/token/token.events';
export { PlatformsModule } from './platforms.module';
export { PlatformsService } from './platforms.service';
export { PlatformConfigQuery, WALLET_ENCLAVE_KEY, WEBHOOK_SIGNING_KEY } from './queries/platform-config.query';
export { isInternalHost } from './webhook-endpoint-policy';
