import { TestApp, TestPlatform, startTestApp } from '../../support/test-app';
import { beneficialOwner, createBusiness, createIndividual } from '../../support/customer-fixtures';
import { WebhookReceiver } from '../../support/webhook-receiver';

const ADDRESS = { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' };
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const UNKNOWN_CUSTOMER = 'Customer:01900000-0000-7000-8000-000000000000';
const UNKNOWN_OWNER = 'BeneficialOwner:01900000-0000-7000-8000-000000000000';
const OWNER_NOT_FOUND = { status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Beneficial owner not found' };
const CUSTOMER_NOT_FOUND = { status: 404, code: 'USER_NOT_FOUND', message: 'Customer not found' };

/**
 * Beneficial owners as a resource (issue 25 part 5, docs/customers.md "Beneficial owners"): create,
 * list, get, partial update; every 400 and 404; owners live in their business (its GET, its KYB
 * verification, the sandbox's owner resolution) and every change is in its audit history.
 */
describe('beneficial owners', () => {
  let testApp: TestApp;
  let other: TestPlatform;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    testApp = await startTestApp();
    other = await testApp.createPlatform();
    receiver = await WebhookReceiver.forPlatform(testApp.platform.api);
  });

  afterAll(async () => {
    await receiver?.close();
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  const addOwner = (customerId: string, lastName: string, extra: Record<string, unknown> = {}) =>
    api().post('/beneficial-owners').send({ customerId, ...beneficialOwner(lastName), ownershipPercentage: 25, ...extra });
  const fieldsOf = (response: { body: { details: { errors: Array<{ field: string }> } } }) => response.body.details.errors.map((error) => error.field).sort();

  it('POST /beneficial-owners: 201 with the owner (identifier masked, UNVERIFIED); GET and the customer show it', async () => {
    const business = await createBusiness(api());
    const before = Date.now();
    const created = await addOwner(business.id, 'Lopez', { roles: ['UBO', 'DIRECTOR'], ownershipPercentage: 51 }).expect(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^BeneficialOwner:[0-9a-f-]{36}$/),
      customerId: business.id,
      roles: ['UBO', 'DIRECTOR'],
      ownershipPercentage: 51,
      personalInfo: { firstName: 'Ann', lastName: 'Lopez', birthDate: '1980-02-03', nationality: 'US', address: ADDRESS, idType: 'SSN', identifier: '*******6789' },
      kycStatus: 'UNVERIFIED',
      createdAt: expect.any(String),
      updatedAt: created.body.createdAt,
    });
    expect(Date.parse(created.body.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    expect((await api().get(`/beneficial-owners/${created.body.id}`).expect(200)).body).toEqual(created.body);
    const customer = (await api().get(`/customers/${business.id}`).expect(200)).body;
    expect(customer.beneficialOwners).toEqual([created.body]);
    expect(customer.updatedAt).toBe(created.body.createdAt);
  });

  it('GET /beneficial-owners?customerId=: pages of limit, by creation, with totalCount; inline owners included', async () => {
    const business = await createBusiness(api(), { beneficialOwners: [{ ...beneficialOwner('Inline'), ownershipPercentage: 10 }] });
    for (const lastName of ['One', 'Two', 'Three']) await addOwner(business.id, lastName, { ownershipPercentage: 20 }).expect(201);
    const all = (await api().get(`/customers/${business.id}`).expect(200)).body.beneficialOwners;
    const first = await api().get('/beneficial-owners').query({ customerId: business.id, limit: 3 }).expect(200);
    expect(first.body).toEqual({ data: all.slice(0, 3), hasMore: true, nextCursor: expect.any(String), totalCount: 4 });
    const second = await api().get('/beneficial-owners').query({ customerId: business.id, limit: 3, cursor: first.body.nextCursor }).expect(200);
    expect(second.body).toEqual({ data: all.slice(3), hasMore: false, totalCount: 4 });
    expect(all.map((owner: { personalInfo: { lastName: string } }) => owner.personalInfo.lastName)).toEqual(['Inline', 'One', 'Two', 'Three']);
    const empty = await createBusiness(api());
    expect((await api().get('/beneficial-owners').query({ customerId: empty.id }).expect(200)).body).toEqual({ data: [], hasMore: false, totalCount: 0 });
  });

  it('PATCH /beneficial-owners/{id}: only the given fields change; a resent body changes nothing', async () => {
    const business = await createBusiness(api());
    const created = (await addOwner(business.id, 'Patch')).body;
    const patched = await api()
      .patch(`/beneficial-owners/${created.id}`)
      .send({ roles: ['CONTROL_PERSON'], personalInfo: { email: 'ann@example.com', identifier: '987-65-4321', address: { ...ADDRESS, line1: '2 Oak Ave' } } })
      .expect(200);
    expect(patched.body).toEqual({
      ...created,
      roles: ['CONTROL_PERSON'],
      personalInfo: { ...created.personalInfo, email: 'ann@example.com', identifier: '*******4321', address: { ...ADDRESS, line1: '2 Oak Ave' } },
      updatedAt: expect.any(String),
    });
    expect(Date.parse(patched.body.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
    expect((await api().get(`/beneficial-owners/${created.id}`).expect(200)).body).toEqual(patched.body);
    // The same values again (the identifier in clear, as the platform knows it): no change, no event.
    const again = await api()
      .patch(`/beneficial-owners/${created.id}`)
      .send({ roles: ['CONTROL_PERSON'], personalInfo: { identifier: '987-65-4321', email: 'ann@example.com' } })
      .expect(200);
    expect(again.body).toEqual(patched.body);
    expect((await api().patch(`/beneficial-owners/${created.id}`).send({}).expect(200)).body).toEqual(patched.body);
    const history = (await api().get('/audit/events').query({ resourceId: business.id }).expect(200)).body.data;
    expect(history.filter((entry: { type: string }) => entry.type.startsWith('BeneficialOwner')).map((entry: { type: string }) => entry.type)).toEqual([
      'BeneficialOwnerAdded', 'BeneficialOwnerUpdated',
    ]);
  });

  it('400 with every bad field at once: roles, percentages, personal info, ids, an INDIVIDUAL customer', async () => {
    const business = await createBusiness(api());
    const bad = await api()
      .post('/beneficial-owners')
      .send({ customerId: 'Customer:nope', roles: ['OWNER'], ownershipPercentage: 101, personalInfo: { firstName: 'Ann', birthDate: '1980-13-01', extra: 1 } })
      .expect(400);
    expect(bad.body.code).toBe('INVALID_INPUT');
    expect(fieldsOf(bad)).toEqual([
      'customerId', 'ownershipPercentage', 'personalInfo.address', 'personalInfo.birthDate', 'personalInfo.extra', 'personalInfo.idType',
      'personalInfo.identifier', 'personalInfo.lastName', 'personalInfo.nationality', 'roles',
    ].sort());
    const individual = await createIndividual(api());
    const notBusiness = await addOwner(individual.id, 'Ind', { roles: [], ownershipPercentage: 1.5 }).expect(400);
    expect(notBusiness.body.details.errors).toEqual(expect.arrayContaining([
      { field: 'customerId', constraint: {}, message: 'customerId names an INDIVIDUAL customer; beneficial owners belong to BUSINESS customers' },
    ]));
    expect(fieldsOf(notBusiness)).toEqual(['customerId', 'ownershipPercentage', 'roles']);
    expect(fieldsOf(await addOwner(individual.id, 'Ind').expect(400))).toEqual(['customerId']);
    // The owners of one business hold at most 100% between them.
    await addOwner(business.id, 'Big', { ownershipPercentage: 80 }).expect(201);
    const over = await addOwner(business.id, 'Over', { ownershipPercentage: 30 }).expect(400);
    expect(over.body.details.errors).toEqual([
      { field: 'ownershipPercentage', constraint: {}, message: "The owners' percentages would add up to 110; at most 100 (the others hold 80)" },
    ]);
    const owner = (await addOwner(business.id, 'Small', { ownershipPercentage: 20 }).expect(201)).body;
    expect(fieldsOf(await api().patch(`/beneficial-owners/${owner.id}`).send({ ownershipPercentage: 21 }).expect(400))).toEqual(['ownershipPercentage']);
    const badPatch = await api()
      .patch('/beneficial-owners/nope')
      .send({ roles: 'UBO', ownershipPercentage: -1, personalInfo: { nationality: 'USA', phoneNumber: '555', lastName: '' }, kycStatus: 'APPROVED' })
      .expect(400);
    expect(fieldsOf(badPatch)).toEqual(
      ['beneficialOwnerId', 'kycStatus', 'ownershipPercentage', 'personalInfo.lastName', 'personalInfo.nationality', 'personalInfo.phoneNumber', 'roles'].sort(),
    );
    const list = (query: Record<string, unknown>) => api().get('/beneficial-owners').query(query).expect(400);
    expect(fieldsOf(await list({}))).toEqual(['customerId']);
    expect(fieldsOf(await list({ customerId: 'nope', limit: 0, cursor: 'bad!', status: 'x' }))).toEqual(['cursor', 'customerId', 'limit', 'status']);
    expect((await list({ customerId: individual.id })).body.details.errors).toEqual([
      { field: 'customerId', constraint: {}, message: 'customerId names an INDIVIDUAL customer; beneficial owners belong to BUSINESS customers' },
    ]);
    // The list declares no 404: an unknown, another platform's or a deleted customer is a bad parameter.
    const unknown = (await list({ customerId: UNKNOWN_CUSTOMER })).body;
    expect(unknown.details.errors).toEqual([{ field: 'customerId', constraint: {}, message: 'customerId names no customer of this platform (unknown or deleted)' }]);
    expect((await other.api.get('/beneficial-owners').query({ customerId: business.id }).expect(400)).body).toEqual(unknown);
    const forged = Buffer.from(JSON.stringify({ createdAt: new Date().toISOString(), id: business.id })).toString('base64url');
    expect(fieldsOf(await list({ customerId: business.id, cursor: forged }))).toEqual(['cursor']);
  });

  it("404 for an unknown, deleted or other platform's customer or owner", async () => {
    const business = await createBusiness(api());
    const owner = (await addOwner(business.id, 'Hidden')).body;
    expect((await addOwner(UNKNOWN_CUSTOMER, 'Nobody').expect(404)).body).toEqual(CUSTOMER_NOT_FOUND);
    expect((await other.api.post('/beneficial-owners').send({ customerId: business.id, ...beneficialOwner('Theirs') }).expect(404)).body).toEqual(CUSTOMER_NOT_FOUND);
    expect((await api().get(`/beneficial-owners/${UNKNOWN_OWNER}`).expect(404)).body).toEqual(OWNER_NOT_FOUND);
    // GET declares no 400: an id that cannot name an owner is not found.
    expect((await api().get('/beneficial-owners/nope').expect(404)).body).toEqual(OWNER_NOT_FOUND);
    expect((await other.api.get(`/beneficial-owners/${owner.id}`).expect(404)).body).toEqual(OWNER_NOT_FOUND);
    expect((await other.api.patch(`/beneficial-owners/${owner.id}`).send({ roles: ['DIRECTOR'] }).expect(404)).body).toEqual(OWNER_NOT_FOUND);
    expect((await api().patch(`/beneficial-owners/${UNKNOWN_OWNER}`).send({ roles: ['DIRECTOR'] }).expect(404)).body).toEqual(OWNER_NOT_FOUND);
    await api().delete(`/customers/${business.id}`).expect(200);
    expect((await api().get(`/beneficial-owners/${owner.id}`).expect(404)).body).toEqual(OWNER_NOT_FOUND);
    expect((await api().patch(`/beneficial-owners/${owner.id}`).send({ roles: ['DIRECTOR'] }).expect(404)).body).toEqual(OWNER_NOT_FOUND);
    expect((await addOwner(business.id, 'Late').expect(404)).body).toEqual(CUSTOMER_NOT_FOUND);
    expect(fieldsOf(await api().get('/beneficial-owners').query({ customerId: business.id }).expect(400))).toEqual(['customerId']);
  });

  it('KYB verification sees an owner added here: MISSING_BENEFICIAL_OWNER until then, PENDING_MANUAL_REVIEW after', async () => {
    const business = await createBusiness(api(), {
      address: ADDRESS,
      businessInfo: { legalName: 'Slow Owners Co', registrationNumber: 'RN-001', taxId: '84-1234567', country: 'US', incorporatedOn: '2015-06-01' },
    });
    await api()
      .post('/documents')
      .field('documentHolder', business.id)
      .field('documentType', 'CERTIFICATE_OF_INCORPORATION')
      .field('country', 'US')
      .attach('file', PDF, { filename: 'c.pdf', contentType: 'application/pdf' })
      .expect(201);
    const first = await api().post('/verifications').send({ customerId: business.id }).expect(200);
    expect(first.body.errors.map((error: { type: string }) => error.type)).toEqual(['MISSING_BENEFICIAL_OWNER']);
    await addOwner(business.id, 'Owner').expect(201);
    const second = await api().post('/verifications').send({ customerId: business.id }).expect(200);
    expect(second.body).toEqual(expect.objectContaining({ verificationStatus: 'PENDING_MANUAL_REVIEW', errors: [] }));
  });

  it('an approved business whose ownership changes is PENDING until verified again; the new owner resolves then', async () => {
    const business = await createBusiness(api(), { beneficialOwners: [{ ...beneficialOwner('First'), ownershipPercentage: 50 }] });
    await api().post('/verifications').send({ customerId: business.id }).expect(200);
    const approved = (await api().get(`/customers/${business.id}`).expect(200)).body;
    expect({ kyb: approved.kybStatus, owners: approved.beneficialOwners.map((owner: { kycStatus: string }) => owner.kycStatus) }).toEqual({ kyb: 'APPROVED', owners: ['APPROVED'] });
    const added = (await addOwner(business.id, 'Newman002').expect(201)).body;
    expect(added.kycStatus).toBe('UNVERIFIED');
    const reopened = (await api().get(`/customers/${business.id}`).expect(200)).body;
    expect({ kyb: reopened.kybStatus, owners: reopened.beneficialOwners.map((owner: { kycStatus: string }) => owner.kycStatus) }).toEqual({
      kyb: 'PENDING', owners: ['APPROVED', 'UNVERIFIED'],
    });
    // The platform hears of it through the reference's KYB webhook, with the business as GET shows it.
    const webhook = await receiver.waitFor((entry) => entry.body.type === 'CUSTOMER.KYB_PENDING' && entry.body.data.id === business.id);
    expect(webhook.body.data).toEqual(reopened);
    // The sandbox resolves every owner with the business again, the new one by its lastName suffix.
    await api().post('/verifications').send({ customerId: business.id }).expect(200);
    const resolved = (await api().get(`/customers/${business.id}`).expect(200)).body;
    expect({ kyb: resolved.kybStatus, owners: resolved.beneficialOwners.map((owner: { kycStatus: string }) => owner.kycStatus) }).toEqual({
      kyb: 'APPROVED', owners: ['APPROVED', 'REJECTED'],
    });
    // A contact detail is not ownership: the business stays approved.
    await api().patch(`/beneficial-owners/${added.id}`).send({ personalInfo: { phoneNumber: '+14155550100' } }).expect(200);
    expect((await api().get(`/customers/${business.id}`).expect(200)).body.kybStatus).toBe('APPROVED');
    const history = (await api().get('/audit/events').query({ resourceId: business.id, limit: 100 }).expect(200)).body.data;
    const ownerEvents = history.filter((entry: { type: string }) => entry.type === 'BeneficialOwnerAdded' || entry.type === 'BeneficialOwnerUpdated');
    expect(ownerEvents.map((entry: { type: string }) => entry.type)).toEqual(['BeneficialOwnerAdded', 'BeneficialOwnerUpdated']);
    for (const entry of ownerEvents) {
      expect(entry.metadata).toEqual(expect.objectContaining({ platformId: testApp.platform.platformId, actor: `platform:${testApp.platform.clientId}` }));
    }
    expect(ownerEvents[0].data.owner).toEqual(expect.objectContaining({ id: added.id, kycStatus: 'UNVERIFIED' }));
    // The identifier is sealed in the event, never in clear.
    expect(JSON.stringify(ownerEvents[0].data)).not.toContain('123-45-6789');
    // The owner's own history: the events of its business's stream that name it.
    const ownHistory = (await api().get('/audit/events').query({ resourceId: added.id }).expect(200)).body.data;
    expect(ownHistory).toEqual(ownerEvents);
    await other.api.get('/audit/events').query({ resourceId: added.id }).expect(404);
    // No webhook of its own for an owner: the reference has none.
    expect(receiver.received.map((entry) => entry.body.type).filter((type) => /OWNER/.test(type))).toEqual([]);
  });
});
