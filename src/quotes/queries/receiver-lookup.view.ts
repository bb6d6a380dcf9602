import { Currency } from '../../shared/currencies';
import { ReceiverLookup } from '../domain/lookup/lookup.decider';
import { pricedCurrency } from '../pricing/payout-currencies';

/** One receivable currency of a lookup (the reference's CurrencyPreference). */
export interface LookupCurrencyView {
  currency: Currency;
  /** Sending major units per receiving major unit, as `exchangeRate` on quotes; an estimate. */
  estimatedExchangeRate: number;
  /** Minor units of the currency. */
  min: number;
  max: number;
}

interface ReceiverLookupViewBase {
  lookupId: string;
  supportedCurrencies: LookupCurrencyView[];
  requiredPayerDataFields?: Array<{ name: string; mandatory: boolean }>;
}

/**
 * `GET /receiver/uma/{receiverUmaAddress}`.
 * @example
 * {
 *   "lookupId": "LookupRequest:019a2a17-5758-7f90-b3a2-0c6d8e1f4b57",
 *   "receiverUmaAddress": "$success.eur@sandbox.uma.money",
 *   "supportedCurrencies": [
 *     { "currency": { "code": "EUR", "name": "Euro", "symbol": "€", "decimals": 2 }, "estimatedExchangeRate": 1.16, "min": 1, "max": 7758620689655172 }
 *   ],
 *   "requiredPayerDataFields": [{ "name": "IDENTIFIER", "mandatory": true }, { "name": "FULL_NAME", "mandatory": false }]
 * }
 */
export interface ReceiverUmaLookupView extends ReceiverLookupViewBase {
  receiverUmaAddress: string;
}

/** `GET /receiver/external-account/{accountId}`. */
export interface ReceiverExternalAccountLookupView extends ReceiverLookupViewBase {
  accountId: string;
}

function baseView(lookup: ReceiverLookup): ReceiverLookupViewBase {
  return {
    lookupId: lookup.lookupId,
    supportedCurrencies: lookup.supportedCurrencies.map((entry) => ({
      currency: { ...pricedCurrency(entry.currency) },
      estimatedExchangeRate: entry.estimatedExchangeRate,
      min: entry.min,
      max: entry.max,
    })),
    ...(lookup.requiredPayerDataFields.length > 0 ? { requiredPayerDataFields: lookup.requiredPayerDataFields.map((field) => ({ ...field })) } : {}),
  };
}

export function receiverUmaLookupView(lookup: ReceiverLookup): ReceiverUmaLookupView {
  if (lookup.destination.destinationType !== 'UMA_ADDRESS') throw new Error(`${lookup.lookupId} is not an UMA lookup`);
  return { ...baseView(lookup), receiverUmaAddress: lookup.destination.umaAddress };
}

export function receiverExternalAccountLookupView(lookup: ReceiverLookup): ReceiverExternalAccountLookupView {
  if (lookup.destination.destinationType !== 'ACCOUNT') throw new Error(`${lookup.lookupId} is not an external account lookup`);
  return { ...baseView(lookup), accountId: lookup.destination.accountId };
}
