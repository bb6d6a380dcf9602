import { MAX_AMOUNT_MINOR } from '../../shared/currencies';
import { divide, floor, fromNumber, integer, multiply, roundHalfEven } from './exact';
import { minorUnitRate } from './rate-table';

/** The published figures of a quote (or of an exchange-rate listing) that the invariants relate. */
export interface QuoteFigures {
  sendingCurrency: string;
  receivingCurrency: string;
  totalSendingAmount: number;
  totalReceivingAmount: number;
  exchangeRate: number;
  feesIncluded: number;
  platformFeesIncluded: number;
  rateDetails: {
    counterpartyMultiplier: number;
    counterpartyFixedFee: number;
    gridApiMultiplier: number;
    gridApiFixedFee: number;
    gridApiVariableFeeRate: number;
    gridApiVariableFeeAmount: number;
  };
}

/**
 * Checks DECISIONS.md section 2 from the published numbers alone (what a client sees), exactly:
 * the counterparty fee is converted at `exchangeRate` and rounded half-even, the variable fee is
 * the sending amount times its rate rounded half-even, and the receiving amount is the net
 * sending amount converted at `exchangeRate` rounded down. Returns one message per violation.
 */
export function quoteInvariantViolations(quote: QuoteFigures): string[] {
  const violations: string[] = [];
  const details = quote.rateDetails;
  const amounts: Record<string, number> = {
    totalSendingAmount: quote.totalSendingAmount,
    totalReceivingAmount: quote.totalReceivingAmount,
    feesIncluded: quote.feesIncluded,
    platformFeesIncluded: quote.platformFeesIncluded,
    counterpartyFixedFee: details.counterpartyFixedFee,
    gridApiFixedFee: details.gridApiFixedFee,
    gridApiVariableFeeAmount: details.gridApiVariableFeeAmount,
  };
  for (const [name, amount] of Object.entries(amounts)) {
    if (!Number.isSafeInteger(amount) || amount < 0 || amount > MAX_AMOUNT_MINOR) violations.push(`${name} ${amount} is not an integer in [0, 9e15]`);
  }
  if (violations.length > 0) return violations;
  if (quote.totalSendingAmount <= 0) violations.push('totalSendingAmount must be > 0');
  if (quote.totalReceivingAmount <= 0) violations.push('totalReceivingAmount must be > 0');
  for (const [name, value] of Object.entries({ exchangeRate: quote.exchangeRate, counterpartyMultiplier: details.counterpartyMultiplier, gridApiMultiplier: details.gridApiMultiplier })) {
    if (!(Number.isFinite(value) && value > 0)) violations.push(`${name} ${value} must be > 0`);
  }
  if (!(Number.isFinite(details.gridApiVariableFeeRate) && details.gridApiVariableFeeRate >= 0)) violations.push('gridApiVariableFeeRate must be >= 0');
  if (violations.length > 0) return violations;

  const minorRate = minorUnitRate(fromNumber(quote.exchangeRate), quote.sendingCurrency, quote.receivingCurrency);
  const counterpartyInSending = Number(roundHalfEven(multiply(integer(details.counterpartyFixedFee), minorRate)));
  const expectedFees = details.gridApiFixedFee + details.gridApiVariableFeeAmount + quote.platformFeesIncluded + counterpartyInSending;
  if (quote.feesIncluded !== expectedFees) violations.push(`feesIncluded ${quote.feesIncluded} != components ${expectedFees}`);
  const expectedVariable = Number(roundHalfEven(multiply(integer(quote.totalSendingAmount), fromNumber(details.gridApiVariableFeeRate))));
  if (details.gridApiVariableFeeAmount !== expectedVariable) violations.push(`gridApiVariableFeeAmount ${details.gridApiVariableFeeAmount} != ${expectedVariable}`);
  const net = quote.totalSendingAmount - quote.feesIncluded;
  if (net <= 0) {
    violations.push('fees must be below the sending amount');
    return violations;
  }
  const expectedReceiving = Number(floor(divide(integer(net), minorRate)));
  if (quote.totalReceivingAmount !== expectedReceiving) violations.push(`totalReceivingAmount ${quote.totalReceivingAmount} != converted net ${expectedReceiving}`);
  return violations;
}
