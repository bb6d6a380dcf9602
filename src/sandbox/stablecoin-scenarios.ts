import { createHash } from 'node:crypto';
import { lastThree } from './suffix';

/**
 * The sandbox stablecoin provider (docs/sandbox.md "Stablecoins"): what it answers is read from
 * the last three characters of what the platform sends, like every other sandbox flow.
 */

/**
 * How the provider treats credentials given to `POST /stablecoin-provider-accounts`, by the
 * suffix of `apiClientId`: `001` refused (400 STABLECOIN_PROVIDER_ACCOUNT_INVALID, nothing
 * linked), `002` linked then revoked by the provider, `003` linked then no longer verifying
 * (INVALID), anything else linked for good.
 */
export type ProviderLinkScenario = 'REFUSE' | 'REVOKE_LATER' | 'INVALIDATE_LATER' | 'KEEP';

export function providerLinkScenario(apiClientId: string, mode: 'sandbox' | 'production'): ProviderLinkScenario {
  if (mode !== 'sandbox') return 'KEEP';
  switch (lastThree(apiClientId)) {
    case '001':
      return 'REFUSE';
    case '002':
      return 'REVOKE_LATER';
    case '003':
      return 'INVALIDATE_LATER';
    default:
      return 'KEEP';
  }
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** The provider account the credentials expose when none is named: 27 base62 characters, stable per client id. */
export function sandboxProviderAccountId(apiClientId: string): string {
  const digest = createHash('sha256').update(`sandbox-stablecoin-provider-account:${apiClientId}`).digest();
  return Array.from(digest.subarray(0, 27), (byte) => BASE62[byte % BASE62.length]).join('');
}

/** What the provider knows of a token it created for the issuer. */
export interface SandboxStablecoinToken {
  name: string;
  symbol: string;
  decimals: number;
  baseCurrency: string;
}

/**
 * The provider's token metadata for `providerTokenIdentifier`: a token ending `001` is unknown to
 * the provider; any other is a USD-backed token with 6 decimals whose symbol is the identifier in
 * capitals.
 */
export function sandboxStablecoinToken(providerTokenIdentifier: string): SandboxStablecoinToken | null {
  if (lastThree(providerTokenIdentifier) === '001') return null;
  const symbol = providerTokenIdentifier.toUpperCase();
  return { name: `${symbol} Stablecoin`, symbol, decimals: 6, baseCurrency: 'USD' };
}

/**
 * What the provider does with a mint or burn, by the suffix of its `description` (none: it
 * completes): `001` never answers (stays pending), `002` fails (PROVIDER_TRANSFER_FAILED), `003`
 * never receives the funding it awaits (EXPIRED after SANDBOX_SLOW_FAILURE_DELAY_MS; an operation
 * that awaits no funding completes), anything else completes after SANDBOX_SETTLEMENT_DELAY_MS
 * per step.
 */
export type StablecoinOperationScenario = 'COMPLETE' | 'FAIL' | 'EXPIRE' | 'NO_ANSWER';

export function stablecoinOperationScenario(description: string | null, mode: 'sandbox' | 'production'): StablecoinOperationScenario {
  if (mode !== 'sandbox') return 'COMPLETE';
  switch (lastThree(description)) {
    case '001':
      return 'NO_ANSWER';
    case '002':
      return 'FAIL';
    case '003':
      return 'EXPIRE';
    default:
      return 'COMPLETE';
  }
}

/** The provider's Spark deposit address for an operation's funding: stable per operation. */
export function sandboxDepositAddress(operationId: string): string {
  const alphabet = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
  const digest = createHash('sha256').update(`sandbox-stablecoin-deposit:${operationId}`).digest();
  return `sparkrt1${Array.from(digest, (byte) => alphabet[byte % 32]).join('')}`;
}

/** The provider's wire instructions for a wire-funded mint: its bank account, the operation as reference. */
export function sandboxWireInstructions(operationId: string): Record<string, string> {
  const reference = createHash('sha256').update(`sandbox-stablecoin-wire:${operationId}`).digest('hex').slice(0, 12).toUpperCase();
  return {
    rail: 'WIRE',
    bankName: 'Sandbox Trust Bank',
    beneficiaryName: 'Sandbox Stablecoin Provider',
    accountNumber: '000987654321',
    routingNumber: '021000021',
    reference: `MINT-${reference}`,
  };
}
