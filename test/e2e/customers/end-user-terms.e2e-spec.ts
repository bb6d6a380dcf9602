import { TestApp, TestPlatform, startTestApp } from '../../support/test-app';
import { createIndividual, createUsdExternalAccount, uniqueId } from '../../support/customer-fixtures';
import { accountQuoteBody, fundedCustomer } from '../../support/quote-fixtures';

const CURRENT = { version: '2025-10-13', url: 'https://legal.payments.local/end-user-terms/2025-10-13' };
const consent = (termsVersion: string) => ({ acceptedAt: '2025-10-13T09:30:00.000Z', ipAddress: '203.0.113.7', termsVersion, acceptanceMethod: 'CHECKBOX' });
const versionNotFound = (version: string) => ({
  status: 400,
  code: 'END_USER_TERMS_VERSION_NOT_FOUND',
  message: `End User Terms version ${version} does not exist`,
  details: {
    errors: [
      {
        field: 'endUserTermsConsent.termsVersion',
        constraint: { enum: ['2025-09', '2025-10-13'] },
        message: 'termsVersion must be one of 2025-09, 2025-10-13',
      },
    ],
  },
});

/**
 * End User Terms (issue 25 part 2, docs/customers.md): the current version, and consents on
 * customer creation and update naming only published versions.
 */
describe('end-user terms', () => {
  let testApp: TestApp;
  let other: TestPlatform;
  let unregulated: TestPlatform;

  beforeAll(async () => {
    testApp = await startTestApp();
    other = await testApp.createPlatform();
    unregulated = await testApp.createPlatform({ isRegulatedFinancialInstitution: false });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;

  it('GET /customers/end-user-terms answers the current version and its URL, the same for every platform', async () => {
    expect((await api().get('/customers/end-user-terms').expect(200)).body).toEqual(CURRENT);
    expect((await other.api.get('/customers/end-user-terms').expect(200)).body).toEqual(CURRENT);
  });

  it('records a consent to a published version at creation; an unknown version is 400 and creates nothing', async () => {
    const platformCustomerId = uniqueId();
    const refused = await api()
      .post('/customers')
      .send({ customerType: 'INDIVIDUAL', platformCustomerId, fullName: 'Jane Doe', endUserTermsConsent: consent('V1') })
      .expect(400);
    expect(refused.body).toEqual(versionNotFound('V1'));
    // Nothing was claimed: the same platformCustomerId is free.
    const created = await api()
      .post('/customers')
      .send({ customerType: 'INDIVIDUAL', platformCustomerId, fullName: 'Jane Doe', endUserTermsConsent: consent(CURRENT.version) })
      .expect(201);
    expect(created.body.endUserTermsConsent).toEqual(consent(CURRENT.version));
    const business = await api()
      .post('/customers')
      .send({ customerType: 'BUSINESS', platformCustomerId: uniqueId('biz'), businessInfo: { legalName: 'Acme' }, endUserTermsConsent: consent('2099-01') })
      .expect(400);
    expect(business.body).toEqual(versionNotFound('2099-01'));
  });

  it('records a consent given later by PATCH; an unknown version is 400 and changes nothing', async () => {
    const customer = await createIndividual(api());
    expect(customer).not.toHaveProperty('endUserTermsConsent');
    const refused = await api().patch(`/customers/${customer.id}`).send({ endUserTermsConsent: consent('V1'), email: 'changed@example.com' }).expect(400);
    expect(refused.body).toEqual(versionNotFound('V1'));
    expect((await api().get(`/customers/${customer.id}`).expect(200)).body).toEqual(customer);
    const patched = await api().patch(`/customers/${customer.id}`).send({ endUserTermsConsent: consent('2025-09') }).expect(200);
    expect(patched.body).toEqual({ ...customer, endUserTermsConsent: consent('2025-09'), updatedAt: expect.any(String) });
  });

  it('GET /config says whether the platform is regulated; PATCH /config cannot change it', async () => {
    expect((await api().get('/config').expect(200)).body.isRegulatedFinancialInstitution).toBe(true);
    expect((await unregulated.api.get('/config').expect(200)).body.isRegulatedFinancialInstitution).toBe(false);
    const refused = await unregulated.api.patch('/config').send({ isRegulatedFinancialInstitution: true }).expect(400);
    expect(refused.body.code).toBe('INVALID_INPUT');
    expect(refused.body.details.errors).toEqual([expect.objectContaining({ field: 'isRegulatedFinancialInstitution' })]);
    expect((await unregulated.api.get('/config').expect(200)).body.isRegulatedFinancialInstitution).toBe(false);
  });

  it("an unregulated platform's customer moves money only after accepting the terms (403 on quotes, 400 on transfers)", async () => {
    const owner = await fundedCustomer(unregulated.api);
    const external = await createUsdExternalAccount(unregulated.api, owner.customer.id);
    const notAccepted = {
      status: 403,
      code: 'END_USER_TERMS_NOT_ACCEPTED',
      message: 'The customer has not accepted the End User Terms',
      details: { customerId: owner.customer.id, termsVersion: CURRENT.version },
    };
    expect((await unregulated.api.post('/quotes').send(accountQuoteBody(owner.usd.id, external.id)).expect(403)).body).toEqual(notAccepted);
    const immediate = accountQuoteBody(owner.usd.id, external.id, 10_000, { immediatelyExecute: true });
    expect((await unregulated.api.post('/quotes').send(immediate).expect(403)).body).toEqual(notAccepted);
    const transfer = { source: { accountId: owner.usd.id }, destination: { accountId: external.id }, amount: 100 };
    expect((await unregulated.api.post('/transfer-out').send(transfer).expect(400)).body).toEqual({
      ...notAccepted,
      status: 400,
      code: 'INVALID_INPUT',
      details: { ...notAccepted.details, reason: 'END_USER_TERMS_NOT_ACCEPTED' },
    });
    // Nothing was held: the whole balance is still available.
    const account = (await unregulated.api.get('/customers/internal-accounts').query({ customerId: owner.customer.id }).expect(200)).body.data.find(
      (entry: any) => entry.id === owner.usd.id,
    );
    expect(account.balance.amount).toBe(1_000_000);

    await unregulated.api.patch(`/customers/${owner.customer.id}`).send({ endUserTermsConsent: consent(CURRENT.version) }).expect(200);
    expect((await unregulated.api.post('/quotes').send(accountQuoteBody(owner.usd.id, external.id)).expect(201)).body.status).toBe('PENDING');
    expect((await unregulated.api.post('/transfer-out').send(transfer).expect(201)).body.status).toEqual(expect.any(String));
  });

  it('a customer who accepted at creation moves money at once; a regulated platform needs no consent', async () => {
    const owner = await fundedCustomer(unregulated.api, 1_000_000, { endUserTermsConsent: consent('2025-09') });
    const external = await createUsdExternalAccount(unregulated.api, owner.customer.id);
    await unregulated.api.post('/quotes').send(accountQuoteBody(owner.usd.id, external.id)).expect(201);
    const regulated = await fundedCustomer(api());
    const regulatedExternal = await createUsdExternalAccount(api(), regulated.customer.id);
    await api().post('/quotes').send(accountQuoteBody(regulated.usd.id, regulatedExternal.id)).expect(201);
  });
});
