/**
 * The quotes context's public entry: what other contexts, the read models and the app module may
 * use. Anything not exported here is internal to the context (test/architecture checks it).
 */
export type { QuoteEvent, QuoteScaChallenge, QuoteTerms } from './domain/quote/quote.events';
export { ExchangeRatesModule } from './exchange-rates.module';
export { QUOTE_TRANSACTION_REDUCERS } from './queries/quote-transaction.reducers';
export { quoteTermsView, quoteViewFromEvents } from './queries/quote.view';
export type { QuoteView } from './queries/quote.view';
export { QuotesModule } from './quotes.module';
// The console's time travel folds a receiver lookup's stream with its decider.
export { LOOKUP_STREAM } from './streams';
// The agents context: an agent's quotes run the same commands as POST /quotes and execute.
export { CreateQuote } from './commands/create-quote';
export type { QuoteRequest } from './commands/create-quote';
export { ExecuteQuote } from './commands/execute-quote';
export { parseQuoteRequest } from './http/quote-request';
export { QuotesQuery } from './queries/quotes.query';
// The directories context: withdrawal fees and corridors priced by the quotes' own pricing.
export { counterpartyFixedFeeFor } from './pricing/fee-schedule';
export { isPricedCurrency } from './pricing/payout-currencies';
export { priceQuote } from './pricing/price';
export { CRYPTO_NETWORKS, RAILS_BY_ACCOUNT_TYPE, supportedRails } from './pricing/rails';
export type { CryptoNetwork } from './pricing/rails';
export { rateSnapshotAt } from './pricing/rate-table';
export { sendingBounds } from './pricing/sending-bounds';
