/**
 * Supported currencies (DECISIONS.md section 1). Amounts are integers in minor units; sats are
 * BTC minor units.
 */
export interface Currency {
  code: string;
  name: string;
  symbol: string;
  decimals: number;
}

export const CURRENCIES: Readonly<Record<string, Currency>> = Object.freeze({
  USD: { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 },
  EUR: { code: 'EUR', name: 'Euro', symbol: '€', decimals: 2 },
  GBP: { code: 'GBP', name: 'British Pound', symbol: '£', decimals: 2 },
  MXN: { code: 'MXN', name: 'Mexican Peso', symbol: '$', decimals: 2 },
  BRL: { code: 'BRL', name: 'Brazilian Real', symbol: 'R$', decimals: 2 },
  INR: { code: 'INR', name: 'Indian Rupee', symbol: '₹', decimals: 2 },
  NGN: { code: 'NGN', name: 'Nigerian Naira', symbol: '₦', decimals: 2 },
  CAD: { code: 'CAD', name: 'Canadian Dollar', symbol: '$', decimals: 2 },
  PHP: { code: 'PHP', name: 'Philippine Peso', symbol: '₱', decimals: 2 },
  KES: { code: 'KES', name: 'Kenyan Shilling', symbol: 'KSh', decimals: 2 },
  USDC: { code: 'USDC', name: 'USD Coin', symbol: 'USDC', decimals: 6 },
  USDT: { code: 'USDT', name: 'Tether USD', symbol: 'USDT', decimals: 6 },
  USDB: { code: 'USDB', name: 'USDB', symbol: 'USDB', decimals: 6 },
  BTC: { code: 'BTC', name: 'Bitcoin', symbol: '₿', decimals: 8 },
});

export const CURRENCY_CODES = Object.keys(CURRENCIES);
export const STABLECOINS = new Set(['USDC', 'USDT', 'USDB']);

/** Largest amount accepted anywhere (DECISIONS.md section 1: always <= 9e15). */
export const MAX_AMOUNT_MINOR = 9_000_000_000_000_000;

export function currency(code: string): Currency {
  const found = CURRENCIES[code];
  if (!found) throw new Error(`Unsupported currency ${code}`);
  return found;
}

export function isCurrencyCode(code: unknown): code is string {
  return typeof code === 'string' && Object.prototype.hasOwnProperty.call(CURRENCIES, code);
}
