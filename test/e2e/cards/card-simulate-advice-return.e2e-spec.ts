import { TestApp, startTestApp } from '../../support/test-app';
import { approvedCardholder } from './card-fixtures';
import { ISO, authorize, balances, eventTypes, fundedCard, history, simulate, statusOf } from './card-simulate-support';

/**
 * `authorization_advice` (the hold re-sized to the new total less what is cleared), `return`
 * (credited back; REFUNDED when a SETTLED transaction is returned in full) and `return_reversal`
 * (the latest return taken back: SETTLED, or EXCEPTION when the account is short).
 */
describe('POST /sandbox/cards/{id}/simulate/authorization_advice, return, return_reversal', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  const post = (cardId: string, operation: string, body: Record<string, unknown>) => api().post(`/sandbox/cards/${cardId}/simulate/${operation}`).send(body);
  const setup = async (usdCents: number, authorizedCents: number) => {
    const holder = await approvedCardholder(api());
    const card = await fundedCard(api(), holder, usdCents);
    const transactionId = await authorize(api(), card.id, authorizedCents);
    return { card, transactionId, accountId: holder.accounts.USD.id as string };
  };
  const lastOf = async (transactionId: string, type: string) => (await history(api(), transactionId)).filter((event) => event.type === type).at(-1);

  describe('authorization_advice', () => {
    it('raises and lowers the hold to the new total less what is cleared', async () => {
      const { card, transactionId, accountId } = await setup(10_000, 1_000);
      const token = await simulate(api(), card.id, 'authorization_advice', { cardTransactionId: transactionId, amount: 1_500 });
      expect((await lastOf(transactionId, 'CardAuthorizationResized')).data).toEqual({
        transactionId,
        platformId: testApp.platform.platformId,
        cardId: card.id,
        adviceId: token,
        issuerTransactionToken: token,
        previousAmountCents: 1_000,
        amountCents: 1_500,
        heldUnits: 1_500,
        resizedAt: expect.stringMatching(ISO),
      });
      expect(await balances(api(), accountId)).toEqual({ available: 8_500, held: 1_500 });
      expect(await statusOf(api(), transactionId)).toEqual({ status: 'AUTHORIZED', authorized: 1_500 });
      await simulate(api(), card.id, 'clearing', { cardTransactionId: transactionId, amount: 600 });
      await simulate(api(), card.id, 'authorization_advice', { cardTransactionId: transactionId, amount: 800 });
      expect((await lastOf(transactionId, 'CardAuthorizationResized')).data).toMatchObject({ previousAmountCents: 1_500, amountCents: 800, heldUnits: 200 });
      expect(await balances(api(), accountId)).toEqual({ available: 9_200, held: 200 });
      // The rest of the new total settles it.
      await simulate(api(), card.id, 'clearing', { cardTransactionId: transactionId, amount: 200 });
      expect((await lastOf(transactionId, 'CardTransactionCleared')).data).toMatchObject({ capturedUnits: 200, settled: true });
      expect(await balances(api(), accountId)).toEqual({ available: 9_200, held: 0 });
    });

    it('400 on amount below what is cleared; 400 INVALID_AMOUNT (reason INSUFFICIENT_FUNDS) for an increase the account cannot cover, nothing recorded', async () => {
      const { card, transactionId, accountId } = await setup(2_000, 1_000);
      await simulate(api(), card.id, 'clearing', { cardTransactionId: transactionId, amount: 400 });
      const below = await post(card.id, 'authorization_advice', { cardTransactionId: transactionId, amount: 399 }).expect(400);
      expect(below.body).toEqual({
        status: 400,
        code: 'INVALID_INPUT',
        message: 'amount (the new total) cannot be below what is cleared already (400)',
        details: { errors: [{ field: 'amount', constraint: {}, message: 'amount (the new total) cannot be below what is cleared already (400)' }], clearedAmount: 400 },
      });
      // The hold would grow from 600 to 2,001: 1,401 more than the 1,000 available.
      // The hold would grow from 600 to 2,001 (the new total less the 400 cleared): 1,401 more than the 1,000 available.
      const short = await post(card.id, 'authorization_advice', { cardTransactionId: transactionId, amount: 2_401 }).expect(400);
      expect(short.body).toEqual({
        status: 400,
        code: 'INVALID_AMOUNT',
        message: 'The account balance is too low for this amount',
        details: { reason: 'INSUFFICIENT_FUNDS', accountId, requested: 1_401, available: 1_000 },
      });
      expect(await eventTypes(api(), transactionId)).not.toContain('CardAuthorizationResized');
      expect(await balances(api(), accountId)).toEqual({ available: 1_000, held: 600 });
      // Exactly what is available is accepted.
      await simulate(api(), card.id, 'authorization_advice', { cardTransactionId: transactionId, amount: 2_000 });
      expect(await balances(api(), accountId)).toEqual({ available: 0, held: 1_600 });
    });

    it('400 INVALID_STATE on a SETTLED transaction and on a credit', async () => {
      const { card, transactionId } = await setup(2_000, 1_000);
      await simulate(api(), card.id, 'clearing', { cardTransactionId: transactionId, amount: 1_000 });
      const settled = await post(card.id, 'authorization_advice', { cardTransactionId: transactionId, amount: 1_200 }).expect(400);
      expect(settled.body.details).toMatchObject({ reason: 'INVALID_STATE', status: 'SETTLED' });
      const credit = await authorize(api(), card.id, 100, undefined, 'credit_authorization');
      const refused = await post(card.id, 'authorization_advice', { cardTransactionId: credit, amount: 200 }).expect(400);
      expect(refused.body.details).toMatchObject({ reason: 'INVALID_STATE', status: 'AUTHORIZED' });
    });
  });

  describe('return and return_reversal', () => {
    it('partial return keeps SETTLED, the rest makes it REFUNDED; the reversal takes the latest return back -> SETTLED', async () => {
      const { card, transactionId, accountId } = await setup(10_000, 1_000);
      await simulate(api(), card.id, 'clearing', { cardTransactionId: transactionId, amount: 1_000 });
      const first = await simulate(api(), card.id, 'return', { cardTransactionId: transactionId, amount: 300 });
      expect((await lastOf(transactionId, 'CardTransactionReturned')).data).toEqual({
        transactionId,
        platformId: testApp.platform.platformId,
        cardId: card.id,
        returnId: first,
        issuerTransactionToken: first,
        amountCents: 300,
        creditedUnits: 300,
        returnedAt: expect.stringMatching(ISO),
      });
      expect(await balances(api(), accountId)).toEqual({ available: 9_300, held: 0 });
      expect(await statusOf(api(), transactionId)).toEqual({ status: 'SETTLED', authorized: 1_000, settled: 1_000, refunded: 300 });
      const over = await post(card.id, 'return', { cardTransactionId: transactionId, amount: 701 }).expect(400);
      expect(over.body.details).toEqual({ errors: [{ field: 'amount', constraint: {}, message: 'amount cannot exceed the cleared amount not yet returned (700)' }], returnableAmount: 700 });
      // Not REFUNDED yet: a reversal needs a REFUNDED transaction.
      expect((await post(card.id, 'return_reversal', { cardTransactionId: transactionId }).expect(400)).body.details).toMatchObject({ reason: 'INVALID_STATE', status: 'SETTLED' });
      const second = await simulate(api(), card.id, 'return', { cardTransactionId: transactionId, amount: 700 });
      expect(await balances(api(), accountId)).toEqual({ available: 10_000, held: 0 });
      expect(await statusOf(api(), transactionId)).toEqual({ status: 'REFUNDED', authorized: 1_000, settled: 1_000, refunded: 1_000 });
      expect((await post(card.id, 'return', { cardTransactionId: transactionId, amount: 1 }).expect(400)).body.details).toMatchObject({ reason: 'INVALID_STATE', status: 'REFUNDED' });

      const reversal = await simulate(api(), card.id, 'return_reversal', { cardTransactionId: transactionId });
      expect((await lastOf(transactionId, 'CardReturnReversed')).data).toEqual({
        transactionId,
        platformId: testApp.platform.platformId,
        cardId: card.id,
        reversalId: reversal,
        returnId: second,
        issuerTransactionToken: reversal,
        amountCents: 700,
        pull: { pullId: `${transactionId}:reversal:${reversal}`, amountUnits: 700, status: 'CONFIRMED' },
        reversedAt: expect.stringMatching(ISO),
      });
      expect(await balances(api(), accountId)).toEqual({ available: 9_300, held: 0 });
      expect(await statusOf(api(), transactionId)).toEqual({ status: 'SETTLED', authorized: 1_000, settled: 1_000, refunded: 300 });
      // SETTLED again, with 700 returnable again.
      await simulate(api(), card.id, 'return', { cardTransactionId: transactionId, amount: 700 });
      expect(await balances(api(), accountId)).toEqual({ available: 10_000, held: 0 });
    });

    it('a reversal the account cannot cover: the pull FAILED -> EXCEPTION, nothing debited', async () => {
      const { card, transactionId, accountId } = await setup(1_000, 1_000);
      await simulate(api(), card.id, 'clearing', { cardTransactionId: transactionId, amount: 1_000 });
      await simulate(api(), card.id, 'return', { cardTransactionId: transactionId, amount: 1_000 });
      // The returned money is spent elsewhere before the reversal.
      await authorize(api(), card.id, 900);
      await simulate(api(), card.id, 'return_reversal', { cardTransactionId: transactionId });
      expect((await lastOf(transactionId, 'CardReturnReversed')).data.pull).toMatchObject({ amountUnits: 1_000, status: 'FAILED' });
      expect(await balances(api(), accountId)).toEqual({ available: 100, held: 900 });
      expect(await statusOf(api(), transactionId)).toEqual({ status: 'EXCEPTION', authorized: 1_000, settled: 1_000, refunded: 0 });
      expect((await post(card.id, 'return', { cardTransactionId: transactionId, amount: 1 }).expect(400)).body.details).toMatchObject({ reason: 'INVALID_STATE', status: 'EXCEPTION' });
    });

    it('400 INVALID_STATE for a return of an AUTHORIZED transaction (nothing cleared) or of a credit; 404 for an unknown id', async () => {
      const { card, transactionId } = await setup(1_000, 500);
      expect((await post(card.id, 'return', { cardTransactionId: transactionId, amount: 1 }).expect(400)).body.details).toMatchObject({ reason: 'INVALID_STATE', status: 'AUTHORIZED' });
      const credit = await authorize(api(), card.id, 100, undefined, 'financial_credit_authorization');
      expect((await post(card.id, 'return', { cardTransactionId: credit, amount: 1 }).expect(400)).body.details).toMatchObject({ reason: 'INVALID_STATE' });
      await post(card.id, 'return_reversal', { cardTransactionId: 'CardTransaction:0199a000-0000-7000-8000-0000000000ff' }).expect(404);
      const bad = await post(card.id, 'return_reversal', { cardTransactionId: 7, amount: 1 }).expect(400);
      expect(bad.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['amount', 'cardTransactionId']);
    });
  });
});
