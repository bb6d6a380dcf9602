import { TestApp, startTestApp, eventually } from '../../support/test-app';

describe('smoke', () => {
  let testApp: TestApp;
  beforeAll(async () => { testApp = await startTestApp(); });
  afterAll(async () => { await testApp?.close(); });

  it('creates a customer with accounts and moves money', async () => {
    const api = testApp.platform.api;
    const created = await api.post('/customers').send({ customerType: 'INDIVIDUAL', platformCustomerId: 'c1', fullName: 'Jane Doe', email: 'jane@example.com' });
    console.log(created.status, JSON.stringify(created.body, null, 1));
    const accounts = await api.get('/customers/internal-accounts').query({ customerId: created.body.id });
    console.log(accounts.status, JSON.stringify(accounts.body, null, 1));
    const usd = accounts.body.data.find((a: any) => a.balance.currency.code === 'USD');
    const funded = await api.post(`/sandbox/internal-accounts/${usd.id}/fund`).send({ amount: 10000 });
    console.log(funded.status, JSON.stringify(funded.body));
    const ext = await api.post('/customers/external-accounts').send({ customerId: created.body.id, currency: 'USD', accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane Doe' } } });
    console.log(ext.status, JSON.stringify(ext.body));
    const out = await api.post('/transfer-out').send({ source: { accountId: usd.id }, destination: { accountId: ext.body.id }, amount: 2500 });
    console.log(out.status, JSON.stringify(out.body));
    const done = await eventually(async () => { const r = await api.get(`/transactions/${out.body.id}`); return r.body.status === 'COMPLETED' && r.body; });
    console.log(JSON.stringify(done));
    const acct = await api.get(`/internal-accounts/${usd.id}`);
    console.log(JSON.stringify(acct.body));
    const txs = await api.get('/transactions');
    console.log(txs.status, txs.body.totalCount);
  });
});
