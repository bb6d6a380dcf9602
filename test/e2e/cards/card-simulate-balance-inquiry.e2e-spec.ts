import { fund, uniqueId } from '../../support/customer-fixtures';
import { TestApp, startTestApp } from '../../support/test-app';
import { approvedCardholder, issueCard } from './card-fixtures';
import { ISO, balances, fundedCard, history, merchant, simulate, transactionIdOf } from './card-simulate-support';

/**
 * `POST /sandbox/cards/{id}/simulate/balance_inquiry`: an ACTIVE card answers what its ACTIVE
 * funding accounts have available (in cents); a card that is not ACTIVE, or a `003` descriptor,
 * declines it. Either is recorded for the audit history; nothing moves, no CardTransaction exists.
 */
describe('POST /sandbox/cards/{id}/simulate/balance_inquiry', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  const inquire = async (cardId: string, descriptor = 'SHELL OIL 12345678') => transactionIdOf(await simulate(api(), cardId, 'balance_inquiry', { merchant: merchant(descriptor) }));

  it('answers the available balance of the ACTIVE funding accounts in whole cents; moves nothing', async () => {
    const holder = await approvedCardholder(api());
    await fund(api(), holder.accounts.USDC.id, 12_345_678);
    const card = await fundedCard(api(), holder, 1_000, { fundingSources: [holder.accounts.USD.id, holder.accounts.USDC.id] });
    const inquiry = await inquire(card.id, 'SHELL OIL 002');
    const events = await history(api(), inquiry);
    expect(events.map((event) => event.type)).toEqual(['CardBalanceInquiryAnswered']);
    expect(events[0].data).toEqual({
      transactionId: inquiry,
      platformId: testApp.platform.platformId,
      cardId: card.id,
      customerId: holder.customer.id,
      issuerTransactionToken: inquiry.slice('CardTransaction:'.length),
      merchant: merchant('SHELL OIL 002'),
      // 1,000 cents of USD and 1,234 whole cents of the 12.345678 USDC.
      availableCents: 2_234,
      answeredAt: expect.stringMatching(ISO),
    });
    expect(await balances(api(), holder.accounts.USD.id)).toEqual({ available: 1_000, held: 0 });
    // No transaction to show or clear.
    await api().get(`/transactions/${inquiry}`).expect(404);
    await api().post(`/sandbox/cards/${card.id}/simulate/clearing`).send({ cardTransactionId: inquiry, amount: 0 }).expect(404);
  });

  it('declines with 003 (CARD_PAUSED), on a FROZEN card, a PROCESSING card (CARD_NOT_ACTIVE) and a CLOSED one (CARD_CLOSED)', async () => {
    const holder = await approvedCardholder(api());
    const card = await fundedCard(api(), holder, 0);
    const declined = async (cardId: string, reason: string, descriptor?: string) => {
      const events = await history(api(), await inquire(cardId, descriptor));
      expect(events.map((event) => [event.type, event.data.kind, event.data.amountCents, event.data.reason])).toEqual([['CardAuthorizationDeclined', 'BALANCE_INQUIRY', 0, reason]]);
    };
    await declined(card.id, 'CARD_PAUSED', 'SHOP 003');
    await api().patch(`/cards/${card.id}`).send({ state: 'FROZEN' }).expect(200);
    await declined(card.id, 'CARD_PAUSED');
    await api().patch(`/cards/${card.id}`).send({ state: 'CLOSED' }).expect(200);
    await declined(card.id, 'CARD_CLOSED');
    const processing = await issueCard(api(), holder, { platformCardId: uniqueId('p').concat('-001') });
    await declined(processing.id, 'CARD_NOT_ACTIVE');
  });

  it('400 for a missing merchant or an unknown field; 404 for another platform\'s card', async () => {
    const holder = await approvedCardholder(api());
    const card = await fundedCard(api(), holder, 0);
    const bad = await api().post(`/sandbox/cards/${card.id}/simulate/balance_inquiry`).send({ amount: 10 }).expect(400);
    expect(bad.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['amount', 'merchant']);
    const other = await testApp.createPlatform();
    const foreign = await other.api.post(`/sandbox/cards/${card.id}/simulate/balance_inquiry`).send({ merchant: merchant() }).expect(404);
    expect(foreign.body).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Card not found' });
  });
});
