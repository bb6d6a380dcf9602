import { Pool } from 'pg';
import { externalAccountsProjection } from '../../../projections/external-accounts/external-accounts.projection';
import { customersProjection } from '../../../projections/customers/customers.projection';
import { internalAccountsProjection } from '../../../projections/internal-accounts/internal-accounts.projection';
import { transactionsProjection } from '../../../projections/transactions/transactions.projection';
import { EVENT_STORE, EventStore } from '../../../src/infra/event-store/event-store.port';
import { verifyProjection } from '../../../src/infra/projections/projection-rebuild';
import { TestApp, eventually, startTestApp } from '../../support/test-app';
import { accountsByCurrency, beneficialOwner, createBusiness, createIndividual, createUsdExternalAccount, fund } from '../../support/customer-fixtures';

/** A replay of the log rebuilds this context's read models row for row (`projections:verify`). */
describe('customers and accounts read models are rebuildable', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('verify finds no difference after a varied history', async () => {
    const api = testApp.platform.api;
    const customer = await createIndividual(api, { fullName: 'Re Build001', region: 'FR' });
    await api.post('/verifications').send({ customerId: customer.id }).expect(200);
    await api.patch(`/customers/${customer.id}`).send({ email: 'rebuild@example.com' }).expect(200);
    const business = await createBusiness(api, { beneficialOwners: [beneficialOwner('Owner002')] });
    await api.post('/verifications').send({ customerId: business.id }).expect(200);
    const approved = await createIndividual(api, { region: 'DE' });
    const { USD } = await accountsByCurrency(api, approved.id);
    await fund(api, USD.id, 5_000);
    const ok = await createUsdExternalAccount(api, approved.id, '789');
    const failing = await createUsdExternalAccount(api, approved.id, '004');
    await api.post(`/customers/external-accounts/${ok.id}/trust`).expect(200);
    await api.post(`/customers/external-accounts/${ok.id}/trust/confirm`).send({ code: '123456' }).expect(200);
    await api.post('/transfer-out').send({ source: { accountId: USD.id }, destination: { accountId: ok.id }, amount: 1_000 }).expect(201);
    await api.post('/transfer-out').send({ source: { accountId: USD.id }, destination: { accountId: failing.id }, amount: 1_000 }).expect(201);
    await api.post('/transfer-out').send({ source: { accountId: USD.id }, destination: { accountId: failing.id }, amount: 99_000 }).expect(400);
    await api.post('/transfer-in').send({ source: { accountId: ok.id }, destination: { accountId: USD.id }, amount: 300 }).expect(201);
    await api.delete(`/customers/external-accounts/${failing.id}`).expect(204);
    await api.delete(`/customers/${customer.id}`).expect(200);
    await eventually(async () => (await api.get('/transactions').query({ status: 'PENDING' }).expect(200)).body.totalCount === 0);

    const pool = new Pool({ connectionString: testApp.databaseUrl, max: 2 });
    try {
      const store = testApp.app.get<EventStore>(EVENT_STORE);
      for (const projection of [customersProjection, internalAccountsProjection, externalAccountsProjection, transactionsProjection]) {
        const { differences } = await verifyProjection(pool, store, projection);
        expect({ projection: projection.name, differences }).toEqual({ projection: projection.name, differences: [] });
      }
    } finally {
      await pool.end();
    }
  });
});
