import { TestApp, TestPlatform, startTestApp } from '../../support/test-app';
import { beneficialOwner, createBusiness } from '../../support/customer-fixtures';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32)]);
const HOLDER_NOT_FOUND = { status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Document holder not found' };

/**
 * Documents of a beneficial owner (issue 25 part 6; the reference's `documentHolder` is "a Customer
 * ID or a BeneficialOwner ID"): recorded on the business, shown and listed under the owner, kept
 * by a replacement, and not the business's own legal-presence document.
 */
describe("documents held by a business's beneficial owner", () => {
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
  const upload = (platform: TestPlatform, holder: string, documentType = 'PASSPORT') =>
    platform.api
      .post('/documents')
      .field('documentHolder', holder)
      .field('documentType', documentType)
      .field('country', 'US')
      .attach('file', PDF, { filename: 'scan.pdf', contentType: 'application/pdf' });

  it("uploads, reads, lists, replaces and audits an owner's document under the owner's id", async () => {
    const business = await createBusiness(api(), { businessInfo: { legalName: 'Owned Co', registrationNumber: 'RN-001' }, beneficialOwners: [beneficialOwner('Smith')] });
    const ownerId = business.beneficialOwners[0].id;
    const document = (await upload(testApp.platform, ownerId).expect(201)).body;
    expect(document).toEqual(expect.objectContaining({ id: expect.stringMatching(/^Document:/), documentHolder: ownerId, documentType: 'PASSPORT', country: 'US' }));
    expect((await api().get(`/documents/${document.id}`).expect(200)).body).toEqual(document);

    const byOwner = await api().get('/documents').query({ documentHolder: ownerId }).expect(200);
    expect(byOwner.body).toEqual({ data: [document], hasMore: false, totalCount: 1 });
    const byBusiness = await api().get('/documents').query({ documentHolder: business.id }).expect(200);
    expect(byBusiness.body).toEqual({ data: [], hasMore: false, totalCount: 0 });

    const replaced = await api()
      .put(`/documents/${document.id}`)
      .field('documentType', 'DRIVERS_LICENSE')
      .field('country', 'US')
      .attach('file', PNG, { filename: 'clear.png', contentType: 'image/png' })
      .expect(200);
    expect(replaced.body).toEqual(expect.objectContaining({ id: document.id, documentHolder: ownerId, documentType: 'DRIVERS_LICENSE' }));

    const history = await api().get('/audit/events').query({ resourceId: document.id }).expect(200);
    expect(history.body.data.map((entry: { type: string }) => entry.type)).toEqual(['DocumentUploaded', 'DocumentReplaced']);
  });

  it("an owner's legal-presence document is not the business's: the verification still asks for one", async () => {
    const business = await createBusiness(api(), {
      businessInfo: { legalName: 'Paper Co', registrationNumber: 'RN-001', taxId: 'EIN-1', country: 'US', incorporatedOn: '2015-06-01' },
      address: { line1: '1 Main St', city: 'Springfield', postalCode: '62701', country: 'US' },
      beneficialOwners: [beneficialOwner('Smith')],
    });
    await upload(testApp.platform, business.beneficialOwners[0].id, 'CERTIFICATE_OF_INCORPORATION').expect(201);
    const first = await api().post('/verifications').send({ customerId: business.id }).expect(200);
    expect(first.body.errors.map((error: { type: string }) => error.type)).toEqual(['MISSING_LEGAL_PRESENCE_DOCUMENT']);
    await upload(testApp.platform, business.id, 'CERTIFICATE_OF_INCORPORATION').expect(201);
    expect((await api().post('/verifications').send({ customerId: business.id }).expect(200)).body.verificationStatus).toBe('PENDING_MANUAL_REVIEW');
  });

  it("refuses an unknown owner, another platform's owner, and a malformed holder", async () => {
    const business = await createBusiness(api(), { beneficialOwners: [beneficialOwner('Smith')] });
    const ownerId = business.beneficialOwners[0].id;
    expect((await upload(testApp.platform, 'BeneficialOwner:01900000-0000-7000-8000-000000000000').expect(404)).body).toEqual(HOLDER_NOT_FOUND);
    expect((await upload(other, ownerId).expect(404)).body).toEqual(HOLDER_NOT_FOUND);
    const malformed = await upload(testApp.platform, 'Owner:1').expect(400);
    expect(malformed.body.details.errors).toEqual([
      { field: 'documentHolder', constraint: { format: 'Customer-id' }, message: 'documentHolder must be a Customer:<uuid> or BeneficialOwner:<uuid> id' },
    ]);
  });
});
