/**
 * The wallet-auth context's public entry: what other contexts, the read models and the app module may
 * use. Anything not exported here is internal to the context (test/architecture checks it).
 */
export { verifyWalletSignatureHeader } from './crypto/wallet-signature';
export { DELEGATED_KEY_EVENT_TYPES } from './domain/delegated-key/delegated-key.events';
export type { DelegatedKeyEvent, DelegatedKeyStatus } from './domain/delegated-key/delegated-key.events';
export type { WalletSessionCreated, WalletSessionRevoked } from './domain/session/session.events';
export type { CredentialDetails, WalletCredentialRegistered, WalletCredentialRemoved } from './domain/wallet/wallet.events';
export { delegatedKeyView } from './queries/delegated-key.view';
export { credentialView, sessionView } from './queries/wallet-auth.views';
export { DelegatedKeySigner } from './services/delegated-key-signer';
export type { CardPaymentStampInput, DelegatedStamp } from './services/delegated-key-signer';
export { WalletQuoteSignatureVerifier } from './services/quote-signature.verifier';
export type { QuoteExecutionSignatureVerifier } from './services/quote-signature.verifier';
export { WalletAuthModule } from './wallet-auth.module';
// The console's time travel folds a signed request's and a session's stream with their deciders.
export { WALLET_REQUEST_STREAM, WALLET_SESSION_STREAM } from './streams';
