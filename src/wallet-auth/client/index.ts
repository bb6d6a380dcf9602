/**
 * The embedded-wallet client toolkit for platforms (README "Embedded wallets"): keys, the
 * Service-Wallet-Signature stamp, OTP encryption to a target bundle, opening sealed session keys
 * and exports, sandbox OIDC tokens, a software passkey, and an HTTP client for every flow.
 */
export * from './bundles';
export * from './keys';
export * from './oidc';
export * from './otp';
export * from './software-passkey';
export * from './stamp';
export * from './wallet-api';
