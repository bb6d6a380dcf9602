import { QuoteTerms } from '../src/quotes';

/**
 * One USD -> EUR quote from an internal account to an IBAN, as quote creation records it: the
 * given events the quotes and transactions projection specs share.
 */
export const PLATFORM = 'Platform:0199a000-0000-7000-8000-0000000000f1';
export const OTHER_PLATFORM = 'Platform:0199a000-0000-7000-8000-0000000000f2';
export const CUSTOMER = 'Customer:0199a000-0000-7000-8000-000000000001';
export const ACCOUNT = 'InternalAccount:0199a000-0000-7000-8000-0000000000a1';
export const EXTERNAL = 'ExternalAccount:0199a000-0000-7000-8000-0000000000b1';
export const QUOTE = 'Quote:0199a000-0000-7000-8000-0000000000d1';
export const QUOTE_TRANSACTION = 'Transaction:0199a000-0000-7000-8000-0000000000e1';
export const QUOTE_STREAM = 'quote-0199a000-0000-7000-8000-0000000000d1';

// Times in the events differ from the instants the kit records them at (12:00:01, 12:00:02...),
// so the rows show which one a projection reads.
export const CREATED_AT = '2025-10-13T09:30:00.000Z';
export const EXPIRES_AT = '2025-10-13T09:45:00.000Z';
export const T1 = '2025-10-13T09:31:00.000Z';
export const T2 = '2025-10-13T09:32:00.000Z';
export const T3 = '2025-10-13T09:33:00.000Z';

export const quoteRef = { quoteId: QUOTE, transactionId: QUOTE_TRANSACTION, platformId: PLATFORM };
export const rateDetails = {
  counterpartyMultiplier: 0.0000862068965517241, counterpartyFixedFee: 0, gridApiMultiplier: 9990, gridApiFixedFee: 10, gridApiVariableFeeRate: 0.001, gridApiVariableFeeAmount: 100,
};

export const quoteTerms: QuoteTerms = {
  ...quoteRef,
  customerId: CUSTOMER,
  platformCustomerId: 'cust-1',
  source: { sourceType: 'ACCOUNT', accountId: ACCOUNT, customerId: CUSTOMER },
  destination: { destinationType: 'ACCOUNT', accountId: EXTERNAL, paymentRail: 'SEPA_INSTANT' },
  sendingCurrency: 'USD',
  receivingCurrency: 'EUR',
  totalSendingAmount: 100_000,
  totalReceivingAmount: 85_982,
  exchangeRate: '1.16',
  feesIncluded: 260,
  platformFeesIncluded: 150,
  rateDetails,
  rateSnapshotId: 'rates-1',
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: 100_000,
  paymentRail: 'SEPA_INSTANT',
  paymentInstructions: null,
  counterpartyInformation: null,
  description: 'November rent',
  funding: { sourceAccountId: ACCOUNT, sourceAccountType: 'INTERNAL_FIAT', destinationInternalAccountId: null, scenario: 'SUCCESS', scenarioSuffix: null },
  createdAt: CREATED_AT,
  expiresAt: EXPIRES_AT,
};
