/**
 * The wallet-auth context's public entry: what other contexts, the read models and the app module may
 * use. Anything not exported here is internal to the context (test/architecture checks it).
 */
export { verifyWalletSignatureHeader } from './crypto/wallet-signature';
export type { WalletSessionCreated, WalletSessionRevoked } from './domain/session/session.events';
export type { CredentialDetails, WalletCredentialRegistered, WalletCredentialRemoved } from './domain/wallet/wallet.events';
export { credentialView, sessionView } from './queries/wallet-auth.views';
export { WalletQuoteSignatureVerifier } from './services/quote-signature.verifier';
export type { QuoteExecutionSignatureVerifier } from './services/quote-signature.verifier';
export { WalletAuthModule } from './wallet-auth.module';
