import { ExternalAccountType, checkIdentifiers, currenciesFor } from '../../accounts';
import { CryptoNetwork, counterpartyFixedFeeFor } from '../../quotes';
import { FieldError } from '../../infra/domain/domain-error';

/**
 * The networks a crypto internal account can withdraw on (`POST /crypto/estimate-withdrawal-fee`):
 * exactly those a quote pays a wallet on, each by the external wallet type a withdrawal pays to,
 * so the currencies a network carries are that type's (src/accounts account-type rules) and its
 * fee is the quotes' counterparty fee for the rail (src/quotes/pricing/fee-schedule.ts). BITCOIN,
 * a network quotes know, has no wallet type one can pay to any more: no withdrawal on it.
 *
 * The network fee is also shown in the asset the chain charges it in (`networkFeeAsset`, smallest
 * unit), at the sandbox's fixed prices below: informational, like the reference says, while the
 * amount deducted is the fee schedule's figure in the withdrawal currency.
 */
export interface FeeAsset {
  readonly code: string;
  /** Decimals of the smallest unit (lamports, wei, sun, sats). */
  readonly decimals: number;
  /** Sandbox price of one whole unit, in US cents (fixed: fees never drift). */
  readonly usdCents: number;
}

export interface WithdrawalNetwork {
  readonly network: CryptoNetwork;
  readonly walletType: ExternalAccountType;
  readonly feeAsset: FeeAsset;
}

const SOL: FeeAsset = { code: 'SOL', decimals: 9, usdCents: 20_000 };
const ETH: FeeAsset = { code: 'ETH', decimals: 18, usdCents: 250_000 };
const POL: FeeAsset = { code: 'POL', decimals: 18, usdCents: 125 };
const TRX: FeeAsset = { code: 'TRX', decimals: 6, usdCents: 25 };
const XPL: FeeAsset = { code: 'XPL', decimals: 18, usdCents: 50 };
const BTC: FeeAsset = { code: 'BTC', decimals: 8, usdCents: 10_000_000 };

export const WITHDRAWAL_NETWORKS: readonly WithdrawalNetwork[] = Object.freeze([
  { network: 'SOLANA', walletType: 'SOLANA_WALLET', feeAsset: SOL },
  { network: 'ETHEREUM', walletType: 'ETHEREUM_WALLET', feeAsset: ETH },
  { network: 'BASE', walletType: 'BASE_WALLET', feeAsset: ETH },
  { network: 'POLYGON', walletType: 'POLYGON_WALLET', feeAsset: POL },
  { network: 'TRON', walletType: 'TRON_WALLET', feeAsset: TRX },
  { network: 'PLASMA', walletType: 'PLASMA_WALLET', feeAsset: XPL },
  { network: 'SPARK', walletType: 'SPARK_WALLET', feeAsset: BTC },
  { network: 'LIGHTNING', walletType: 'LIGHTNING', feeAsset: BTC },
] as WithdrawalNetwork[]);

export const WITHDRAWAL_NETWORK_NAMES: readonly string[] = WITHDRAWAL_NETWORKS.map((entry) => entry.network);

/** Currencies some network carries: those a crypto internal account can withdraw. */
export const WITHDRAWAL_CURRENCIES: readonly string[] = [...new Set(WITHDRAWAL_NETWORKS.flatMap((entry) => networkCurrencies(entry)))];

export function withdrawalNetwork(name: string): WithdrawalNetwork | undefined {
  return WITHDRAWAL_NETWORKS.find((entry) => entry.network === name);
}

export function networkCurrencies(entry: WithdrawalNetwork): readonly string[] {
  return currenciesFor(entry.walletType) ?? [];
}

/** The fee schedule's network charge for one withdrawal, in US cents. */
export function networkFeeUsdCents(entry: WithdrawalNetwork): number {
  return counterpartyFixedFeeFor('USD', entry.network);
}

/** That charge in the smallest unit of the fee asset, rounded up. */
export function networkFeeInAsset(entry: WithdrawalNetwork): number {
  const scaled = BigInt(networkFeeUsdCents(entry)) * 10n ** BigInt(entry.feeAsset.decimals);
  const price = BigInt(entry.feeAsset.usdCents);
  return Number((scaled + price - 1n) / price);
}

/** Lightning pays to an invoice, an offer or a Lightning address: any of the three will do. */
const LIGHTNING_FIELDS = ['invoice', 'bolt12', 'lightningAddress'];

/**
 * The destination's format error, checked by the wallet type's own identifier rules (the ones
 * `POST /customers/external-accounts` applies), or null when the address fits the network.
 */
export function destinationAddressError(entry: WithdrawalNetwork, address: string, field = 'destinationAddress'): FieldError | null {
  const fields = entry.walletType === 'LIGHTNING' ? LIGHTNING_FIELDS : ['address'];
  const failures = fields.map((name) => checkIdentifiers(entry.walletType, { [name]: address }).shapeErrors.find((error) => error.field === `accountInfo.${name}`));
  if (failures.some((failure) => failure === undefined)) return null;
  const constraint = fields.length === 1 ? failures[0]!.constraint : {};
  return { field, constraint, message: `${field} is not an address on ${entry.network}` + (fields.length > 1 ? ' (a BOLT11 invoice, a BOLT12 offer or a Lightning address)' : '') };
}
