import { deciderSpec } from '../../../../test/support/decider-spec';
import { CardTransactionCommand, cardTransactionDecider, declineReason } from './card-transaction.decider';
import { CardTransactionAuthorized, CardTransactionEvent } from './card-transaction.events';

const NOW = '2026-11-27T12:00:00.000Z';
const TX = 'CardTransaction:0199a000-0000-7000-8000-0000000000f1';
const PLATFORM = 'platform-a';
const CARD = 'Card:0199a000-0000-7000-8000-0000000000c1';
const ACCOUNT = 'InternalAccount:0199a000-0000-7000-8000-0000000000a1';
const ref = { transactionId: TX, platformId: PLATFORM, cardId: CARD };
const owner = { platformId: PLATFORM, cardId: CARD };
const merchant = { descriptor: 'BLUE BOTTLE COFFEE SF', mcc: '5814', country: 'US' };

function authorizedData(extra: Partial<CardTransactionAuthorized['data']> = {}): CardTransactionAuthorized['data'] {
  return {
    ...ref,
    customerId: 'Customer:1',
    platformCustomerId: 'user-1',
    issuerTransactionToken: 'token-1',
    kind: 'AUTHORIZATION',
    direction: 'DEBIT',
    merchant,
    amountCents: 1_000,
    accountId: ACCOUNT,
    accountCurrency: 'USD',
    holdId: `${TX}:hold`,
    amountUnits: 1_000,
    pull: { pullId: `${TX}:pull`, amountUnits: 1_000, status: 'PENDING' },
    pullScenario: 'CONFIRM',
    delegatedKeyId: null,
    authorizedAt: NOW,
    ...extra,
  };
}

const authorized = (extra: Partial<CardTransactionAuthorized['data']> = {}): CardTransactionEvent => ({ type: 'CardTransactionAuthorized', data: authorizedData(extra) });
const cleared = (clearingId: string, amountCents: number, capturedUnits: number, settled: boolean, postHocPull: CardTransactionEvent['data'] | null = null): CardTransactionEvent => ({
  type: 'CardTransactionCleared',
  data: { ...ref, clearingId, issuerTransactionToken: clearingId, amountCents, capturedUnits, creditedUnits: 0, postHocPull: postHocPull as never, settled, clearedAt: NOW },
});
const returned = (returnId: string, amountCents: number): CardTransactionEvent => ({
  type: 'CardTransactionReturned',
  data: { ...ref, returnId, issuerTransactionToken: returnId, amountCents, creditedUnits: amountCents, returnedAt: NOW },
});

const clear = (amountCents: number, pullRefused = false, clearingId = 'c2'): CardTransactionCommand => ({ type: 'Clear', ...owner, clearingId, issuerTransactionToken: clearingId, amountCents, pullRefused, now: NOW });
const resize = (amountCents: number): CardTransactionCommand => ({ type: 'Resize', ...owner, adviceId: 'a1', issuerTransactionToken: 'a1', amountCents, now: NOW });
const giveBack = (amountCents: number): CardTransactionCommand => ({ type: 'Return', ...owner, returnId: 'r2', issuerTransactionToken: 'r2', amountCents, now: NOW });
const reverse = (pullRefused = false): CardTransactionCommand => ({ type: 'ReverseReturn', ...owner, reversalId: 'v1', issuerTransactionToken: 'v1', pullRefused, now: NOW });

const spec = deciderSpec(cardTransactionDecider);

