/**
 * The sandbox's VASP directory (`GET /vasps`): exchanges and custodial platforms a wallet's
 * `vaspName` may name when a counterparty wallet is held at one (`accountInfo.vaspName` of the
 * wallet external account types, 1 to 255 characters). The names are the ones the exchanges trade
 * under; the table is static, sorted by `vaspName` in code-unit order (the listing's keyset order).
 */
export interface VaspEntry {
  readonly vaspName: string;
  readonly url: string;
}

const ENTRIES: ReadonlyArray<[string, string]> = [
  ['Binance', 'https://www.binance.com'],
  ['Bitfinex', 'https://www.bitfinex.com'],
  ['Bitget', 'https://www.bitget.com'],
  ['Bitso', 'https://bitso.com'],
  ['Bitstamp', 'https://www.bitstamp.net'],
  ['Bitvavo', 'https://bitvavo.com'],
  ['Bybit', 'https://www.bybit.com'],
  ['Coinbase', 'https://www.coinbase.com'],
  ['Coins.ph', 'https://coins.ph'],
  ['Crypto.com', 'https://crypto.com'],
  ['Gate.io', 'https://www.gate.io'],
  ['Gemini', 'https://www.gemini.com'],
  ['HTX', 'https://www.htx.com'],
  ['Kraken', 'https://www.kraken.com'],
  ['KuCoin', 'https://www.kucoin.com'],
  ['Luno', 'https://www.luno.com'],
  ['MEXC', 'https://www.mexc.com'],
  ['Mercado Bitcoin', 'https://www.mercadobitcoin.com.br'],
  ['OKX', 'https://www.okx.com'],
  ['Robinhood Crypto', 'https://robinhood.com'],
  ['Upbit', 'https://upbit.com'],
  ['Uphold', 'https://uphold.com'],
  ['VALR', 'https://www.valr.com'],
];

export const VASPS: readonly VaspEntry[] = Object.freeze(
  ENTRIES.map(([vaspName, url]) => Object.freeze({ vaspName, url })).sort((a, b) => (a.vaspName < b.vaspName ? -1 : 1)),
);
