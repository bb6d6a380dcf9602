import { QuoteEvent, QuoteScaChallenge, quoteTermsView } from '../../src/quotes';
import { presentStoredQuote, quoteViewFromEvents } from '../../src/quotes/queries/quote.view';
import { ACCOUNT, CUSTOMER, T1, T2, T3, quoteRef as ref, quoteTerms as terms } from '../quote-events.fixture';
import { QuoteRow, evolveQuoteRow } from './quote-row';

const challenge = (id: string): QuoteScaChallenge => ({ id, expiresAt: '2025-10-13T09:36:00.000Z', factor: 'SMS_OTP', availableFactors: ['SMS_OTP'], purpose: 'PAYOUT' });
const created: QuoteEvent = { type: 'QuoteCreated', data: terms };
const requested: QuoteEvent = {
  type: 'QuoteExecutionRequested',
  data: { ...ref, attempt: 1, holdId: 'hold-1', sourceAccountId: ACCOUNT, amount: 100_000, scaFactor: null, requestedAt: T1 },
};
const rejected: QuoteEvent = { type: 'QuoteExecutionRejected', data: { ...ref, attempt: 1, holdId: 'hold-1', reason: 'INSUFFICIENT_FUNDS', rejectedAt: T1 } };
const held: QuoteEvent = { type: 'QuoteFundsHeld', data: { ...ref, attempt: 1, holdId: 'hold-1', heldAt: T1 } };
const completed: QuoteEvent = { type: 'QuoteCompleted', data: { ...ref, step: 0, completedAt: T2 } };
const returned: QuoteEvent = { type: 'QuoteFailed', data: { ...ref, step: 1, failureReason: 'PAYOUT_RETURNED', refund: null, failedAt: T3 } };
const authorizationRequested: QuoteEvent = {
  type: 'QuoteAuthorizationRequested',
  data: { ...ref, sequenceId: 's1', scaFactor: 'SMS_OTP', scaChallenge: challenge('ScaChallenge:1'), scaPlan: {}, requestedAt: T1 },
};
const challengeIssued: QuoteEvent = { type: 'QuoteScaChallengeIssued', data: { ...ref, sequenceId: 's1', scaChallenge: challenge('ScaChallenge:2'), issuedAt: T2 } };
const authorized: QuoteEvent = { type: 'QuoteAuthorized', data: { ...ref, sequenceId: 's1', authorizedAt: T3 } };
const authorizationFailed: QuoteEvent = { type: 'QuoteAuthorizationFailed', data: { ...ref, sequenceId: 's1', failureReason: 'SCA_NOT_COMPLETED', failedAt: T3 } };
const expired: QuoteEvent = { type: 'QuoteExpired', data: { ...ref, expiredAt: T3 } };

const realtimeCreated: QuoteEvent = {
  type: 'QuoteCreated',
  data: {
    ...terms,
    source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: CUSTOMER },
    paymentInstructions: [{ accountOrWalletInfo: { accountType: 'USD_ACCOUNT', accountNumber: '1234567890', routingNumber: '021000021', reference: 'UMA-REF-1' } }],
    funding: { ...terms.funding, sourceAccountId: null, sourceAccountType: null },
  },
};
const funded: QuoteEvent = { type: 'QuoteFunded', data: { ...ref, currencyCode: 'USD', amount: 100_000, fundedAt: T3 } };

const STREAMS: QuoteEvent[][] = [
  [created, requested, rejected, requested, held, completed, returned],
  [created, authorizationRequested, challengeIssued, authorized, requested, held],
  [created, authorizationRequested, authorizationFailed],
  [created, expired],
  [realtimeCreated, authorizationRequested, authorized, funded],
];

function fold(events: QuoteEvent[]): QuoteRow | null {
  return events.reduce<QuoteRow | null>(evolveQuoteRow, null);
}

describe('quote row (the quotes read model state)', () => {
  it('shows, after every event, the quote the write side answers (same fields, same order)', () => {
    for (const stream of STREAMS) {
      for (let length = 1; length <= stream.length; length += 1) {
        const events = stream.slice(0, length);
        const row = fold(events)!;
        const read = presentStoredQuote(row.view, row.status, row.scaChallenge);
        expect({ after: events.map((event) => event.type), view: JSON.stringify(read) }).toEqual({
          after: events.map((event) => event.type),
          view: JSON.stringify(quoteViewFromEvents(events)),
        });
      }
    }
  });

  it('a new row is PENDING with the view as created; later events move status, updatedAt and the challenge only', () => {
    expect(fold([created])).toEqual({
      ...ref, customerId: CUSTOMER, view: quoteTermsView(terms, 'PENDING'), status: 'PENDING', scaChallenge: null, createdAt: terms.createdAt, updatedAt: terms.createdAt,
    });
    expect(fold([created, authorizationRequested, challengeIssued])).toMatchObject({ status: 'PENDING_AUTHORIZATION', scaChallenge: challenge('ScaChallenge:2'), updatedAt: T2 });
    expect(fold([created, held, completed])).toMatchObject({ status: 'COMPLETED', scaChallenge: null, updatedAt: T2, view: quoteTermsView(terms, 'PENDING') });
  });

  it('a replayed creation keeps the first row; events of a quote never created fold to nothing', () => {
    expect(fold([created, held, { type: 'QuoteCreated', data: { ...terms, description: 'replayed' } }])).toEqual(fold([created, held]));
    expect(fold([held, completed])).toBeNull();
  });
});
