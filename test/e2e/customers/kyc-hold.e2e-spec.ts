import { TestApp, startTestApp } from '../../support/test-app';
import { createBusiness, createIndividual, createUsdExternalAccount, fund, accountsByCurrency } from '../../support/customer-fixtures';
import { accountQuoteBody } from '../../support/quote-fixtures';

const ADDRESS = { line1: '1 Main St', city: 'Springfield', postalCode: '62701', country: 'US' };
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

/**
 * `kycStatus`/`kybStatus` HOLD (issue 25 part 8; docs/sandbox.md): the sandbox puts an individual
 * whose `fullName` ends `004` on HOLD at creation, and a business whose `registrationNumber` ends
 * `004` on its first verification. A customer on HOLD cannot move money; once it supplies what is
 * missing, its next verification is checked against the real requirements.
 */
describe('KYC and KYB on HOLD', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  const verify = (customerId: string) => api().post('/verifications').send({ customerId });
  const upload = (customerId: string, documentType: string) =>
    api()
      .post('/documents')
      .field('documentHolder', customerId)
      .field('documentType', documentType)
      .field('country', 'US')
      .attach('file', PDF, { filename: 'doc.pdf', contentType: 'application/pdf' });

  it('an individual on HOLD is listed by the filter, cannot move money, and is reviewed once complete', async () => {
    const customer = await createIndividual(api(), { fullName: 'Holly Hold004' });
    expect(customer.kycStatus).toBe('HOLD');
    const listed = await api().get('/customers').query({ kycStatus: 'HOLD', platformCustomerId: customer.platformCustomerId }).expect(200);
    expect(listed.body.data.map((entry: { id: string }) => entry.id)).toEqual([customer.id]);

    const accounts = await accountsByCurrency(api(), customer.id);
    await fund(api(), accounts.USD.id, 100_000);
    const external = await createUsdExternalAccount(api(), customer.id);
    const refused = await api().post('/quotes').send(accountQuoteBody(accounts.USD.id, external.id)).expect(403);
    expect(refused.body).toEqual({
      status: 403,
      code: 'FORBIDDEN',
      message: 'The customer is not approved to transact',
      details: { reason: 'CUSTOMER_NOT_APPROVED', kycStatus: 'HOLD' },
    });

    const incomplete = await verify(customer.id).expect(200);
    expect(incomplete.body.verificationStatus).toBe('RESOLVE_ERRORS');
    expect((await api().get(`/customers/${customer.id}`).expect(200)).body.kycStatus).toBe('HOLD');
    await api()
      .patch(`/customers/${customer.id}`)
      .send({ customerType: 'INDIVIDUAL', birthDate: '1990-01-15', nationality: 'US', idType: 'SSN', identifier: '123-45-6789', address: ADDRESS })
      .expect(200);
    await upload(customer.id, 'PASSPORT').expect(201);
    const complete = await verify(customer.id).expect(200);
    expect(complete.body).toEqual(expect.objectContaining({ verificationStatus: 'PENDING_MANUAL_REVIEW', errors: [] }));
    expect((await api().get(`/customers/${customer.id}`).expect(200)).body.kycStatus).toBe('PENDING');
    const history = await api().get('/audit/events').query({ resourceId: customer.id }).expect(200);
    const statuses = history.body.data
      .filter((entry: { type: string }) => entry.type === 'CustomerKycStatusChanged')
      .map((entry: { data: { kycStatus: string } }) => entry.data.kycStatus);
    expect(statuses).toEqual(['HOLD', 'PENDING']);
  });

  it('a business 004 goes on HOLD at its first verification; the next one checks the requirements', async () => {
    const business = await createBusiness(api(), { businessInfo: { legalName: 'Paused Co', registrationNumber: 'RN-004' } });
    expect(business.kybStatus).toBe('UNVERIFIED');
    const held = await verify(business.id).expect(200);
    expect(held.body).toEqual(expect.objectContaining({ verificationStatus: 'PENDING_MANUAL_REVIEW', errors: [] }));
    expect((await api().get(`/customers/${business.id}`).expect(200)).body.kybStatus).toBe('HOLD');
    const listed = await api().get('/customers').query({ kybStatus: 'HOLD', platformCustomerId: business.platformCustomerId }).expect(200);
    expect(listed.body.data.map((entry: { id: string }) => entry.id)).toEqual([business.id]);

    const checked = await verify(business.id).expect(200);
    expect(checked.body.verificationStatus).toBe('RESOLVE_ERRORS');
    expect(checked.body.errors.map((error: { field?: string; type: string }) => error.field ?? error.type)).toContain('MISSING_LEGAL_PRESENCE_DOCUMENT');
    expect((await api().get(`/customers/${business.id}`).expect(200)).body.kybStatus).toBe('HOLD');
  });
});
