/**
 * The embedded-wallet formats (DECISIONS.md section 4) as pure functions: import from here.
 * WebAuthn (shared with SCA) is in src/infra/crypto/webauthn.ts; payloadToSign builders (shared
 * with quotes) are in src/shared/wallet-payloads.ts.
 */
export * from './credential-bundle';
export * from './custodied-key';
export * from './hpke';
export * from './oidc-token';
export * from './otp-bundle';
export * from './otp-target-bundle';
export * from './otp-verification-token';
export * from './wallet-signature';
