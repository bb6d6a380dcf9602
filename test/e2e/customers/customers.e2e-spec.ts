import { TestApp, startTestApp } from '../../support/test-app';
import { createBusiness, createIndividual, uniqueId } from '../../support/customer-fixtures';

const ADDRESS = { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' };

/** `POST/GET/PATCH/DELETE /customers` and the sandbox KYC statuses at creation. */
describe('customers', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('POST /customers creates an individual: 201 with the full view', async () => {
    const platformCustomerId = uniqueId();
    const response = await testApp.platform.api
      .post('/customers')
      .send({
        customerType: 'INDIVIDUAL',
        platformCustomerId,
        region: 'US',
        email: 'jane@example.com',
        phoneNumber: '+14155550100',
        fullName: 'Jane Doe',
        birthDate: '1990-01-15',
        nationality: 'US',
        address: ADDRESS,
        taxIdType: 'SSN',
        taxIdentifier: '123-45-6789',
      })
      .expect(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^Customer:[0-9a-f-]{36}$/),
      platformCustomerId,
      umaAddress: expect.stringMatching(/^\$.+@uma\.sandbox\.payments\.local$/),
      region: 'US',
      email: 'jane@example.com',
      phoneNumber: '+14155550100',
      address: { ...ADDRESS, line2: null },
      isDeleted: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      customerType: 'INDIVIDUAL',
      fullName: 'Jane Doe',
      birthDate: '1990-01-15',
      nationality: 'US',
      taxIdType: 'SSN',
      kycStatus: 'APPROVED',
    });
    expect(JSON.stringify(response.body)).not.toContain('123-45-6789');
    const read = await testApp.platform.api.get(`/customers/${response.body.id}`).expect(200);
    expect(read.body).toEqual(response.body);
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

  it('POST /customers creates a business UNVERIFIED with its beneficial owners', async () => {
    const customer = await createBusiness(testApp.platform.api, {
      email: 'ops@acme.test',
      address: ADDRESS,
      beneficialOwners: [
        { personalInfo: { firstName: 'Ann', lastName: 'Smith', birthDate: '1980-02-03', nationality: 'US', identifier: '999-99-9999' }, roles: ['UBO'], ownershipPercentage: 60 },
      ],
    });
    expect(customer).toEqual(
      expect.objectContaining({
        customerType: 'BUSINESS',
        kybStatus: 'UNVERIFIED',
        businessInfo: { legalName: 'Acme Corp', registrationNumber: 'REG-999', taxId: null, incorporationDate: null, entityType: null },
        beneficialOwners: [
          {
            personalInfo: {
              firstName: 'Ann', middleName: null, lastName: 'Smith', birthDate: '1980-02-03', nationality: 'US',
              email: null, phoneNumber: null, address: null, idType: null,
            },
            roles: ['UBO'],
            ownershipPercentage: 60,
            kycStatus: 'UNVERIFIED',
          },
        ],
      }),
    );
    expect(customer.kycStatus).toBeUndefined();
    expect(JSON.stringify(customer)).not.toContain('999-99-9999');
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
        umaAddress: 'alice@example.com',
        surprise: 1,
      })
      .expect(400);
    expect(response.body.code).toBe('INVALID_INPUT');
    const fields = response.body.details.errors.map((error: { field: string; constraint: string }) => `${error.field}:${error.constraint}`).sort();
    expect(fields).toEqual(
      [
        'address.city:REQUIRED', 'address.country:REQUIRED', 'address.postalCode:REQUIRED', 'birthDate:FORMAT', 'email:FORMAT',
        'fullName:REQUIRED', 'nationality:FORMAT', 'phoneNumber:PATTERN', 'platformCustomerId:MIN_LENGTH', 'surprise:UNKNOWN_FIELD',
        'taxIdType:ENUM', 'umaAddress:PATTERN',
      ].sort(),
    );
  });

  it('lists business field errors, and rejects a missing or unknown customerType', async () => {
    const business = await testApp.platform.api
      .post('/customers')
      .send({ customerType: 'BUSINESS', platformCustomerId: uniqueId(), businessInfo: {}, beneficialOwners: [{ personalInfo: {}, ownershipPercentage: 101 }] })
      .expect(400);
    expect(business.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(
      ['beneficialOwners.0.ownershipPercentage', 'beneficialOwners.0.personalInfo.lastName', 'businessInfo.legalName'].sort(),
    );
    const missing = await testApp.platform.api.post('/customers').send({ platformCustomerId: uniqueId(), fullName: 'X' }).expect(400);
    expect(missing.body.details.errors).toEqual([{ field: 'customerType', constraint: 'REQUIRED', message: expect.any(String) }]);
    const unknown = await testApp.platform.api.post('/customers').send({ customerType: 'ROBOT', platformCustomerId: uniqueId(), fullName: 'X' }).expect(400);
    expect(unknown.body.details.errors).toEqual([{ field: 'customerType', constraint: 'ENUM', message: 'customerType must be one of INDIVIDUAL, BUSINESS' }]);
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
    const bad = await other.api.get('/customers').query({ customerType: 'ROBOT', limit: 0, nope: 1 }).expect(400);
    expect(bad.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['customerType', 'limit', 'nope']);
  });

  it('GET /customers/{id}: 400 malformed, 404 unknown or another platform\'s', async () => {
    const customer = await createIndividual(testApp.platform.api);
    await testApp.platform.api.get('/customers/not-an-id').expect(400);
    const unknown = await testApp.platform.api.get('/customers/Customer:01900000-0000-7000-8000-000000000000').expect(404);
    expect(unknown.body).toEqual({ status: 404, code: 'USER_NOT_FOUND', message: 'Customer not found' });
    const other = await testApp.createPlatform();
    const hidden = await other.api.get(`/customers/${customer.id}`).expect(404);
    expect(hidden.body).toEqual(unknown.body);
    await other.api.patch(`/customers/${customer.id}`).send({ email: 'x@y.z' }).expect(404);
    await other.api.delete(`/customers/${customer.id}`).expect(404);
  });

  it('PATCH /customers/{id} changes the fields given; immutable and unknown fields are 400', async () => {
    const customer = await createIndividual(testApp.platform.api);
    const patched = await testApp.platform.api
      .patch(`/customers/${customer.id}`)
      .send({ email: 'new@example.com', address: ADDRESS, birthDate: '1991-02-03' })
      .expect(200);
    expect(patched.body).toEqual({
      ...customer,
      email: 'new@example.com',
      address: { ...ADDRESS, line2: null },
      birthDate: '1991-02-03',
      updatedAt: expect.any(String),
    });
    expect((await testApp.platform.api.get(`/customers/${customer.id}`).expect(200)).body).toEqual(patched.body);
    const refused = await testApp.platform.api
      .patch(`/customers/${customer.id}`)
      .send({ platformCustomerId: 'x', customerType: 'BUSINESS', businessInfo: { legalName: 'X' }, email: 'bad' })
      .expect(400);
    expect(refused.body.details.errors.map((error: { field: string; constraint: string }) => `${error.field}:${error.constraint}`).sort()).toEqual(
      ['businessInfo:UNKNOWN_FIELD', 'customerType:FORMAT', 'email:FORMAT', 'platformCustomerId:FORMAT'].sort(),
    );
  });

  it('PATCH a business merges businessInfo and replaces beneficial owners', async () => {
    const business = await createBusiness(testApp.platform.api);
    const patched = await testApp.platform.api
      .patch(`/customers/${business.id}`)
      .send({ businessInfo: { taxId: 'EIN-1' }, beneficialOwners: [{ personalInfo: { lastName: 'Jones' } }] })
      .expect(200);
    expect(patched.body.businessInfo).toEqual({ ...business.businessInfo, taxId: 'EIN-1' });
    expect(patched.body.beneficialOwners).toHaveLength(1);
    expect(patched.body.beneficialOwners[0].personalInfo.lastName).toBe('Jones');
    const refused = await testApp.platform.api.patch(`/customers/${business.id}`).send({ fullName: 'Nope' }).expect(400);
    expect(refused.body.details.errors[0]).toEqual(expect.objectContaining({ field: 'fullName', constraint: 'UNKNOWN_FIELD' }));
  });

  it('DELETE /customers/{id}: 200 with isDeleted, then 410 CUSTOMER_DELETED everywhere', async () => {
    const customer = await createIndividual(testApp.platform.api);
    const deleted = await testApp.platform.api.delete(`/customers/${customer.id}`).expect(200);
    expect(deleted.body).toEqual({ ...customer, isDeleted: true, updatedAt: expect.any(String) });
    const gone = { status: 410, code: 'CUSTOMER_DELETED', message: 'The customer was deleted' };
    expect((await testApp.platform.api.get(`/customers/${customer.id}`).expect(410)).body).toEqual(gone);
    expect((await testApp.platform.api.patch(`/customers/${customer.id}`).send({ email: 'a@b.co' }).expect(410)).body).toEqual(gone);
    expect((await testApp.platform.api.delete(`/customers/${customer.id}`).expect(410)).body).toEqual(gone);
    const listed = await testApp.platform.api.get('/customers').query({ platformCustomerId: customer.platformCustomerId }).expect(200);
    expect(listed.body.totalCount).toBe(0);
    const withDeleted = await testApp.platform.api.get('/customers').query({ platformCustomerId: customer.platformCustomerId, includeDeleted: 'true' }).expect(200);
    expect(withDeleted.body.data[0].isDeleted).toBe(true);
  });

  it('records every change in the customer\'s audit history', async () => {
    const customer = await createIndividual(testApp.platform.api);
    await testApp.platform.api.patch(`/customers/${customer.id}`).send({ email: 'audit@example.com' }).expect(200);
    await testApp.platform.api.delete(`/customers/${customer.id}`).expect(200);
    const history = await testApp.platform.api.get('/audit/events').query({ resourceId: customer.id }).expect(200);
    expect(history.body.data.map((entry: { type: string }) => entry.type)).toEqual([
      'CustomerCreated', 'CustomerKycStatusChanged', 'CustomerUpdated', 'CustomerDeleted',
    ]);
    expect(history.body.data[0].metadata).toEqual(expect.objectContaining({ platformId: testApp.platform.platformId, actor: `platform:${testApp.platform.clientId}` }));
  });
});
