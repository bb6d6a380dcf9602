import { RecordedEvent } from '../../infra/event-store/event-store.port';
import { Currency, currency } from '../../shared/currencies';
import { ExistingQuote, PublicQuoteStatus, QuoteState, publicStatus, quoteDecider } from '../domain/quote/quote.decider';
import { PaymentInstructionsRecord, QuoteDestination, QuoteEvent, QuoteScaChallenge, QuoteSource, RateDetails } from '../domain/quote/quote.events';

/** A quote exactly as `GET /quotes/{id}` returns it (SPEC.md "Quote"). */
export interface QuoteView {
  id: string;
  status: PublicQuoteStatus;
  createdAt: string;
  expiresAt: string;
  source: QuoteSource;
  destination: QuoteDestination;
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
  // Key order is the resource's field order (SPEC.md), optional fields only when present.
  const view: QuoteView = {
    id: state.quoteId,
    status: publicStatus(state),
    createdAt: state.createdAt,
    expiresAt: state.expiresAt,
    source: sourceView(state.source),
    destination: destinationView(state.destination),
    sendingCurrency: currency(state.sendingCurrency),
    receivingCurrency: currency(state.receivingCurrency),
    totalSendingAmount: state.totalSendingAmount,
    totalReceivingAmount: state.totalReceivingAmount,
    exchangeRate: Number(state.exchangeRate),
    feesIncluded: state.feesIncluded,
    platformFeesIncluded: state.platformFeesIncluded,
    ...(state.paymentInstructions ? { paymentInstructions: state.paymentInstructions.map(instructionsView) } : {}),
    transactionId: state.transactionId,
    ...(state.counterpartyInformation ? { counterpartyInformation: sortedKeys(state.counterpartyInformation) } : {}),
    rateDetails: rateDetailsView(state.rateDetails),
    ...(state.description !== null ? { description: state.description } : {}),
  };
  return state.status === 'PENDING_AUTHORIZATION' ? whileAuthorizing(view, state.authorization.scaChallenge) : view;
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

export function destinationView(destination: QuoteDestination): QuoteDestination {
  return destination.destinationType === 'ACCOUNT'
    ? { destinationType: 'ACCOUNT', accountId: destination.accountId, paymentRail: destination.paymentRail }
    : { destinationType: 'UMA_ADDRESS', umaAddress: destination.umaAddress, currency: destination.currency };
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
