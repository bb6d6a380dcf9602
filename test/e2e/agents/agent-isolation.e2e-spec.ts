import { createUsdExternalAccount } from '../../support/customer-fixtures';
import { FundedCustomer, accountQuoteBody, balances, fundedCustomer } from '../../support/quote-fixtures';
import { PlatformClient, TestApp, TestPlatform, startTestApp } from '../../support/test-app';
import { createAgent, fieldsOf, redeem } from './agent-fixtures';
import { BearerClient, actionPolicy, agentQuote, bearerClient } from './agent-action-fixtures';

/** A customer with a funded USD account, a payee, an installed agent, its quote and its action. */
interface Party {
  owner: FundedCustomer;
  external: any;
  me: BearerClient;
  quote: any;
  action: any;
}

/**
 * The isolation matrix of the agent's money routes (docs/agents.md "Actions and policy"): the agent
 * of customer A names what belongs to customer B of the same platform, or to a customer of
 * another platform: quotes, actions, transactions, internal and external accounts. Every one
 * answers exactly like an unknown id (404, or the 400 on the body field where the route declares
 * no 404), and nothing of B's or the other platform's is shown or moved. The reads of accounts and
 * transactions by id are in agent-api-reads.e2e-spec.ts.
 */
describe('agents: isolation of the money routes between customers and platforms', () => {
  let testApp: TestApp;
  let other: TestPlatform;
  let mine: Party;
  let neighbour: Party;
  let foreign: Party;
  let platformPayee: any;

  beforeAll(async () => {
    testApp = await startTestApp();
    other = await testApp.createPlatform();
    mine = await party(testApp.platform.api);
    neighbour = await party(testApp.platform.api);
    foreign = await party(other.api);
    platformPayee = (await api().post('/platform/external-accounts').send(usdAccountBody()).expect(201)).body;
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;

  async function party(platformApi: PlatformClient): Promise<Party> {
    const owner = await fundedCustomer(platformApi, 100_000);
    const external = await createUsdExternalAccount(platformApi, owner.customer.id, '789');
    const { deviceCode } = await createAgent(platformApi, owner.customer.id, { policy: actionPolicy({ approvalThresholds: undefined }) });
    const me = bearerClient(testApp.baseUrl, await redeem(testApp.baseUrl, deviceCode.code));
    const quote = await agentQuote(me, owner.usd.id, external.id, 1_000);
    const action = (await me.post('/agents/me/transfer-out').send({ source: { accountId: owner.usd.id }, destination: { accountId: external.id }, amount: 2_000 }).expect(201)).body;
    expect(action.status).toBe('APPROVED');
    return { owner, external, me, quote, action };
  }

  function usdAccountBody() {
    return {
      currency: 'USD',
      accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '123456123', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Sam Lee' } },
    };
  }

  const strangers = () => [neighbour, foreign];

  it("another customer's or platform's quote: GET and execute are 404 QUOTE_NOT_FOUND, and the quote stays PENDING", async () => {
    const notFound = { status: 404, code: 'QUOTE_NOT_FOUND', message: 'Quote not found' };
    for (const stranger of strangers()) {
      expect((await mine.me.get(`/agents/me/quotes/${stranger.quote.id}`).expect(404)).body).toEqual(notFound);
      expect((await mine.me.post(`/agents/me/quotes/${stranger.quote.id}/execute`).expect(404)).body).toEqual(notFound);
      expect((await stranger.me.get(`/agents/me/quotes/${stranger.quote.id}`).expect(200)).body.status).toBe('PENDING');
    }
  });

  it("another customer's or platform's action: 404 by id, absent from the list", async () => {
    for (const stranger of strangers()) {
      const response = await mine.me.get(`/agents/me/actions/${stranger.action.id}`).expect(404);
      expect(response.body).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Agent action not found' });
    }
    const listed = (await mine.me.get('/agents/me/actions').expect(200)).body;
    expect(listed.data.map((action: any) => action.id)).toEqual([mine.action.id]);
    expect(listed.totalCount).toBe(1);
  });

  it("the transaction of another customer's or platform's action: 404 by id; a filter on their account finds nothing", async () => {
    for (const stranger of strangers()) {
      const response = await mine.me.get(`/agents/me/transactions/${stranger.action.transaction.id}`).expect(404);
      expect(response.body).toMatchObject({ status: 404, code: 'TRANSACTION_NOT_FOUND' });
      for (const filter of ['accountIdentifier', 'senderAccountIdentifier']) {
        const filtered = await mine.me.get('/agents/me/transactions').query({ [filter]: stranger.owner.usd.id }).expect(200);
        expect(filtered.body).toEqual({ data: [], hasMore: false, totalCount: 0 });
      }
    }
  });

  it("transfers naming another customer's, the platform's or another platform's accounts: 404 REFERENCE_NOT_FOUND, nothing moves", async () => {
    const out = (sourceId: string, destinationId: string) => mine.me.post('/agents/me/transfer-out').send({ source: { accountId: sourceId }, destination: { accountId: destinationId }, amount: 1_000 });
    const into = (sourceId: string, destinationId: string) => mine.me.post('/agents/me/transfer-in').send({ source: { accountId: sourceId }, destination: { accountId: destinationId }, amount: 1_000 });
    const notFound = (message: string) => ({ status: 404, code: 'REFERENCE_NOT_FOUND', message });
    for (const stranger of strangers()) {
      expect((await out(stranger.owner.usd.id, mine.external.id).expect(404)).body).toEqual(notFound('Source internal account not found'));
      expect((await out(mine.owner.usd.id, stranger.external.id).expect(404)).body).toEqual(notFound('Destination external account not found'));
      expect((await into(stranger.external.id, mine.owner.usd.id).expect(404)).body).toEqual(notFound('Source external account not found'));
      expect((await into(mine.external.id, stranger.owner.usd.id).expect(404)).body).toEqual(notFound('Destination internal account not found'));
    }
    expect((await out(mine.owner.usd.id, platformPayee.id).expect(404)).body).toEqual(notFound('Destination external account not found'));
    expect((await into(platformPayee.id, mine.owner.usd.id).expect(404)).body).toEqual(notFound('Source external account not found'));
    expect((await mine.me.get('/agents/me/actions').expect(200)).body.totalCount).toBe(1);
    expect((await balances(api(), neighbour.owner.usd.id)).available).toBe(98_000);
    expect((await balances(other.api, foreign.owner.usd.id)).available).toBe(98_000);
  });

  it("a quote from or to another customer's or platform's account: 400 naming the field (the operation declares no 404)", async () => {
    for (const stranger of strangers()) {
      const from = await mine.me.post('/agents/me/quotes').send(accountQuoteBody(stranger.owner.usd.id, mine.external.id, 1_000)).expect(400);
      expect(from.body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
      expect(fieldsOf(from.body)).toEqual(['source.accountId']);
      for (const destination of [stranger.external.id, stranger.owner.usd.id]) {
        const to = await mine.me.post('/agents/me/quotes').send(accountQuoteBody(mine.owner.usd.id, destination, 1_000)).expect(400);
        expect(fieldsOf(to.body)).toEqual(['destination.accountId']);
      }
    }
    const toPlatform = await mine.me.post('/agents/me/quotes').send(accountQuoteBody(mine.owner.usd.id, platformPayee.id, 1_000)).expect(400);
    expect(fieldsOf(toPlatform.body)).toEqual(['destination.accountId']);
  });
});
