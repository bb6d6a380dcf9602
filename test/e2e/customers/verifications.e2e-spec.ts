import { TestApp, startTestApp } from '../../support/test-app';
import { createBusiness, createIndividual } from '../../support/customer-fixtures';

const ADDRESS = { line1: '1 Main St', city: 'Springfield', postalCode: '62701', country: 'US' };
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(32)]);

/** A beneficial owner with every field the reference's BeneficialOwnerCreateRequest requires. */
const owner = (lastName: string) => ({
  personalInfo: { firstName: 'Ann', lastName, birthDate: '1980-01-01', nationality: 'US', address: ADDRESS, idType: 'SSN', identifier: '123-45-6789' },
  roles: ['UBO'],
  ownershipPercentage: 40,
});

/** `POST /documents`, `POST /verifications`, `GET /verifications[/{id}]` and the sandbox KYC/KYB paths. */
describe('documents and verifications', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const upload = (customerId: string, file: Buffer, contentType: string, documentType = 'PASSPORT', filename = 'doc') =>
    testApp.platform.api
      .post('/documents')
      .field('documentHolder', customerId)
      .field('documentType', documentType)
      .field('country', 'US')
      .attach('file', file, { filename, contentType });

  const verify = (customerId: string) => testApp.platform.api.post('/verifications').send({ customerId });

  it('POST /documents accepts JPEG, PNG and PDF (201), GET /documents/{id} reads it back', async () => {
    const customer = await createIndividual(testApp.platform.api, { fullName: 'Doc Holder001' });
    for (const [file, type, name] of [[PDF, 'application/pdf', 'p.pdf'], [PNG, 'image/png', 'p.png'], [JPEG, 'image/jpeg', 'p.jpg']] as const) {
      const response = await upload(customer.id, file, type, 'PASSPORT', name).expect(201);
      expect(response.body).toEqual({
        id: expect.stringMatching(/^Document:/),
        documentHolder: customer.id,
        documentType: 'PASSPORT',
        country: 'US',
        fileName: name,
        contentType: type,
        sizeBytes: file.length,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect((await testApp.platform.api.get(`/documents/${response.body.id}`).expect(200)).body).toEqual(response.body);
    }
  });

  it('POST /documents refuses other types, fake content, oversize files, missing parts and bad fields with a clear 400', async () => {
    const customer = await createIndividual(testApp.platform.api, { fullName: 'Doc Holder001' });
    const gif = await upload(customer.id, Buffer.from('GIF89a....'), 'image/gif', 'PASSPORT', 'a.gif').expect(400);
    expect(gif.body.details.errors).toEqual([{ field: 'file', constraint: {}, message: 'file type image/gif is not accepted; send a JPEG, PNG or PDF' }]);
    const fake = await upload(customer.id, Buffer.from('not really a pdf'), 'application/pdf').expect(400);
    expect(fake.body.details.errors[0]).toEqual({ field: 'file', constraint: {}, message: 'file content is not a valid application/pdf file' });
    const big = await upload(customer.id, Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024)]), 'application/pdf').expect(400);
    expect(big.body.details.errors).toEqual([{ field: 'file', constraint: {}, message: 'file must be at most 10 MB' }]);
    const noFile = await testApp.platform.api.post('/documents').field('documentHolder', 'nope').field('documentType', 'SELFIE_STICK').expect(400);
    expect(noFile.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['country', 'documentHolder', 'documentType', 'file']);
    const json = await testApp.platform.api.post('/documents').send({ documentHolder: customer.id }).expect(400);
    expect(json.body.details.errors[0]).toEqual(expect.objectContaining({ field: 'body', constraint: {} }));
    const other = await testApp.createPlatform();
    const hidden = await other.api
      .post('/documents')
      .field('documentHolder', customer.id)
      .field('documentType', 'PASSPORT')
      .field('country', 'US')
      .attach('file', PDF, { filename: 'p.pdf', contentType: 'application/pdf' })
      .expect(404);
    expect(hidden.body.code).toBe('USER_NOT_FOUND');
    const unknown = await upload('Customer:01900000-0000-7000-8000-000000000000', PDF, 'application/pdf').expect(404);
    expect(unknown.body).toEqual(hidden.body);
    const gone = await createIndividual(testApp.platform.api, { fullName: 'Doc Gone001' });
    await testApp.platform.api.delete(`/customers/${gone.id}`).expect(200);
    // POST /documents declares no 410: a deleted holder is a bad documentHolder.
    const deleted = await upload(gone.id, PDF, 'application/pdf').expect(400);
    expect(deleted.body).toEqual({
      status: 400, code: 'INVALID_INPUT', message: 'The customer was deleted', details: { reason: 'CUSTOMER_DELETED', field: 'documentHolder' },
    });
  });

  it('POST /documents takes every document type the reference names, with side, number and authority; GET /documents/{id} 404s', async () => {
    const customer = await createIndividual(testApp.platform.api, { fullName: 'Selfie Taker001' });
    const response = await testApp.platform.api
      .post('/documents')
      .field('documentHolder', customer.id)
      .field('documentType', 'SELFIE')
      .field('country', 'US')
      .field('side', 'FRONT')
      .field('documentNumber', 'A123')
      .field('issuingAuthority', 'DMV')
      .attach('file', JPEG, { filename: 's.jpg', contentType: 'image/jpeg' })
      .expect(201);
    expect(response.body).toEqual(expect.objectContaining({ documentType: 'SELFIE', side: 'FRONT', documentNumber: 'A123', issuingAuthority: 'DMV' }));
    const notFound = { status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Document not found' };
    expect((await testApp.platform.api.get('/documents/Document:01900000-0000-7000-8000-000000000000').expect(404)).body).toEqual(notFound);
    // GET /documents/{id} declares no 400: a malformed id is not found.
    expect((await testApp.platform.api.get('/documents/nope').expect(404)).body).toEqual(notFound);
  });

  it('individual 001: RESOLVE_ERRORS with one entry per missing item, then PENDING_MANUAL_REVIEW once complete', async () => {
    const customer = await createIndividual(testApp.platform.api, { fullName: 'Pat Pending001' });
    expect(customer.kycStatus).toBe('PENDING');
    const first = await verify(customer.id).expect(200);
    expect(first.body).toEqual({
      id: expect.stringMatching(/^Verification:/),
      customerId: customer.id,
      verificationStatus: 'RESOLVE_ERRORS',
      errors: [
        { resourceId: customer.id, type: 'MISSING_FIELD', field: 'birthDate', reason: 'Date of birth is required' },
        { resourceId: customer.id, type: 'MISSING_FIELD', field: 'nationality', reason: 'Nationality is required' },
        { resourceId: customer.id, type: 'MISSING_FIELD', field: 'idType', reason: 'Identification type is required' },
        { resourceId: customer.id, type: 'MISSING_FIELD', field: 'identifier', reason: 'Identification number is required' },
        { resourceId: customer.id, type: 'MISSING_FIELD', field: 'address', reason: 'Residential address is required' },
        {
          resourceId: customer.id,
          type: 'MISSING_IDENTITY_DOCUMENT',
          acceptedDocumentTypes: ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'],
          reason: 'An identity document is required',
        },
      ],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await testApp.platform.api.get(`/verifications/${first.body.id}`).expect(200)).body).toEqual(first.body);

    await testApp.platform.api
      .patch(`/customers/${customer.id}`)
      .send({ customerType: 'INDIVIDUAL', birthDate: '1990-01-15', nationality: 'US', idType: 'SSN', identifier: '123-45-6789', address: ADDRESS })
      .expect(200);
    const partial = await verify(customer.id).expect(200);
    expect(partial.body.errors.map((error: { type: string }) => error.type)).toEqual(['MISSING_IDENTITY_DOCUMENT']);
    await upload(customer.id, PDF, 'application/pdf').expect(201);
    const complete = await verify(customer.id).expect(200);
    expect(complete.body).toEqual(expect.objectContaining({ verificationStatus: 'PENDING_MANUAL_REVIEW', errors: [] }));
    expect((await testApp.platform.api.get(`/customers/${customer.id}`).expect(200)).body.kycStatus).toBe('PENDING');

    const list = await testApp.platform.api.get('/verifications').query({ customerId: customer.id }).expect(200);
    expect(list.body.data.map((entry: { id: string }) => entry.id)).toEqual([first.body.id, partial.body.id, complete.body.id]);
    expect(list.body.totalCount).toBe(3);
    const filtered = await testApp.platform.api.get('/verifications').query({ customerId: customer.id, verificationStatus: 'PENDING_MANUAL_REVIEW' }).expect(200);
    expect(filtered.body.data).toEqual([complete.body]);
  });

  it('individual 003: RESOLVE_ERRORS for a poor-quality document', async () => {
    const customer = await createIndividual(testApp.platform.api, {
      fullName: 'Una Verified003', birthDate: '1990-01-15', nationality: 'US', idType: 'SSN', identifier: '1', address: ADDRESS,
    });
    expect(customer.kycStatus).toBe('UNVERIFIED');
    const document = await upload(customer.id, JPEG, 'image/jpeg').expect(201);
    const response = await verify(customer.id).expect(200);
    expect(response.body.verificationStatus).toBe('RESOLVE_ERRORS');
    expect(response.body.errors).toEqual([
      {
        resourceId: document.body.id,
        type: 'POOR_QUALITY_DOCUMENT',
        acceptedDocumentTypes: ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'],
        reason: 'The identity document is of too poor a quality to read; upload a clearer copy',
      },
    ]);
  });

  it('400 once an individual is approved (no suffix) or rejected (002)', async () => {
    for (const fullName of ['Ready Person', 'Rita Rejected002']) {
      const customer = await createIndividual(testApp.platform.api, { fullName });
      const response = await verify(customer.id).expect(400);
      expect(response.body).toEqual({
        status: 400,
        code: 'INVALID_INPUT',
        message: 'The customer has already been approved or rejected; it cannot be submitted again',
        details: { reason: 'VERIFICATION_ALREADY_RESOLVED' },
      });
    }
  });

  it('business: registration number suffix decides; beneficial owners resolve by last name; then 400', async () => {
    const owners = [owner('Smith001'), owner('Jones002'), owner('Brown')];
    const approved = await createBusiness(testApp.platform.api, { businessInfo: { legalName: 'Good Co', registrationNumber: 'RN-777' }, beneficialOwners: owners });
    const approval = await verify(approved.id).expect(200);
    expect(approval.body).toEqual(expect.objectContaining({ verificationStatus: 'APPROVED', errors: [] }));
    const afterApproval = await testApp.platform.api.get(`/customers/${approved.id}`).expect(200);
    expect(afterApproval.body.kybStatus).toBe('APPROVED');
    expect(afterApproval.body.beneficialOwners.map((entry: { kycStatus: string }) => entry.kycStatus)).toEqual(['PENDING', 'REJECTED', 'APPROVED']);
    // Each owner's updatedAt is the moment its status changed; ids stay.
    expect(afterApproval.body.beneficialOwners.map((entry: { id: string }) => entry.id)).toEqual(approved.beneficialOwners.map((entry: { id: string }) => entry.id));
    expect(afterApproval.body.beneficialOwners[0].updatedAt).toBe(approval.body.createdAt);
    await verify(approved.id).expect(400);

    const rejected = await createBusiness(testApp.platform.api, { businessInfo: { legalName: 'Bad Co', registrationNumber: 'RN-002' }, beneficialOwners: owners });
    expect((await verify(rejected.id).expect(200)).body.verificationStatus).toBe('REJECTED');
    expect((await testApp.platform.api.get(`/customers/${rejected.id}`).expect(200)).body.kybStatus).toBe('REJECTED');
    await verify(rejected.id).expect(400);
  });

  it('business 001: real requirements, RESOLVE_ERRORS then PENDING_MANUAL_REVIEW with kybStatus PENDING', async () => {
    const business = await createBusiness(testApp.platform.api, { businessInfo: { legalName: 'Slow Co', registrationNumber: 'RN-001' } });
    const first = await verify(business.id).expect(200);
    expect(first.body.verificationStatus).toBe('RESOLVE_ERRORS');
    expect(first.body.errors.map((error: { field?: string; type: string }) => error.field ?? error.type)).toEqual([
      'businessInfo.country', 'businessInfo.incorporatedOn', 'businessInfo.taxId', 'address', 'MISSING_BENEFICIAL_OWNER',
      'MISSING_LEGAL_PRESENCE_DOCUMENT',
    ]);
    await testApp.platform.api
      .patch(`/customers/${business.id}`)
      .send({
        customerType: 'BUSINESS',
        businessInfo: { taxId: 'EIN-12-3456789', country: 'US', incorporatedOn: '2015-06-01' },
        address: ADDRESS,
        beneficialOwners: [owner('Smith')],
      })
      .expect(200);
    await upload(business.id, PDF, 'application/pdf', 'CERTIFICATE_OF_INCORPORATION').expect(201);
    const complete = await verify(business.id).expect(200);
    expect(complete.body.verificationStatus).toBe('PENDING_MANUAL_REVIEW');
    expect((await testApp.platform.api.get(`/customers/${business.id}`).expect(200)).body.kybStatus).toBe('PENDING');
    const history = await testApp.platform.api.get('/audit/events').query({ resourceId: business.id }).expect(200);
    expect(history.body.data.map((entry: { type: string }) => entry.type)).toEqual([
      'CustomerCreated', 'CustomerKybStatusChanged', 'CustomerInternalAccountsOpened', 'VerificationSubmitted', 'CustomerUpdated', 'DocumentUploaded',
      'VerificationSubmitted', 'CustomerKybStatusChanged',
    ]);
  });

  it('business 003: no automatic decision either, the real requirements are checked', async () => {
    const business = await createBusiness(testApp.platform.api, { businessInfo: { legalName: 'Other Slow Co', registrationNumber: 'RN-003' } });
    const first = await verify(business.id).expect(200);
    expect(first.body.verificationStatus).toBe('RESOLVE_ERRORS');
    expect(first.body.errors.map((error: { field?: string; type: string }) => error.field ?? error.type)).toEqual([
      'businessInfo.country', 'businessInfo.incorporatedOn', 'businessInfo.taxId', 'address', 'MISSING_BENEFICIAL_OWNER',
      'MISSING_LEGAL_PRESENCE_DOCUMENT',
    ]);
    expect((await testApp.platform.api.get(`/customers/${business.id}`).expect(200)).body.kybStatus).toBe('UNVERIFIED');
  });

  it('POST /verifications: 400 for a bad body or a deleted customer, 404 unknown or other platform; GET 404 REFERENCE_NOT_FOUND', async () => {
    const bad = await testApp.platform.api.post('/verifications').send({ customerId: 'x', extra: true }).expect(400);
    expect(bad.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['customerId', 'extra']);
    await verify('Customer:01900000-0000-7000-8000-000000000000').expect(404);
    const customer = await createIndividual(testApp.platform.api, { fullName: 'Gone001' });
    const other = await testApp.createPlatform();
    expect((await other.api.post('/verifications').send({ customerId: customer.id }).expect(404)).body.code).toBe('USER_NOT_FOUND');
    await testApp.platform.api.delete(`/customers/${customer.id}`).expect(200);
    // POST /verifications declares no 410: a deleted customer cannot be submitted (400, like a resolved one).
    expect((await verify(customer.id).expect(400)).body).toEqual({
      status: 400, code: 'INVALID_INPUT', message: 'The customer was deleted', details: { reason: 'CUSTOMER_DELETED', field: 'customerId' },
    });
    const notFound = { status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Verification not found' };
    // GET /verifications/{id} declares no 400: a malformed id is not found.
    expect((await testApp.platform.api.get('/verifications/nope').expect(404)).body).toEqual(notFound);
    expect((await testApp.platform.api.get('/verifications/Verification:01900000-0000-7000-8000-000000000000').expect(404)).body).toEqual(notFound);
    const filtered = await testApp.platform.api.get('/verifications').query({ verificationStatus: 'IN_PROGRESS' }).expect(200);
    expect(filtered.body).toEqual({ data: [], hasMore: false, totalCount: 0 });
  });

  it('GET /audit/events finds the history of a document or a verification by its own id', async () => {
    const customer = await createIndividual(testApp.platform.api, { fullName: 'Audit Trail001' });
    const document = await upload(customer.id, PDF, 'application/pdf').expect(201);
    const verification = await verify(customer.id).expect(200);
    const other = await upload(customer.id, PNG, 'image/png').expect(201);

    const documentHistory = await testApp.platform.api.get('/audit/events').query({ resourceId: document.body.id }).expect(200);
    expect(documentHistory.body).toEqual({ resourceId: document.body.id, data: [expect.any(Object)], hasMore: false, totalCount: 1 });
    expect(documentHistory.body.data[0]).toEqual(
      expect.objectContaining({
        type: 'DocumentUploaded',
        streamName: expect.stringMatching(/^customer-/),
        data: expect.objectContaining({ documentId: document.body.id, customerId: customer.id, contentType: 'application/pdf' }),
        metadata: expect.objectContaining({ platformId: testApp.platform.platformId }),
      }),
    );
    const otherHistory = await testApp.platform.api.get('/audit/events').query({ resourceId: other.body.id }).expect(200);
    expect(otherHistory.body.data.map((entry: { data: { documentId: string } }) => entry.data.documentId)).toEqual([other.body.id]);

    const verificationHistory = await testApp.platform.api.get('/audit/events').query({ resourceId: verification.body.id }).expect(200);
    expect(verificationHistory.body.data.map((entry: { type: string }) => entry.type)).toEqual(['VerificationSubmitted']);
    expect(verificationHistory.body.data[0].data).toEqual(
      expect.objectContaining({ verificationId: verification.body.id, verificationStatus: 'RESOLVE_ERRORS' }),
    );

    // Another platform, and unknown ids, get the same 404; a malformed id is 400.
    const foreign = await testApp.createPlatform();
    const unknown = await testApp.platform.api.get('/audit/events').query({ resourceId: 'Document:01900000-0000-7000-8000-000000000000' }).expect(404);
    const theirs = await foreign.api.get('/audit/events').query({ resourceId: document.body.id }).expect(404);
    expect(theirs.body.code).toBe(unknown.body.code);
    await foreign.api.get('/audit/events').query({ resourceId: verification.body.id }).expect(404);
    await testApp.platform.api.get('/audit/events').query({ resourceId: 'Document:nope' }).expect(400);
  });
});