describe('card transaction decider', () => {
  describe('decline order', () => {
    const base = { kind: 'AUTHORIZATION' as const, cardStatus: 'ACTIVE' as const, amountCents: 500, maxSpendPerTransaction: 500, forced: null };

    it('CLOSED, then FROZEN or 003, then PROCESSING, then the spend limit, then 002', () => {
      expect(declineReason({ ...base, cardStatus: 'CLOSED', forced: 'CARD_PAUSED' })).toBe('CARD_CLOSED');
      expect(declineReason({ ...base, cardStatus: 'FROZEN', amountCents: 501 })).toBe('CARD_PAUSED');
      expect(declineReason({ ...base, cardStatus: 'PROCESSING', forced: 'CARD_PAUSED' })).toBe('CARD_PAUSED');
      expect(declineReason({ ...base, cardStatus: 'PROCESSING', amountCents: 501 })).toBe('CARD_NOT_ACTIVE');
      expect(declineReason({ ...base, amountCents: 501, forced: 'INSUFFICIENT_FUNDS' })).toBe('SPEND_LIMIT_EXCEEDED');
      expect(declineReason({ ...base, forced: 'INSUFFICIENT_FUNDS' })).toBe('INSUFFICIENT_FUNDS');
    });

    it('exactly the limit, and no limit, are allowed', () => {
      expect(declineReason(base)).toBeNull();
      expect(declineReason({ ...base, amountCents: 9_000_000, maxSpendPerTransaction: null })).toBeNull();
    });

    it('credits know no spend limit; an advice is recorded on a FROZEN card and ignores 003', () => {
      expect(declineReason({ ...base, kind: 'CREDIT_AUTHORIZATION', amountCents: 501 })).toBeNull();
      expect(declineReason({ ...base, kind: 'CREDIT_AUTHORIZATION', cardStatus: 'FROZEN' })).toBe('CARD_PAUSED');
      expect(declineReason({ ...base, kind: 'CREDIT_AUTHORIZATION_ADVICE', cardStatus: 'FROZEN', forced: 'CARD_PAUSED' })).toBeNull();
      expect(declineReason({ ...base, kind: 'CREDIT_AUTHORIZATION_ADVICE', cardStatus: 'CLOSED' })).toBe('CARD_CLOSED');
      expect(declineReason({ ...base, kind: 'CREDIT_AUTHORIZATION_ADVICE', forced: 'INSUFFICIENT_FUNDS' })).toBe('INSUFFICIENT_FUNDS');
    });
  });

  describe('authorization', () => {
    it('records an approval once', () => {
      spec.given([]).when({ type: 'Authorize', data: authorizedData(), clearingId: null }).then([authorized()]);
      spec.given([authorized()]).when({ type: 'Authorize', data: authorizedData(), clearingId: null }).then([]);
    });

    it('a single-message authorization is cleared and settled in the same decision', () => {
      const data = authorizedData({ kind: 'FINANCIAL_AUTHORIZATION', holdId: null, pull: { pullId: `${TX}:pull`, amountUnits: 1_000, status: 'CONFIRMED' } });
      const { events } = spec.given([]).when({ type: 'Authorize', data, clearingId: 'token-1' });
      expect(events.map((event) => event.type)).toEqual(['CardTransactionAuthorized', 'CardTransactionCleared']);
      expect(events[1].data).toMatchObject({ clearingId: 'token-1', amountCents: 1_000, capturedUnits: 1_000, creditedUnits: 0, postHocPull: null, settled: true });
      expect(spec.state(events)).toMatchObject({ status: 'SETTLED', heldUnits: 0, clearedCents: 1_000 });
    });

    it('a declined authorization shows nothing to act on: 404', () => {
      const declined: CardTransactionEvent = {
        type: 'CardAuthorizationDeclined',
        data: { ...ref, customerId: 'Customer:1', issuerTransactionToken: 't', kind: 'AUTHORIZATION', amountCents: 1, merchant, reason: 'CARD_PAUSED', declinedAt: NOW },
      };
      spec.given([declined]).when(clear(1)).thenError('REFERENCE_NOT_FOUND');
    });

    it('another card or platform finds no transaction', () => {
      spec.given([authorized()]).when({ ...clear(1), cardId: 'Card:other' } as CardTransactionCommand).thenError('REFERENCE_NOT_FOUND');
      spec.given([authorized()]).when({ ...clear(1), platformId: 'platform-b' } as CardTransactionCommand).thenError('REFERENCE_NOT_FOUND');
    });
  });

  describe('pull confirmation', () => {
    it('confirms a PENDING pull once; FAIL moves the transaction to EXCEPTION', () => {
      spec.given([authorized()]).when({ type: 'ResolvePull', ...owner, now: NOW }).then([{ type: 'CardPullConfirmed', data: { ...ref, pullId: `${TX}:pull`, confirmedAt: NOW } }]);
      const confirmed: CardTransactionEvent = { type: 'CardPullConfirmed', data: { ...ref, pullId: `${TX}:pull`, confirmedAt: NOW } };
      spec.given([authorized(), confirmed]).when({ type: 'ResolvePull', ...owner, now: NOW }).then([]);
      const { events } = spec.given([authorized({ pullScenario: 'FAIL' })]).when({ type: 'ResolvePull', ...owner, now: NOW });
      expect(events[0].type).toBe('CardPullFailed');
      expect(spec.state([authorized({ pullScenario: 'FAIL' }), ...events])).toMatchObject({ status: 'EXCEPTION', heldUnits: 1_000 });
    });
  });

  describe('clearing', () => {
    it('a partial clearing captures from the hold: PARTIALLY_SETTLED, then SETTLED when the rest clears', () => {
      const first = cleared('c1', 400, 400, false);
      spec.given([authorized()]).when(clear(400, false, 'c1')).then([first]);
      expect(spec.state([authorized(), first])).toMatchObject({ status: 'PARTIALLY_SETTLED', heldUnits: 600, clearedCents: 400 });
      spec.given([authorized(), first]).when(clear(600)).then([cleared('c2', 600, 600, true)]);
    });

    it('past the hold: captures the remainder and pulls the rest (CONFIRMED), or records the pull FAILED -> EXCEPTION', () => {
      const pull = { pullId: `${TX}:clearing:c2:pull`, amountUnits: 250, status: 'CONFIRMED' };
      spec.given([authorized()]).when(clear(1_250)).then([cleared('c2', 1_250, 1_000, true, pull as never)]);
      const { events } = spec.given([authorized()]).when(clear(1_250, true));
      expect(events).toEqual([cleared('c2', 1_250, 1_000, true, { ...pull, status: 'FAILED' } as never)]);
      expect(spec.state([authorized(), ...events])).toMatchObject({ status: 'EXCEPTION', heldUnits: 0 });
    });

    it('a 006 transaction fails its post-hoc pull without asking the ledger', () => {
      const { events } = spec.given([authorized({ pullScenario: 'FAIL' })]).when(clear(1_100));
      expect((events[0].data as { postHocPull: { status: string } }).postHocPull.status).toBe('FAILED');
    });

    it('amounts in the account units of a stablecoin account (10,000 per cent)', () => {
      const usdc = authorized({ accountCurrency: 'USDC', amountUnits: 10_000_000, pull: { pullId: `${TX}:pull`, amountUnits: 10_000_000, status: 'PENDING' } });
      const { events } = spec.given([usdc]).when(clear(1_001));
      expect(events[0].data).toMatchObject({ capturedUnits: 10_000_000, postHocPull: { amountUnits: 10_000, status: 'CONFIRMED' } });
    });

    it('0 expires the authorization: the remainder is released, SETTLED', () => {
      const first = cleared('c1', 400, 400, false);
      spec.given([authorized(), first]).when(clear(0)).then([{ type: 'CardAuthorizationExpired', data: { ...ref, clearingId: 'c2', issuerTransactionToken: 'c2', releasedUnits: 600, expiredAt: NOW } }]);
    });

    it('400 INVALID_STATE on a SETTLED or EXCEPTION transaction', () => {
      spec.given([authorized(), cleared('c1', 1_000, 1_000, true)]).when(clear(1)).thenError('INVALID_INPUT', { reason: 'INVALID_STATE', status: 'SETTLED' });
      const failed: CardTransactionEvent = { type: 'CardPullFailed', data: { ...ref, pullId: `${TX}:pull`, reason: 'x', failedAt: NOW } };
      spec.given([authorized(), failed]).when(clear(1)).thenError('INVALID_INPUT', { reason: 'INVALID_STATE', status: 'EXCEPTION' });
    });

    it('a CREDIT clears by crediting the account', () => {
      const credit = authorized({ kind: 'CREDIT_AUTHORIZATION', direction: 'CREDIT', holdId: null, pull: null });
      const { events } = spec.given([credit]).when(clear(1_000));
      expect(events[0].data).toMatchObject({ capturedUnits: 0, creditedUnits: 1_000, settled: true, postHocPull: null });
    });
  });

  describe('authorization advice', () => {
    it('re-sizes the hold to the new total less what is cleared', () => {
      const { events } = spec.given([authorized(), cleared('c1', 400, 400, false)]).when(resize(1_500));
      expect(events[0]).toEqual({ type: 'CardAuthorizationResized', data: { ...ref, adviceId: 'a1', issuerTransactionToken: 'a1', previousAmountCents: 1_000, amountCents: 1_500, heldUnits: 1_100, resizedAt: NOW } });
    });

    it('a total below what is cleared is 400 on amount; a CREDIT is not re-sized', () => {
      spec.given([authorized(), cleared('c1', 400, 400, false)]).when(resize(399)).thenError('INVALID_INPUT', { clearedAmount: 400 });
      spec.given([authorized({ direction: 'CREDIT', kind: 'CREDIT_AUTHORIZATION', holdId: null, pull: null })]).when(resize(5)).thenError('INVALID_INPUT', { reason: 'INVALID_STATE' });
    });
  });

  describe('returns', () => {
    const settled = [authorized(), cleared('c1', 1_000, 1_000, true)];

    it('a partial return keeps SETTLED; the rest makes it REFUNDED; more is 400 on amount', () => {
      const first = returned('r1', 300);
      spec.given(settled).when(giveBack(300)).then([{ ...returned('r2', 300) }]);
      expect(spec.state([...settled, first])).toMatchObject({ status: 'SETTLED', refundedCents: 300 });
      spec.given([...settled, first]).when(giveBack(701)).thenError('INVALID_INPUT', { returnableAmount: 700 });
      const { events } = spec.given([...settled, first]).when(giveBack(700));
      expect(spec.state([...settled, first, ...events]).status).toBe('REFUNDED');
      spec.given([...settled, first, ...events]).when(giveBack(1)).thenError('INVALID_INPUT', { reason: 'INVALID_STATE', status: 'REFUNDED' });
    });

    it('nothing cleared yet: 400 INVALID_STATE', () => {
      spec.given([authorized()]).when(giveBack(1)).thenError('INVALID_INPUT', { reason: 'INVALID_STATE', status: 'AUTHORIZED' });
    });

    it('a reversal takes the latest return back: SETTLED, or EXCEPTION when the account is short', () => {
      const refunded = [...settled, returned('r1', 400), returned('r2', 600)];
      const { events } = spec.given(refunded).when(reverse());
      expect(events[0].data).toMatchObject({ returnId: 'r2', amountCents: 600, pull: { pullId: `${TX}:reversal:v1`, amountUnits: 600, status: 'CONFIRMED' } });
      expect(spec.state([...refunded, ...events])).toMatchObject({ status: 'SETTLED', refundedCents: 400 });
      const short = spec.given(refunded).when(reverse(true)).events;
      expect(spec.state([...refunded, ...short]).status).toBe('EXCEPTION');
      spec.given(settled).when(reverse()).thenError('INVALID_INPUT', { reason: 'INVALID_STATE', status: 'SETTLED' });
    });
  });
});
