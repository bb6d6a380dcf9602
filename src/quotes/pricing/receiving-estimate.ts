import { DomainError } from '../../infra/domain/domain-error';
import { DEFAULT_LISTING_SENDING_AMOUNT } from './exchange-rate-listing';
import { priceQuote } from './price';
import { CorridorRequest, sendingBounds } from './sending-bounds';

/**
 * What a receiver lookup shows for one receiving currency: the estimated rate and the receivable
 * range, priced exactly as `POST /quotes` would price a SENDING-locked quote in this corridor now
 * (same snapshot, rail and fees; the platform's limits for the sending currency applied). `min`
 * and `max` are the receiving amounts of the smallest and largest sending amounts that price.
 */
export interface ReceivingEstimate {
  /** Sending major units per receiving major unit, as `exchangeRate` on quotes. */
  estimatedExchangeRate: number;
  /** Minor units of the receiving currency. */
  min: number;
  max: number;
}

export function receivingEstimate(corridor: CorridorRequest, platformLimits: { minAmount: number; maxAmount: number } | null): ReceivingEstimate {
  const bounds = sendingBounds(corridor, platformLimits);
  if (!bounds) {
    throw new DomainError('AMOUNT_OUT_OF_RANGE', `No amount from ${corridor.sendingCurrency} to ${corridor.receivingCurrency} can be priced within the platform's limits`, {
      sendingCurrency: corridor.sendingCurrency,
      receivingCurrency: corridor.receivingCurrency,
    });
  }
  const at = (amount: number) => priceQuote({ ...corridor, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: amount });
  // The rate shown is the one a listing entry of the corridor shows (its default amount, clamped).
  const sample = Math.min(bounds.maxSendingAmount, Math.max(DEFAULT_LISTING_SENDING_AMOUNT, bounds.minSendingAmount));
  return {
    estimatedExchangeRate: at(sample).exchangeRate,
    min: at(bounds.minSendingAmount).totalReceivingAmount,
    max: at(bounds.maxSendingAmount).totalReceivingAmount,
  };
}
