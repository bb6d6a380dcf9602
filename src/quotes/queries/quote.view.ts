import { RecordedEvent } from '../../infra/event-store/event-store.port';
import { Currency } from '../../shared/currencies';
import { ExistingQuote, PublicQuoteStatus, QuoteState, publicStatus, quoteDecider } from '../domain/quote/quote.decider';
import { PaymentInstructionsRecord, QuoteDestination, QuoteEvent, QuoteScaChallenge, QuoteSource, QuoteTerms, RateDetails } from '../domain/quote/quote.events';
import { pricedCurrency } from '../pricing/payout-currencies';
import { WirePaymentRail, wirePaymentRail } from '../pricing/rails';

/** The destination as the Quote resource shows it: the rail only when the contract names it. */
export type QuoteDestinationView =
  | { destinationType: 'ACCOUNT'; accountId: string; paymentRail?: WirePaymentRail }
  | { destinationType: 'UMA_ADDRESS'; umaAddress: string; currency: string };

/**
 * A quote exactly as `GET /quotes/{id}` returns it (SPEC.md "Quote").
 * @example
 * {
 *   "id": "Quote:019a4a17-d638-7a41-9c5e-3f0b2d8e6a17",
 *   "status": "PENDING",
 *   "createdAt": "2025-11-03T14:21:07.512Z",
 *   "expiresAt": "2025-11-03T14:26:07.512Z",
 *   "source": { "sourceType": "ACCOUNT", "accountId": "InternalAccount:019a2a17-5758-7f90-b3a2-0c6d8e1f4b57", "customerId": "Customer:019a2a17-5758-7d2e-8b1f-6c3e9a0d4f21" },
 *   "destination": { "destinationType": "ACCOUNT", "accountId": "ExternalAccount:019a2a1c-0f3b-7e44-9a61-d27c5b80e3f9", "paymentRail": "SEPA_INSTANT" },
 *   "sendingCurrency": { "code": "USD", "name": "United States Dollar", "symbol": "$", "decimals": 2 },
 *   "receivingCurrency": { "code": "EUR", "name": "Euro", "symbol": "€", "decimals": 2 },
 *   "totalSendingAmount": 100000,
 *   "totalReceivingAmount": 85982,
 *   "exchangeRate": 1.16,
 *   "feesIncluded": 260,
 *   "platformFeesIncluded": 150,
 *   "transactionId": "Transaction:019a4a17-d638-7b02-a4c7-51e9f3b08d62",
 *   "rateDetails": {
 *     "counterpartyMultiplier": 0.0000862068965517241,
 *     "counterpartyFixedFee": 0,
 *     "gridApiMultiplier": 9990,
 *     "gridApiFixedFee": 10,
 *     "gridApiVariableFeeRate": 0.001,
 *     "gridApiVariableFeeAmount": 100
 *   },
 *   "description": "November rent"
 * }
 */
export interface QuoteView {
  id: string;
  status: PublicQuoteStatus;
  createdAt: string;
  expiresAt: string;
  source: QuoteSource;
  destination: QuoteDestinationView;
  sendingCurrency: Currency;
  receivingCurrency: Currency;
  totalSendingAmount: number;
  totalReceivingAmount: number;
  exchangeRate: number;
  feesIncluded: number;
  platformFeesIncluded: number;
  paymentInstructions?: PaymentInstructionsRecord[];
  transactionId: string;
  counterpartyInformation?: Record<string, unknown>;
  rateDetails: RateDetails;
  description?: string;
  /** Only while PENDING_AUTHORIZATION (customers in SCA regions). */
  scaChallenge?: QuoteScaChallenge;
}

export function quoteView(state: ExistingQuote): QuoteView {
  const view = quoteTermsView(state, publicStatus(state));
  return state.status === 'PENDING_AUTHORIZATION' ? whileAuthorizing(view, state.authorization.scaChallenge) : view;
}

/**
 * A quote's terms (fixed at creation) shown with `status`, without a challenge: the write side's
 * views start from it, and the quotes read model stores it as `QuoteCreated` made it (with
 * presentStoredQuote adding the current status and challenge at read time).
 */
export function quoteTermsView(terms: QuoteTerms, status: PublicQuoteStatus): QuoteView {
  // Key order is the resource's field order (SPEC.md), optional fields only when present.
  return {
    id: terms.quoteId,
    status,
    createdAt: terms.createdAt,
    expiresAt: terms.expiresAt,
    source: sourceView(terms.source),
    destination: destinationView(terms.destination),
    sendingCurrency: pricedCurrency(terms.sendingCurrency),
    receivingCurrency: pricedCurrency(terms.receivingCurrency),
    totalSendingAmount: terms.totalSendingAmount,
    totalReceivingAmount: terms.totalReceivingAmount,
    exchangeRate: Number(terms.exchangeRate),
    feesIncluded: terms.feesIncluded,
    platformFeesIncluded: terms.platformFeesIncluded,
    ...(terms.paymentInstructions ? { paymentInstructions: terms.paymentInstructions.map(instructionsView) } : {}),
    transactionId: terms.transactionId,
    ...(terms.counterpartyInformation ? { counterpartyInformation: sortedKeys(terms.counterpartyInformation) } : {}),
    rateDetails: rateDetailsView(terms.rateDetails),
    ...(terms.description !== null ? { description: terms.description } : {}),
  };
}

/**
 * A stored view (as the quote was created) with the quote's current status and challenge, as the
 * quotes read model keeps them apart; the same rules as quoteView.
 */
