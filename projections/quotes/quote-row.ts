import { QuoteEvent, QuoteScaChallenge, QuoteTerms, QuoteView, quoteTermsView } from '../../src/quotes';

/**
 * The `quotes` read model's own state of one quote. Everything a quote shows is fixed at creation
 * except its status, so `view` is the GET body as `QuoteCreated` made it and `status` the current
 * status; the query puts the two together. The one field that changes after creation, the SCA
 * challenge of a PENDING_AUTHORIZATION quote, is `scaChallenge` (null otherwise).
 */
export interface QuoteRow {
  platformId: string;
  quoteId: string;
  transactionId: string;
  customerId: string | null;
  view: QuoteView;
  status: QuoteView['status'];
  scaChallenge: QuoteScaChallenge | null;
  createdAt: string;
  updatedAt: string;
}

/** What an event after the creation changes: never anything that depends on the row before it. */
export type QuoteRowChange = Pick<QuoteRow, 'status' | 'updatedAt' | 'scaChallenge'>;

const STATUS_BY_EVENT: Readonly<Record<string, QuoteView['status']>> = {
  QuoteFundsHeld: 'PROCESSING',
  QuoteFunded: 'PROCESSING',
  QuoteCompleted: 'COMPLETED',
  QuoteFailed: 'FAILED',
  QuoteExpired: 'EXPIRED',
  QuoteAuthorizationRequested: 'PENDING_AUTHORIZATION',
  QuoteScaChallengeIssued: 'PENDING_AUTHORIZATION',
  // Released: a prefunded quote is executing (shown PENDING), a REALTIME_FUNDING one PENDING.
  QuoteAuthorized: 'PENDING',
  QuoteAuthorizationFailed: 'FAILED',
};

const TIME_FIELD: Readonly<Record<string, string>> = {
  QuoteFundsHeld: 'heldAt',
  QuoteFunded: 'fundedAt',
  QuoteCompleted: 'completedAt',
  QuoteFailed: 'failedAt',
  QuoteExpired: 'expiredAt',
  QuoteAuthorizationRequested: 'requestedAt',
  QuoteScaChallengeIssued: 'issuedAt',
  QuoteAuthorized: 'authorizedAt',
  QuoteAuthorizationFailed: 'failedAt',
};

/** The events that make or change a row. Execute attempts that change no shown status are not among them. */
export const QUOTE_ROW_EVENT_TYPES: QuoteEvent['type'][] = ['QuoteCreated', ...(Object.keys(STATUS_BY_EVENT) as QuoteEvent['type'][])];

/** A new quote: PENDING, its view as created. */
export function createdQuoteRow(terms: QuoteTerms): QuoteRow {
  return {
    platformId: terms.platformId,
    quoteId: terms.quoteId,
    transactionId: terms.transactionId,
    customerId: terms.customerId,
    view: quoteTermsView(terms, 'PENDING'),
    status: 'PENDING',
    scaChallenge: null,
    createdAt: terms.createdAt,
    updatedAt: terms.createdAt,
  };
}

/** What a later event changes, or null for an event the read model does not follow. */
export function quoteRowChange(event: QuoteEvent): QuoteRowChange | null {
  const status = STATUS_BY_EVENT[event.type];
  if (status === undefined) return null;
  const data = event.data as unknown as Record<string, unknown>;
  const scaChallenge = (data.scaChallenge as QuoteScaChallenge | undefined) ?? null;
  return { status, updatedAt: data[TIME_FIELD[event.type]] as string, scaChallenge };
}

/**
 * The read model's evolve. A replayed creation keeps the row as first created. The projection
 * writes the same thing without reading the row back: an INSERT of `createdQuoteRow` that keeps
 * an existing row, then one UPDATE per `quoteRowChange`, which keeps the projector (and so every
 * read-your-writes answer) fast.
 */
export function evolveQuoteRow(row: QuoteRow | null, event: QuoteEvent): QuoteRow | null {
  if (event.type === 'QuoteCreated') return row ?? createdQuoteRow(event.data);
  const change = quoteRowChange(event);
  return row === null || change === null ? row : { ...row, ...change };
}
