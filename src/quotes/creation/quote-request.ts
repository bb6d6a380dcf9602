import { FundingMethod } from '../pricing/realtime-funding';

/** A `POST /quotes` body whose every field has the right shape. */
export interface QuoteRequest {
  source:
    | { sourceType: 'ACCOUNT'; accountId: string; customerId: string | null }
    | { sourceType: 'REALTIME_FUNDING'; currency: string; customerId: string | null; cryptoNetwork: string | null; method: FundingMethod };
  destination:
    | { destinationType: 'ACCOUNT'; accountId: string; paymentRail: string | null }
    | { destinationType: 'UMA_ADDRESS'; umaAddress: string; currency: string | null };
  lockedCurrencySide: 'SENDING' | 'RECEIVING';
  lockedCurrencyAmount: number;
  description: string | null;
  /** A receiver lookup (`GET /receiver/...`) the quote must match: same platform and destination, not expired. */
  lookupId: string | null;
  /** Create and execute in one call. */
  immediatelyExecute: boolean;
  remittanceInformation: string | null;
  purposeOfPayment: string | null;
  /** Replaces the platform's configured fee for this quote (currency checked against the source's at creation). */
  platformFeeOverride: { fixedFee: number; fixedFeeCurrency: string; variableFeeBps: number } | null;
  /** Preferred factor for an SCA challenge this call issues (SMS_OTP or PASSKEY); null: SMS_OTP. */
  scaFactor: string | null;
  senderCustomerInfo: Record<string, unknown> | null;
}