export function presentStoredQuote(view: QuoteView, status: PublicQuoteStatus, scaChallenge: QuoteScaChallenge | null): QuoteView {
  // `status` is already the view's second key: assigning it keeps the key order.
  const shown = { ...view, status };
  return status === 'PENDING_AUTHORIZATION' && scaChallenge ? whileAuthorizing(shown, scaChallenge) : shown;
}

/**
 * PENDING_AUTHORIZATION shows the live challenge and withholds a REALTIME_FUNDING quote's payment
 * instructions until the customer authorized (SPEC.md "Quote").
 */
function whileAuthorizing(view: QuoteView, scaChallenge: QuoteScaChallenge): QuoteView {
  const { paymentInstructions: _withheld, ...rest } = view;
  const kept = view.source.sourceType === 'REALTIME_FUNDING' ? rest : view;
  return { ...kept, scaChallenge: scaChallengeView(scaChallenge) };
}

/** The challenge in SPEC.md's field order (the event store may reorder nested keys). */
export function scaChallengeView(challenge: QuoteScaChallenge): QuoteScaChallenge {
  const options = challenge.passkeyAssertionOptions as
    | { rpId: string; challenge: string; allowCredentials: Array<{ type: string; id: string; transports: string[] }>; userVerification: string; timeout: number }
    | undefined;
  return {
    id: challenge.id,
    expiresAt: challenge.expiresAt,
    factor: challenge.factor,
    availableFactors: challenge.availableFactors,
    ...(challenge.purpose !== undefined ? { purpose: challenge.purpose } : {}),
    ...(options
      ? {
          passkeyAssertionOptions: {
            rpId: options.rpId,
            challenge: options.challenge,
            allowCredentials: options.allowCredentials.map((credential) => ({ type: credential.type, id: credential.id, transports: credential.transports })),
            userVerification: options.userVerification,
            timeout: options.timeout,
          },
        }
      : {}),
  };
}

/*
 * Nested objects come back from the event store with its own key order (jsonb): each is rebuilt
 * in one fixed order, so POST, GET, execute and replays all print a quote the same way.
 */
export function sourceView(source: QuoteSource): QuoteSource {
  if (source.sourceType === 'ACCOUNT') {
    return { sourceType: 'ACCOUNT', accountId: source.accountId, ...(source.customerId ? { customerId: source.customerId } : {}) };
  }
  return {
    sourceType: 'REALTIME_FUNDING',
    currency: source.currency,
    ...(source.customerId ? { customerId: source.customerId } : {}),
    ...(source.cryptoNetwork ? { cryptoNetwork: source.cryptoNetwork } : {}),
  };
}

/**
 * `paymentRail` under the contract's name; omitted for rails it has no name for (wallets, UMA,
 * book transfers), as stored quotes may carry them.
 */
export function destinationView(destination: QuoteDestination): QuoteDestinationView {
  if (destination.destinationType === 'UMA_ADDRESS') {
    return { destinationType: 'UMA_ADDRESS', umaAddress: destination.umaAddress, currency: destination.currency };
  }
  const paymentRail = wirePaymentRail(destination.paymentRail);
  return { destinationType: 'ACCOUNT', accountId: destination.accountId, ...(paymentRail ? { paymentRail } : {}) };
}

function rateDetailsView(details: RateDetails): RateDetails {
  return {
    counterpartyMultiplier: details.counterpartyMultiplier,
    counterpartyFixedFee: details.counterpartyFixedFee,
    gridApiMultiplier: details.gridApiMultiplier,
    gridApiFixedFee: details.gridApiFixedFee,
    gridApiVariableFeeRate: details.gridApiVariableFeeRate,
    gridApiVariableFeeAmount: details.gridApiVariableFeeAmount,
  };
}

/** accountOrWalletInfo fields in the order SPEC.md lists them, unknown ones after, sorted. */
const INFO_KEY_ORDER = [
  'accountType', 'accountNumber', 'routingNumber', 'iban', 'swiftCode', 'sortCode', 'clabe', 'pixKey', 'bankName', 'paymentRails',
  'reference', 'assetType', 'address', 'invoice', 'payloadToSign',
];

function instructionsView(instructions: PaymentInstructionsRecord): PaymentInstructionsRecord {
  const info = instructions.accountOrWalletInfo;
  const keys = Object.keys(info).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return {
    accountOrWalletInfo: Object.fromEntries(keys.map((key) => [key, info[key]])) as PaymentInstructionsRecord['accountOrWalletInfo'],
    ...(instructions.instructionsNotes !== undefined ? { instructionsNotes: instructions.instructionsNotes } : {}),
    ...(instructions.isPlatformAccount !== undefined ? { isPlatformAccount: instructions.isPlatformAccount } : {}),
  };
}

function rank(key: string): number {
  const index = INFO_KEY_ORDER.indexOf(key);
  return index < 0 ? INFO_KEY_ORDER.length : index;
}

function sortedKeys(object: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(object).sort().map((key) => [key, object[key]]));
}

export type QuoteEventLike = Pick<RecordedEvent, 'type' | 'data'>;

export function foldQuote(events: QuoteEventLike[]): QuoteState {
  let state = quoteDecider.initialState();
  for (const event of events) state = quoteDecider.evolve(state, event as unknown as QuoteEvent);
  return state;
}

/** The quote as of the last of `events` (a prefix of its stream), or null before its creation. */
export function quoteViewFromEvents(events: QuoteEventLike[]): QuoteView | null {
  const state = foldQuote(events);
  return state.status === 'none' ? null : quoteView(state);
}
