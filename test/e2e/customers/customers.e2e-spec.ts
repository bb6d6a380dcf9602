import { TestApp, startTestApp } from '../../support/test-app';
import { createBusiness, createIndividual, uniqueId } from '../../support/customer-fixtures';

const ADDRESS = { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' };

/** A beneficial owner with every field the reference's BeneficialOwnerCreateRequest requires. */
function owner(lastName: string, personalInfo: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    personalInfo: { firstName: 'Ann', lastName, birthDate: '1980-02-03', nationality: 'US', address: ADDRESS, idType: 'SSN', identifier: '123-45-6789', ...personalInfo },
    roles: ['UBO', 'DIRECTOR'],
    ownershipPercentage: 60,
  };
}

/** `POST/GET/PATCH/DELETE /customers` and the sandbox KYC statuses at creation. */
describe('customers', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('POST /customers creates an individual: 201 with the reference\'s IndividualCustomer, every accepted field echoed', async () => {
    const platformCustomerId = uniqueId();
    const consent = { acceptedAt: '2025-10-01T09:30:00Z', ipAddress: '203.0.113.7', termsVersion: '2025-09', acceptanceMethod: 'CHECKBOX' };
    const response = await testApp.platform.api
      .post('/customers')
      .send({
        customerType: 'INDIVIDUAL',
        platformCustomerId,
        region: 'US',
        currencies: ['USD', 'USDC'],
        email: 'jane@example.com',
        phoneNumber: '+14155550100',
        fullName: 'Jane Doe',
        birthDate: '1990-01-15',
        nationality: 'US',
        address: ADDRESS,
        idType: 'SSN',
        identifier: '123-45-6789',
        countryOfIssuance: 'US',
        endUserTermsConsent: consent,
        sourceOfFundsCategories: ['SALARY', 'SAVINGS'],
        purposeOfAccount: 'P2P_TRANSFERS',
        expectedMonthlyTransactionCount: 'COUNT_10_TO_100',
        annualIncomeRange: 'RANGE_50K_100K',
        pepStatus: 'NONE',
        kycStatus: 'REJECTED',
      })
      .expect(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^Customer:[0-9a-f-]{36}$/),
      platformCustomerId,
      umaAddress: expect.stringMatching(/^\$.+@uma\.sandbox\.payments\.local$/),
      region: 'US',
      currencies: ['USD', 'USDC'],
      email: 'jane@example.com',
      phoneNumber: '+14155550100',
      address: ADDRESS,
      endUserTermsConsent: { ...consent, acceptedAt: '2025-10-01T09:30:00.000Z' },
      isDeleted: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      customerType: 'INDIVIDUAL',
      fullName: 'Jane Doe',
      birthDate: '1990-01-15',
      nationality: 'US',
      idType: 'SSN',
      countryOfIssuance: 'US',
      sourceOfFundsCategories: ['SALARY', 'SAVINGS'],
      purposeOfAccount: 'P2P_TRANSFERS',
      expectedMonthlyTransactionCount: 'COUNT_10_TO_100',
      annualIncomeRange: 'RANGE_50K_100K',
      pepStatus: 'NONE',
      // kycStatus in a request is read-only (accepted, ignored): the sandbox decides it.
      kycStatus: 'APPROVED',
    });
    expect(JSON.stringify(response.body)).not.toContain('123-45-6789');
    const read = await testApp.platform.api.get(`/customers/${response.body.id}`).expect(200);
    expect(read.body).toEqual(response.body);
  });

  it('POST /customers: SPEC.md\'s taxIdType/taxIdentifier are another name for idType/identifier; conflicting values are 400', async () => {
    const customer = await createIndividual(testApp.platform.api, { taxIdType: 'ITIN', taxIdentifier: '912-70-1234' });
    expect(customer.idType).toBe('ITIN');
    expect(customer).not.toHaveProperty('taxIdType');
    expect(JSON.stringify(customer)).not.toContain('912-70-1234');
    const conflicting = await testApp.platform.api
      .post('/customers')
      .send({ customerType: 'INDIVIDUAL', platformCustomerId: uniqueId(), fullName: 'X', idType: 'SSN', taxIdType: 'ITIN', identifier: '1', taxIdentifier: '2' })
      .expect(400);
    expect(conflicting.body.details.errors.map((error: { field: string }) => error.field)).toEqual(['taxIdType', 'taxIdentifier']);
  });

  it('POST /customers without platformCustomerId or fullName (both optional in the reference): the id stands in, KYC starts UNVERIFIED', async () => {
    const response = await testApp.platform.api.post('/customers').send({ customerType: 'INDIVIDUAL', currencies: ['BRL'] }).expect(201);
    expect(response.body.platformCustomerId).toBe(response.body.id);
    expect(response.body.kycStatus).toBe('UNVERIFIED');
    expect(response.body).not.toHaveProperty('fullName');
  });

  it.each([
    ['Jane Doe001', 'PENDING'],
    ['Jane Doe002', 'REJECTED'],
    ['Jane Doe003', 'UNVERIFIED'],
    ['Jane Doe', 'APPROVED'],
  ])('sandbox: an individual named %s starts with kycStatus %s', async (fullName, kycStatus) => {
    const customer = await createIndividual(testApp.platform.api, { fullName });
    expect(customer.kycStatus).toBe(kycStatus);
  });

  it('POST /customers creates a business UNVERIFIED: the reference\'s BusinessInfo, and beneficial owners with ids', async () => {
    const businessInfo = {
      legalName: 'Acme Corp',
      doingBusinessAs: 'Acme',
      country: 'US',
      registrationNumber: 'REG-999',
      incorporatedOn: '2018-03-14',
      entityType: 'LLC',
      taxId: '47-1234567',
      countriesOfOperation: ['US'],
      businessType: 'INFORMATION',
      purposeOfAccount: 'CONTRACTOR_PAYOUTS',
      sourceOfFunds: 'Customer payments',
      expectedMonthlyTransactionCount: 'COUNT_100_TO_500',
      expectedMonthlyTransactionVolume: 'VOLUME_100K_TO_1M',
      expectedRecipientJurisdictions: ['US', 'MX'],
      naicsCode: '5112',
      sourceOfFundsCategories: ['OPERATING_REVENUE'],
      primaryContactFirstName: 'Ann',
      primaryContactLastName: 'Smith',
    };
    const customer = await createBusiness(testApp.platform.api, {
      email: 'ops@acme.test',
      address: ADDRESS,
      currencies: ['USD'],
      businessInfo,
      beneficialOwners: [owner('Smith', { identifier: '999-99-9999', middleName: 'B', countryOfIssuance: 'US' })],
    });
    expect(customer).toEqual(
      expect.objectContaining({
        customerType: 'BUSINESS',
        kybStatus: 'UNVERIFIED',
        currencies: ['USD'],
        businessInfo,
        beneficialOwners: [
          {
            id: expect.stringMatching(/^BeneficialOwner:[0-9a-f-]{36}$/),
            customerId: customer.id,
            roles: ['UBO', 'DIRECTOR'],
            ownershipPercentage: 60,
            personalInfo: {
              firstName: 'Ann', middleName: 'B', lastName: 'Smith', birthDate: '1980-02-03', nationality: 'US', address: ADDRESS,
              idType: 'SSN', identifier: '*******9999', countryOfIssuance: 'US',
            },
            kycStatus: 'UNVERIFIED',
            createdAt: customer.createdAt,
            updatedAt: customer.createdAt,
          },
        ],
      }),
    );
    expect(customer).not.toHaveProperty('kycStatus');
    expect(JSON.stringify(customer)).not.toContain('999-99-9999');
    expect((await testApp.platform.api.get(`/customers/${customer.id}`).expect(200)).body).toEqual(customer);
  });

  it('lists every bad and unknown field of an individual in one 400', async () => {
    const response = await testApp.platform.api
      .post('/customers')
      .send({
        customerType: 'INDIVIDUAL',
        platformCustomerId: '',
        email: 'not-an-email',
        birthDate: '2990-13-01',
        nationality: 'usa',
        phoneNumber: '555',
        address: { line1: '1 Main St' },
        taxIdType: 'SOMETHING',
        idType: 'PASSPORT',
        currencies: ['usd'],
        endUserTermsConsent: { acceptedAt: 'yesterday', ipAddress: 'nowhere', termsVersion: 'v1', acceptanceMethod: 'NOD' },
        pepStatus: 'MAYBE',
        umaAddress: 'alice@example.com',
        surprise: 1,
      })
      .expect(400);
    expect(response.body.code).toBe('INVALID_INPUT');
    const fields = response.body.details.errors.map((error: { field: string }) => error.field).sort();
    expect(fields).toEqual(
      [
        'address.country', 'address.postalCode', 'birthDate', 'currencies', 'email', 'endUserTermsConsent.acceptanceMethod',
        'endUserTermsConsent.acceptedAt', 'endUserTermsConsent.ipAddress', 'idType', 'nationality', 'pepStatus', 'phoneNumber',
        'platformCustomerId', 'surprise', 'taxIdType', 'umaAddress',
      ].sort(),
    );
    const byField = Object.fromEntries(response.body.details.errors.map((error: { field: string; constraint: unknown }) => [error.field, error.constraint]));
    expect(byField.idType).toEqual({ enum: ['SSN', 'ITIN', 'EIN', 'NON_US_TAX_ID'] });
    expect(byField['endUserTermsConsent.acceptanceMethod']).toEqual({ enum: ['CHECKBOX', 'CLICK_TO_ACCEPT'] });
  });

  it('lists business field errors (owners need what the reference\'s BeneficialOwnerCreateRequest requires), and rejects a missing or unknown customerType', async () => {
    const business = await testApp.platform.api
      .post('/customers')
      .send({
        customerType: 'BUSINESS',
        platformCustomerId: uniqueId(),
        businessInfo: { entityType: 'GUILD', naicsCode: 'x1' },
        beneficialOwners: [{ personalInfo: { lastName: 'Smith' }, roles: ['KING'], ownershipPercentage: 50.5 }],
      })
      .expect(400);
    expect(business.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(
      [
        'beneficialOwners.0.ownershipPercentage', 'beneficialOwners.0.personalInfo.address', 'beneficialOwners.0.personalInfo.birthDate',
        'beneficialOwners.0.personalInfo.firstName', 'beneficialOwners.0.personalInfo.idType', 'beneficialOwners.0.personalInfo.identifier',
        'beneficialOwners.0.personalInfo.nationality', 'beneficialOwners.0.roles', 'businessInfo.entityType', 'businessInfo.legalName',
        'businessInfo.naicsCode',
      ].sort(),
    );
    const missing = await testApp.platform.api.post('/customers').send({ platformCustomerId: uniqueId(), fullName: 'X' }).expect(400);
    expect(missing.body.details.errors).toEqual([{ field: 'customerType', constraint: {}, message: expect.any(String) }]);
    const unknown = await testApp.platform.api.post('/customers').send({ customerType: 'ROBOT', platformCustomerId: uniqueId(), fullName: 'X' }).expect(400);
    expect(unknown.body.details.errors).toEqual([
      { field: 'customerType', constraint: { enum: ['INDIVIDUAL', 'BUSINESS'] }, message: 'customerType must be one of INDIVIDUAL, BUSINESS' },
    ]);
    const notObject = await testApp.platform.api.post('/customers').set('Content-Type', 'application/json').send('[]').expect(400);
    expect(notObject.body.code).toBe('INVALID_INPUT');
  });

  it('409 CONFLICT for a platformCustomerId already used by an active customer; free again once deleted', async () => {
    const platformCustomerId = uniqueId();
    const first = await createIndividual(testApp.platform.api, { platformCustomerId });
    const duplicate = await testApp.platform.api.post('/customers').send({ customerType: 'INDIVIDUAL', platformCustomerId, fullName: 'Other' }).expect(409);
    expect(duplicate.body).toEqual({ status: 409, code: 'CONFLICT', message: 'A customer with this platformCustomerId already exists' });
    const otherPlatform = await testApp.createPlatform();
    await otherPlatform.api.post('/customers').send({ customerType: 'INDIVIDUAL', platformCustomerId, fullName: 'Other' }).expect(201);
    await testApp.platform.api.delete(`/customers/${first.id}`).expect(200);
    const again = await testApp.platform.api.post('/customers').send({ customerType: 'INDIVIDUAL', platformCustomerId, fullName: 'Again' }).expect(201);
    expect(again.body.id).not.toBe(first.id);
  });

  it('concurrent creations with one platformCustomerId: exactly one 201', async () => {
    const platformCustomerId = uniqueId();
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => testApp.platform.api.post('/customers').send({ customerType: 'INDIVIDUAL', platformCustomerId, fullName: 'Race' })),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const listed = await testApp.platform.api.get('/customers').query({ platformCustomerId }).expect(200);
    expect(listed.body.totalCount).toBe(1);
  });

  it('409 UMA_ADDRESS_EXISTS for an UMA address in use', async () => {
    const umaAddress = `$${uniqueId('uma').toLowerCase()}@wallet.example.com`;
    const first = await createIndividual(testApp.platform.api, { umaAddress });
    expect(first.umaAddress).toBe(umaAddress);
    const platformCustomerId = uniqueId();
    const response = await testApp.platform.api.post('/customers').send({ customerType: 'INDIVIDUAL', platformCustomerId, fullName: 'X', umaAddress }).expect(409);
    expect(response.body).toEqual({ status: 409, code: 'UMA_ADDRESS_EXISTS', message: 'This UMA address is already in use' });
    // The failed creation released the platformCustomerId it had claimed.
    await testApp.platform.api.post('/customers').send({ customerType: 'INDIVIDUAL', platformCustomerId, fullName: 'X' }).expect(201);
  });

  it('GET /customers filters and paginates with totalCount', async () => {
    const other = await testApp.createPlatform();
    const created = [];
    for (let index = 0; index < 3; index++) created.push(await createIndividual(other.api, { region: 'FR', fullName: `Person ${index}` }));
    await createBusiness(other.api, { region: 'FR' });
    const page1 = await other.api.get('/customers').query({ customerType: 'INDIVIDUAL', limit: 2 }).expect(200);
    expect(page1.body.data.map((customer: { id: string }) => customer.id)).toEqual([created[0].id, created[1].id]);
    expect(page1.body.hasMore).toBe(true);
    expect(page1.body.totalCount).toBe(3);
    const page2 = await other.api.get('/customers').query({ customerType: 'INDIVIDUAL', limit: 2, cursor: page1.body.nextCursor }).expect(200);
    expect(page2.body).toEqual({ data: [created[2]], hasMore: false, totalCount: 3 });
    const businesses = await other.api.get('/customers').query({ customerType: 'BUSINESS', kybStatus: 'UNVERIFIED' }).expect(200);
    expect(businesses.body.totalCount).toBe(1);
    const bad = await other.api.get('/customers').query({ customerType: 'ROBOT', limit: 0, nope: 1, createdAfter: 'soon', isIncludingDeleted: 'yes' }).expect(400);
    expect(bad.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['createdAfter', 'customerType', 'isIncludingDeleted', 'limit', 'nope']);
  });

  it('GET /customers takes every filter the reference names: created/updated bounds, region, currency, umaAddress', async () => {
    const other = await testApp.createPlatform();
    const usd = await createIndividual(other.api, { region: 'US', currencies: ['USD'] });
    const brl = await createIndividual(other.api, { region: 'BR', currencies: ['BRL'] });
    const unset = await createIndividual(other.api, { region: 'US' });
    const ids = async (query: Record<string, string>) =>
      (await other.api.get('/customers').query(query).expect(200)).body.data.map((customer: { id: string }) => customer.id);
    expect(await ids({ createdAfter: brl.createdAt })).toEqual([brl.id, unset.id]);
    expect(await ids({ createdBefore: brl.createdAt })).toEqual([usd.id, brl.id]);
    expect(await ids({ createdAfter: brl.createdAt, createdBefore: brl.createdAt })).toEqual([brl.id]);
    await other.api.patch(`/customers/${usd.id}`).send({ customerType: 'INDIVIDUAL', email: 'later@example.com' }).expect(200);
    const touched = (await other.api.get(`/customers/${usd.id}`).expect(200)).body;
    expect(await ids({ updatedAfter: touched.updatedAt })).toEqual([usd.id]);
    expect(await ids({ updatedBefore: unset.updatedAt })).toEqual([brl.id, unset.id]);
    expect(await ids({ region: 'BR' })).toEqual([brl.id]);
    // A customer created without `currencies` takes the platform's, so any currency matches it.
    expect(await ids({ currency: 'USD' })).toEqual([usd.id, unset.id]);
    expect(await ids({ umaAddress: brl.umaAddress.toUpperCase() })).toEqual([brl.id]);
  });

  it('GET /customers/{id}: 404 USER_NOT_FOUND for a malformed id (no 400 declared), an unknown one or another platform\'s', async () => {
    const customer = await createIndividual(testApp.platform.api);
    const malformed = await testApp.platform.api.get('/customers/not-an-id').expect(404);
    const unknown = await testApp.platform.api.get('/customers/Customer:01900000-0000-7000-8000-000000000000').expect(404);
    expect(unknown.body).toEqual({ status: 404, code: 'USER_NOT_FOUND', message: 'Customer not found' });
    expect(malformed.body).toEqual(unknown.body);
    expect((await testApp.platform.api.delete('/customers/not-an-id').expect(404)).body).toEqual(unknown.body);
    // PATCH declares 400: a malformed id stays a field error there.
    expect((await testApp.platform.api.patch('/customers/not-an-id').send({ email: 'x@y.z' }).expect(400)).body.details.errors[0].field).toBe('customerId');
    const other = await testApp.createPlatform();
    const hidden = await other.api.get(`/customers/${customer.id}`).expect(404);
    expect(hidden.body).toEqual(unknown.body);
    await other.api.patch(`/customers/${customer.id}`).send({ email: 'x@y.z' }).expect(404);
    await other.api.delete(`/customers/${customer.id}`).expect(404);
  });

  it('PATCH /customers/{id} changes the fields given; the unchanged customerType is accepted, a change and unknown fields are 400', async () => {
    const customer = await createIndividual(testApp.platform.api);
    const patched = await testApp.platform.api
      .patch(`/customers/${customer.id}`)
      .send({
        customerType: 'INDIVIDUAL', email: 'new@example.com', address: ADDRESS, birthDate: '1991-02-03', currencies: ['EUR'],
        idType: 'SSN', identifier: '123-45-6789', netWorthRange: 'RANGE_100K_500K', kycStatus: 'APPROVED',
        endUserTermsConsent: { acceptedAt: '2025-10-02T10:00:00.000Z', ipAddress: '2001:db8::1', termsVersion: '2025-09', acceptanceMethod: 'CLICK_TO_ACCEPT' },
      })
      .expect(200);
    expect(patched.body).toEqual({
      ...customer,
      email: 'new@example.com',
      address: ADDRESS,
      birthDate: '1991-02-03',
      currencies: ['EUR'],
      idType: 'SSN',
      netWorthRange: 'RANGE_100K_500K',
      endUserTermsConsent: { acceptedAt: '2025-10-02T10:00:00.000Z', ipAddress: '2001:db8::1', termsVersion: '2025-09', acceptanceMethod: 'CLICK_TO_ACCEPT' },
      updatedAt: expect.any(String),
    });
    expect((await testApp.platform.api.get(`/customers/${customer.id}`).expect(200)).body).toEqual(patched.body);
    // EDD answers merge: a later PATCH keeps the earlier ones.
    const merged = await testApp.platform.api.patch(`/customers/${customer.id}`).send({ pepStatus: 'NONE' }).expect(200);
    expect(merged.body).toEqual(expect.objectContaining({ netWorthRange: 'RANGE_100K_500K', pepStatus: 'NONE' }));
    const refused = await testApp.platform.api
      .patch(`/customers/${customer.id}`)
      .send({ platformCustomerId: 'x', customerType: 'BUSINESS', businessInfo: { legalName: 'X' }, email: 'bad' })
      .expect(400);
    expect(refused.body.details.errors).toEqual(
      expect.arrayContaining([
        { field: 'customerType', constraint: { enum: ['INDIVIDUAL'] }, message: 'customerType cannot be changed; this customer is INDIVIDUAL' },
        { field: 'platformCustomerId', constraint: {}, message: 'platformCustomerId cannot be changed' },
      ]),
    );
    expect(refused.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['businessInfo', 'customerType', 'email', 'platformCustomerId']);
  });

  it('PATCH /customers/{id} moves the UMA address: the old one is free again, one in use is 409 UMA_ADDRESS_EXISTS', async () => {
    const customer = await createIndividual(testApp.platform.api);
    const taken = await createIndividual(testApp.platform.api);
    const target = `$${uniqueId('moved').toLowerCase()}@wallet.example.com`;
    const moved = await testApp.platform.api.patch(`/customers/${customer.id}`).send({ customerType: 'INDIVIDUAL', umaAddress: target }).expect(200);
    expect(moved.body.umaAddress).toBe(target);
    const clash = await testApp.platform.api.patch(`/customers/${customer.id}`).send({ umaAddress: taken.umaAddress }).expect(409);
    expect(clash.body).toEqual({ status: 409, code: 'UMA_ADDRESS_EXISTS', message: 'This UMA address is already in use' });
    // The refused move changed nothing; the address moved away from is free for another customer.
    expect((await testApp.platform.api.get(`/customers/${customer.id}`).expect(200)).body.umaAddress).toBe(target);
    const reuse = await createIndividual(testApp.platform.api, { umaAddress: customer.umaAddress });
    expect(reuse.umaAddress).toBe(customer.umaAddress);
  });

  it('PATCH a business merges businessInfo and replaces beneficial owners (new ids)', async () => {
    const business = await createBusiness(testApp.platform.api, { beneficialOwners: [owner('Smith')] });
    const patched = await testApp.platform.api
      .patch(`/customers/${business.id}`)
      .send({ customerType: 'BUSINESS', businessInfo: { taxId: 'EIN-1', country: 'US', incorporatedOn: '2019-05-01' }, beneficialOwners: [owner('Jones')] })
      .expect(200);
    expect(patched.body.businessInfo).toEqual({ ...business.businessInfo, taxId: 'EIN-1', country: 'US', incorporatedOn: '2019-05-01' });
    expect(patched.body.beneficialOwners).toHaveLength(1);
    expect(patched.body.beneficialOwners[0]).toEqual(
      expect.objectContaining({ id: expect.stringMatching(/^BeneficialOwner:/), customerId: business.id, createdAt: patched.body.updatedAt }),
    );
    expect(patched.body.beneficialOwners[0].id).not.toBe(business.beneficialOwners[0].id);
    expect(patched.body.beneficialOwners[0].personalInfo.lastName).toBe('Jones');
    const refused = await testApp.platform.api.patch(`/customers/${business.id}`).send({ fullName: 'Nope', customerType: 'INDIVIDUAL' }).expect(400);
    expect(refused.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['customerType', 'fullName']);
  });

  it('DELETE /customers/{id}: 200 with isDeleted; then GET shows it, PATCH is 409, DELETE 410, lists skip it unless isIncludingDeleted', async () => {
    const customer = await createIndividual(testApp.platform.api);
    const deleted = await testApp.platform.api.delete(`/customers/${customer.id}`).expect(200);
    expect(deleted.body).toEqual({ ...customer, isDeleted: true, updatedAt: expect.any(String) });
    expect((await testApp.platform.api.get(`/customers/${customer.id}`).expect(200)).body).toEqual(deleted.body);
    expect((await testApp.platform.api.patch(`/customers/${customer.id}`).send({ email: 'a@b.co' }).expect(409)).body).toEqual({
      status: 409, code: 'CONFLICT', message: 'The customer was deleted', details: { reason: 'CUSTOMER_DELETED' },
    });
    expect((await testApp.platform.api.delete(`/customers/${customer.id}`).expect(410)).body).toEqual({
      status: 410, code: 'CUSTOMER_DELETED', message: 'The customer was deleted',
    });
    const listed = await testApp.platform.api.get('/customers').query({ platformCustomerId: customer.platformCustomerId }).expect(200);
    expect(listed.body.totalCount).toBe(0);
    const withDeleted = await testApp.platform.api.get('/customers').query({ platformCustomerId: customer.platformCustomerId, isIncludingDeleted: 'true' }).expect(200);
    expect(withDeleted.body.data).toEqual([deleted.body]);
    // `includeDeleted`, the older name, still works.
    const alias = await testApp.platform.api.get('/customers').query({ platformCustomerId: customer.platformCustomerId, includeDeleted: 'true' }).expect(200);
    expect(alias.body.data).toEqual([deleted.body]);
  });

  it('records every change in the customer\'s audit history', async () => {
    const customer = await createIndividual(testApp.platform.api);
    await testApp.platform.api.patch(`/customers/${customer.id}`).send({ email: 'audit@example.com' }).expect(200);
    await testApp.platform.api.delete(`/customers/${customer.id}`).expect(200);
    const history = await testApp.platform.api.get('/audit/events').query({ resourceId: customer.id }).expect(200);
    expect(history.body.data.map((entry: { type: string }) => entry.type)).toEqual([
      'CustomerCreated', 'CustomerKycStatusChanged', 'CustomerInternalAccountsOpened', 'CustomerUpdated', 'CustomerDeleted',
    ]);
    expect(history.body.data[0].metadata).toEqual(expect.objectContaining({ platformId: testApp.platform.platformId, actor: `platform:${testApp.platform.clientId}` }));
  });
});
