import { TestApp, TestPlatform, startTestApp } from '../../support/test-app';
import { createIndividual, uniqueId } from '../../support/customer-fixtures';

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

  beforeAll(async () => {
    testApp = await startTestApp();
    other = await testApp.createPlatform();
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
});
