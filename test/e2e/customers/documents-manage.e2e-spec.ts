import { Pool } from 'pg';
import { TestApp, TestPlatform, startTestApp } from '../../support/test-app';
import { createIndividual } from '../../support/customer-fixtures';

const ADDRESS = { line1: '1 Main St', city: 'Springfield', postalCode: '62701', country: 'US' };
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(32)]);
const UNKNOWN = 'Document:01900000-0000-7000-8000-000000000000';
const NOT_FOUND = { status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Document not found' };
/** Everything an individual's verification needs but the identity document. */
const COMPLETE = { birthDate: '1990-01-15', nationality: 'US', idType: 'SSN', identifier: '123-45-6789', address: ADDRESS };

/**
 * `GET /documents`, `PUT` and `DELETE /documents/{documentId}` (issue 25 part 6,
 * docs/customers.md "Documents"): the list and its filter and pages, replacement and deletion, what
 * counts as submitted for verification, a rejected document replaced so that the verification
 * passes, the audit history with its actor, and another platform's documents unseen.
 */
describe('documents: list, replace, delete', () => {
  let testApp: TestApp;
  let other: TestPlatform;
  let pool: Pool;

  beforeAll(async () => {
    testApp = await startTestApp();
    other = await testApp.createPlatform();
    pool = new Pool({ connectionString: testApp.databaseUrl, max: 2 });
    pool.on('error', () => undefined); // The database is dropped right after pool.end().
  });

  afterAll(async () => {
    await pool?.end();
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  const upload = (platform: TestPlatform, holder: string, file = PDF, contentType = 'application/pdf', documentType = 'PASSPORT') =>
    platform.api
      .post('/documents')
      .field('documentHolder', holder)
      .field('documentType', documentType)
      .field('country', 'US')
      .attach('file', file, { filename: 'scan', contentType })
      .expect(201)
      .then((response) => response.body);
  const replace = (documentId: string, file = PNG, contentType = 'image/png', platform: TestPlatform = testApp.platform) =>
    platform.api.put(`/documents/${documentId}`).field('documentType', 'DRIVERS_LICENSE').field('country', 'CA').attach('file', file, { filename: 'clear.png', contentType });
  const verify = (customerId: string) => api().post('/verifications').send({ customerId }).expect(200).then((response) => response.body);

  it('GET /documents lists the platform\'s documents oldest first, by holder, page by page; another platform sees none of them', async () => {
    const platform = await testApp.createPlatform();
    const ann = await createIndividual(platform.api, { fullName: 'Ann List001' });
    const bob = await createIndividual(platform.api, { fullName: 'Bob List001' });
    const documents = [await upload(platform, ann.id), await upload(platform, bob.id, PNG, 'image/png'), await upload(platform, ann.id, JPEG, 'image/jpeg', 'SELFIE')];

    const all = await platform.api.get('/documents').expect(200);
    expect(all.body).toEqual({ data: documents, hasMore: false, totalCount: 3 });
    const anns = await platform.api.get('/documents').query({ documentHolder: ann.id }).expect(200);
    expect(anns.body).toEqual({ data: [documents[0], documents[2]], hasMore: false, totalCount: 2 });

    const first = await platform.api.get('/documents').query({ limit: 2 }).expect(200);
    expect(first.body).toEqual({ data: documents.slice(0, 2), hasMore: true, nextCursor: expect.any(String), totalCount: 3 });
    const second = await platform.api.get('/documents').query({ limit: 2, cursor: first.body.nextCursor }).expect(200);
    expect(second.body).toEqual({ data: [documents[2]], hasMore: false, totalCount: 3 });

    // Another platform: its own (empty) list, nothing for our customer, 404 on our document.
    expect((await other.api.get('/documents').query({ documentHolder: ann.id }).expect(200)).body).toEqual({ data: [], hasMore: false, totalCount: 0 });
    expect((await other.api.get('/documents').expect(200)).body.data.map((entry: { id: string }) => entry.id)).not.toContain(documents[0].id);
    expect((await other.api.get(`/documents/${documents[0].id}`).expect(404)).body).toEqual(NOT_FOUND);
    // A beneficial owner may hold documents in the reference; none does here yet.
    const owner = await platform.api.get('/documents').query({ documentHolder: 'BeneficialOwner:01900000-0000-7000-8000-000000000000' }).expect(200);
    expect(owner.body).toEqual({ data: [], hasMore: false, totalCount: 0 });
  });

  it('GET /documents lists every bad parameter in one 400', async () => {
    const bad = await api().get('/documents').query({ documentHolder: 'Document:x', limit: 0, cursor: '!!', sort: 'asc' }).expect(400);
    expect(bad.body.code).toBe('INVALID_INPUT');
    expect(bad.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['cursor', 'documentHolder', 'limit', 'sort']);
    expect(bad.body.details.errors.find((error: { field: string }) => error.field === 'documentHolder').message).toBe(
      'documentHolder must be a Customer:<uuid> or BeneficialOwner:<uuid> id',
    );
  });

  it('PUT /documents/{id} replaces the file and the metadata; left-out optional fields are cleared', async () => {
    const customer = await createIndividual(api(), { fullName: 'Rita Replace001' });
    const original = (
      await api().post('/documents').field('documentHolder', customer.id).field('documentType', 'PASSPORT').field('country', 'US')
        .field('side', 'FRONT').field('documentNumber', 'A123').field('issuingAuthority', 'State Dept')
        .attach('file', PDF, { filename: 'passport.pdf', contentType: 'application/pdf' }).expect(201)
    ).body;
    const replaced = await replace(original.id).expect(200);
    expect(replaced.body).toEqual({
      id: original.id,
      documentHolder: customer.id,
      documentType: 'DRIVERS_LICENSE',
      country: 'CA',
      fileName: 'clear.png',
      contentType: 'image/png',
      sizeBytes: PNG.length,
      createdAt: original.createdAt,
      updatedAt: expect.any(String),
    });
    expect(Date.parse(replaced.body.updatedAt)).toBeGreaterThan(Date.parse(original.createdAt));
    expect((await api().get(`/documents/${original.id}`).expect(200)).body).toEqual(replaced.body);
    expect((await api().get('/documents').query({ documentHolder: customer.id }).expect(200)).body.data).toEqual([replaced.body]);

    const again = await api().put(`/documents/${original.id}`).field('documentType', 'NATIONAL_ID').field('country', 'FR').field('side', 'BACK')
      .field('documentNumber', 'FR-9').attach('file', JPEG, { filename: 'back.jpg', contentType: 'image/jpeg' }).expect(200);
    expect(again.body).toEqual(expect.objectContaining({ documentType: 'NATIONAL_ID', country: 'FR', side: 'BACK', documentNumber: 'FR-9', fileName: 'back.jpg' }));
  });

  it('PUT /documents/{id}: bad files and fields are one 400 listing them; unknown, malformed, deleted and other platforms\' ids are 404', async () => {
    const customer = await createIndividual(api(), { fullName: 'Bad Replace001' });
    const document = await upload(testApp.platform, customer.id);
    const gif = await replace(document.id, Buffer.from('GIF89a....'), 'image/gif').expect(400);
    expect(gif.body.details.errors).toEqual([{ field: 'file', constraint: {}, message: 'file type image/gif is not accepted; send a JPEG, PNG or PDF' }]);
    const fake = await replace(document.id, Buffer.from('not really a pdf'), 'application/pdf').expect(400);
    expect(fake.body.details.errors).toEqual([{ field: 'file', constraint: {}, message: 'file content is not a valid application/pdf file' }]);
    const big = await replace(document.id, Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024)]), 'application/pdf').expect(400);
    expect(big.body.details.errors).toEqual([{ field: 'file', constraint: {}, message: 'file must be at most 10 MB' }]);
    const fields = await api().put(`/documents/${document.id}`).field('documentType', 'SELFIE_STICK').field('side', 'LEFT').field('documentHolder', customer.id).expect(400);
    expect(fields.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['country', 'documentHolder', 'documentType', 'file', 'side']);
    const json = await api().put(`/documents/${document.id}`).send({ documentType: 'PASSPORT', country: 'US' }).expect(400);
    expect(json.body.details.errors[0]).toEqual(expect.objectContaining({ field: 'body', constraint: {} }));
    // Nothing was replaced.
    expect((await api().get(`/documents/${document.id}`).expect(200)).body).toEqual(document);

    expect((await replace(UNKNOWN).expect(404)).body).toEqual(NOT_FOUND);
    expect((await replace('nope').expect(404)).body).toEqual(NOT_FOUND);
    expect((await replace(document.id, PNG, 'image/png', other).expect(404)).body).toEqual(NOT_FOUND);
    expect((await api().get(`/documents/${document.id}`).expect(200)).body).toEqual(document);
  });

  it('DELETE /documents/{id}: 204, then 404 everywhere; unknown, malformed and other platforms\' ids are 404', async () => {
    const customer = await createIndividual(api(), { fullName: 'Del Ete001' });
    const [kept, removed] = [await upload(testApp.platform, customer.id), await upload(testApp.platform, customer.id, PNG, 'image/png')];
    expect((await other.api.delete(`/documents/${removed.id}`).expect(404)).body).toEqual(NOT_FOUND);
    await api().delete(`/documents/${removed.id}`).expect(204);
    expect((await api().get(`/documents/${removed.id}`).expect(404)).body).toEqual(NOT_FOUND);
    expect((await api().delete(`/documents/${removed.id}`).expect(404)).body).toEqual(NOT_FOUND);
    expect((await replace(removed.id).expect(404)).body).toEqual(NOT_FOUND);
    expect((await api().get('/documents').query({ documentHolder: customer.id }).expect(200)).body).toEqual({ data: [kept], hasMore: false, totalCount: 1 });
    expect((await api().delete(`/documents/${UNKNOWN}`).expect(404)).body).toEqual(NOT_FOUND);
    expect((await api().delete('/documents/nope').expect(404)).body).toEqual(NOT_FOUND);
  });

  it('a deleted identity document no longer counts for the verification; once submitted, a document can be neither deleted (409) nor replaced (400)', async () => {
    const customer = await createIndividual(api(), { fullName: 'Sub Mitted001', ...COMPLETE });
    const passport = await upload(testApp.platform, customer.id);
    await api().delete(`/documents/${passport.id}`).expect(204);
    expect((await verify(customer.id)).errors.map((error: { type: string }) => error.type)).toEqual(['MISSING_IDENTITY_DOCUMENT']);
    // RESOLVE_ERRORS did not submit the document uploaded next: still deletable until a verification passes.
    const second = await upload(testApp.platform, customer.id);
    expect((await verify(customer.id)).verificationStatus).toBe('PENDING_MANUAL_REVIEW');
    const conflict = await api().delete(`/documents/${second.id}`).expect(409);
    expect(conflict.body).toEqual({
      status: 409, code: 'CONFLICT', message: 'The document was submitted for verification; it can no longer be deleted',
      details: { reason: 'DOCUMENT_SUBMITTED_FOR_VERIFICATION' },
    });
    const refused = await replace(second.id).expect(400);
    expect(refused.body).toEqual({
      status: 400, code: 'INVALID_INPUT', message: 'The document was submitted for verification; it can no longer be replaced',
      details: { reason: 'DOCUMENT_SUBMITTED_FOR_VERIFICATION' },
    });
    expect((await api().get(`/documents/${second.id}`).expect(200)).body).toEqual(second);
    // A document uploaded after that submission is not part of it.
    const later = await upload(testApp.platform, customer.id, PNG, 'image/png', 'UTILITY_BILL');
    await api().delete(`/documents/${later.id}`).expect(204);
  });

  it('a document the verification rejected (POOR_QUALITY_DOCUMENT) is replaced, and the next verification passes', async () => {
    const customer = await createIndividual(api(), { fullName: 'Una Blurry003', ...COMPLETE });
    const blurry = await upload(testApp.platform, customer.id, JPEG, 'image/jpeg');
    const rejected = await verify(customer.id);
    expect(rejected).toEqual(expect.objectContaining({ verificationStatus: 'RESOLVE_ERRORS', errors: [expect.objectContaining({ type: 'POOR_QUALITY_DOCUMENT', resourceId: blurry.id })] }));
    expect((await verify(customer.id)).errors).toEqual(rejected.errors);

    const clearer = await api().put(`/documents/${blurry.id}`).field('documentType', 'PASSPORT').field('country', 'US')
      .attach('file', PDF, { filename: 'clear.pdf', contentType: 'application/pdf' }).expect(200);
    expect(clearer.body).toEqual(expect.objectContaining({ id: blurry.id, fileName: 'clear.pdf' }));
    expect(await verify(customer.id)).toEqual(expect.objectContaining({ verificationStatus: 'PENDING_MANUAL_REVIEW', errors: [] }));
    expect((await api().get(`/customers/${customer.id}`).expect(200)).body.kycStatus).toBe('PENDING');
    // The clearer copy is now the evidence of that verification.
    await api().delete(`/documents/${blurry.id}`).expect(409);
  });

  it("a deleted customer's documents still read; changing them is refused", async () => {
    const customer = await createIndividual(api(), { fullName: 'Gone Holder001' });
    const document = await upload(testApp.platform, customer.id);
    await api().delete(`/customers/${customer.id}`).expect(200);
    expect((await api().get(`/documents/${document.id}`).expect(200)).body).toEqual(document);
    const deletion = await api().delete(`/documents/${document.id}`).expect(409);
    expect(deletion.body).toEqual({ status: 409, code: 'CONFLICT', message: 'The customer was deleted', details: { reason: 'CUSTOMER_DELETED' } });
    const replacement = await replace(document.id).expect(400);
    expect(replacement.body).toEqual({ status: 400, code: 'INVALID_INPUT', message: 'The customer was deleted', details: { reason: 'CUSTOMER_DELETED' } });
  });

  it('the audit history of a document shows its upload, replacement and deletion, each with its actor; its files go with it', async () => {
    const customer = await createIndividual(api(), { fullName: 'Audit Docs001' });
    const document = await upload(testApp.platform, customer.id);
    await replace(document.id).expect(200);
    const files = () =>
      pool.query<{ content_type: string }>(`SELECT content_type FROM customer_document_files WHERE document_id LIKE $1 || '%' ORDER BY created_at`, [document.id]);
    // Each revision's file is kept until the document is deleted.
    expect((await files()).rows.map((row) => row.content_type)).toEqual(['application/pdf', 'image/png']);
    await api().delete(`/documents/${document.id}`).expect(204);
    expect((await files()).rows).toEqual([]);
    const history = (await api().get('/audit/events').query({ resourceId: document.id }).expect(200)).body;
    expect(history.data.map((entry: { type: string }) => entry.type)).toEqual(['DocumentUploaded', 'DocumentReplaced', 'DocumentDeleted']);
    const actor = `platform:${testApp.platform.clientId}`;
    for (const entry of history.data) expect(entry.metadata).toEqual(expect.objectContaining({ platformId: testApp.platform.platformId, actor }));
    expect(history.data[1].data).toEqual(expect.objectContaining({ documentId: document.id, customerId: customer.id, documentType: 'DRIVERS_LICENSE', fileName: 'clear.png' }));
    expect(history.data[2].data).toEqual({ documentId: document.id, customerId: customer.id, platformId: testApp.platform.platformId, deletedAt: expect.any(String) });
    await other.api.get('/audit/events').query({ resourceId: document.id }).expect(404);
  });
});
