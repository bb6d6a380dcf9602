import { DomainError, FieldError } from '../../../infra/domain/domain-error';
import { StoredExternalAccountType } from './account-identifiers';
import { Beneficiary, ExternalAccountStatus, OwnershipVerificationMethod } from './external-account.events';

/**
 * Ownership verification of self-custody wallets (docs/accounts.md "Ownership verification").
 * The reference requires it for `FIRST_PARTY` self-custody wallets "on platforms subject to
 * counterparty requirements" (the EU Travel Rule), and lets transfers below the regulatory
 * threshold through meanwhile; the jurisdictions, the threshold and the challenge lifetimes are
 * ours.
 */

/** Wallet types whose owner holds a signing key (Lightning destinations are invoices and addresses, not keys). */
const KEYED_WALLET_TYPES: ReadonlySet<string> = new Set([
  'SPARK_WALLET', 'SOLANA_WALLET', 'BASE_WALLET', 'POLYGON_WALLET', 'ETHEREUM_WALLET', 'PLASMA_WALLET', 'TRON_WALLET',
]);

/**
 * The EU Transfer of Funds Regulation (2023/1113) applies in the EU member states and, through the
 * EEA agreement, Iceland, Liechtenstein and Norway. Not the SCA list: another regulation, which
 * the EEA states adopt on their own schedule.
 */
const TRAVEL_RULE_REGIONS: ReadonlySet<string> = new Set([
  'AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT',
  'NL', 'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE', 'IS', 'LI', 'NO',
]);

/**
 * The EUR 1,000 the regulation sets for transfers to self-hosted wallets, in the currencies the
 * wallets hold, at the sandbox's fixed values (a USD stablecoin counted as 1 EUR; BTC at EUR
 * 100,000): minor units. A currency not listed has no allowance.
 */
const UNVERIFIED_ALLOWANCE_MINOR: Readonly<Record<string, number>> = { USDC: 1_000_000_000, USDT: 1_000_000_000, USDB: 1_000_000_000, BTC: 1_000_000 };

/** How long a challenge can be answered: a signature is prompt, a biometric flow takes longer. */
export const CHALLENGE_LIFETIME_MS: Readonly<Record<OwnershipVerificationMethod, number>> = { WALLET_SIGNATURE: 15 * 60_000, LIVENESS: 60 * 60_000 };

/** The statuses in which an account still has to prove its ownership. */
const UNPROVEN: ReadonlySet<ExternalAccountStatus> = new Set(['PENDING_OWNERSHIP_VERIFICATION', 'UNVERIFIED']);

/** Who holds an account: the platform itself, or a customer and the jurisdiction it lives in. */
export type AccountHolder = { kind: 'PLATFORM' } | { kind: 'CUSTOMER'; region: string | null };

export interface WalletClaim {
  accountType: StoredExternalAccountType;
  identifiers: Record<string, string>;
  ownershipType?: 'FIRST_PARTY' | 'THIRD_PARTY';
}

/** A wallet with a key and no custodian (`vaspName` names the exchange that holds a custodial one). */
export function isSelfCustodyWallet(account: Pick<WalletClaim, 'accountType' | 'identifiers'>): boolean {
  return KEYED_WALLET_TYPES.has(account.accountType) && account.identifiers.vaspName === undefined;
}

function holderUnderTravelRule(holder: AccountHolder): boolean {
  return holder.kind === 'CUSTOMER' && typeof holder.region === 'string' && TRAVEL_RULE_REGIONS.has(holder.region.toUpperCase());
}

/**
 * Whether a new account starts PENDING_OWNERSHIP_VERIFICATION: a FIRST_PARTY self-custody wallet
 * of a customer in a travel-rule jurisdiction, or of the platform itself (the reference gives a
 * platform no jurisdiction; its claim that a self-hosted wallet is its own is always verified).
 */
export function ownershipVerificationRequired(account: WalletClaim, holder: AccountHolder): boolean {
  if (account.ownershipType !== 'FIRST_PARTY' || !isSelfCustodyWallet(account)) return false;
  return holder.kind === 'PLATFORM' || holderUnderTravelRule(holder);
}

/**
 * What a customer in a travel-rule jurisdiction must declare for a wallet: whose it is (a
 * self-custody one), and who owns it when it is someone else's. 400 INVALID_INPUT field errors.
 */
export function counterpartyDeclarationErrors(account: WalletClaim & { beneficiary: Beneficiary | null }, holder: AccountHolder): FieldError[] {
  if (!holderUnderTravelRule(holder) || !account.accountType.endsWith('_WALLET')) return [];
  const errors: FieldError[] = [];
  if (account.ownershipType === undefined && isSelfCustodyWallet(account)) {
    errors.push({ field: 'ownershipType', constraint: { enum: ['FIRST_PARTY', 'THIRD_PARTY'] }, message: 'ownershipType is required for a self-custody wallet under the travel rule' });
  }
  if (account.ownershipType === 'THIRD_PARTY' && account.beneficiary === null) {
    errors.push({ field: 'accountInfo.beneficiary', constraint: {}, message: "accountInfo.beneficiary is required for another person's wallet under the travel rule" });
  }
  return errors;
}

/**
 * Why an ownership challenge cannot be issued for the account (409 CONFLICT), or null: only a
 * FIRST_PARTY self-custody wallet still proving its ownership can be challenged.
 */
export function challengeRefusal(account: WalletClaim & { accountStatus: ExternalAccountStatus }): DomainError | null {
  if (!isSelfCustodyWallet(account)) {
    return new DomainError('CONFLICT', 'Ownership verification applies only to self-custody crypto wallets', { reason: 'NOT_SELF_CUSTODY_WALLET' });
  }
  if (account.ownershipType !== 'FIRST_PARTY') {
    return new DomainError('CONFLICT', 'Ownership verification applies only to FIRST_PARTY accounts', { reason: 'NOT_FIRST_PARTY' });
  }
  if (!UNPROVEN.has(account.accountStatus)) {
    return new DomainError('CONFLICT', 'The account has no ownership to verify', { reason: 'OWNERSHIP_NOT_PENDING', status: account.accountStatus });
  }
  return null;
}

/**
 * 400 EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED when `amountMinor` is paid to an account whose
 * ownership is unproven and the amount is above the allowance; null otherwise.
 */
export function verificationRequiredRefusal(account: { id: string; status: ExternalAccountStatus; currency: string }, amountMinor: number): DomainError | null {
  if (!UNPROVEN.has(account.status)) return null;
  const allowance = UNVERIFIED_ALLOWANCE_MINOR[account.currency] ?? 0;
  if (amountMinor <= allowance) return null;
  return new DomainError('EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED', "The destination wallet's ownership must be verified before paying it more than the unverified allowance", {
    externalAccountId: account.id,
    accountStatus: account.status,
    currency: account.currency,
    allowance,
    amount: amountMinor,
  });
}

/**
 * The exact text a WALLET_SIGNATURE challenge asks the wallet to sign: which wallet, which
 * account, a fresh nonce and the deadline, so a signature proves control now and for this account
 * only (a signature over another challenge's message fails).
 */
export function ownershipMessage(challenge: { externalAccountId: string; address: string; nonce: string; expiresAt: string }): string {
  return [
    'Payments service: wallet ownership verification',
    `I control the wallet ${challenge.address} and add it as external account ${challenge.externalAccountId}.`,
    `Nonce: ${challenge.nonce}`,
    `Expires: ${challenge.expiresAt}`,
  ].join('\n');
}
