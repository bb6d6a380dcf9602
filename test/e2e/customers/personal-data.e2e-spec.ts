import { Pool } from 'pg';
import { EventStoreService } from '../../../src/infra/event-store/event-store.service';
import { newId, streamNameFor, uuidv7 } from '../../../src/infra/ids';
import { beneficialOwner, uniqueId } from '../../support/customer-fixtures';
import { TestApp, eventually, startTestApp } from '../../support/test-app';
import { runCli } from '../ops/support/cli';

// The erasure and projection CLIs run in this process against the test database; slow under load.
jest.setTimeout(180_000);

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const TAX_IDENTIFIER = '987-65-4329';
const DOCUMENT_NUMBER = 'P-55501234';
const OWNER_IDENTIFIER = '555-44-3333';
const LEGACY_OWNER_IDENTIFIER = '111-22-7777';
const REASON = 'GDPR erasure request #4711';

function erase(databaseUrl: string, argv: string[]) {
  return runCli('customers-erase', argv, databaseUrl);
}

/**
 * Secret personal fields are sealed with the customer's data key before they enter an event: the
 * event log and the read models hold no plaintext, answers show the values as before, and an
 * operator erasure (crypto-shredding) removes them from every answer at once.
 */
describe('personal data at rest', () => {
  let testApp: TestApp;
  let pool: Pool;

  beforeAll(async () => {
    testApp = await startTestApp();
    pool = new Pool({ connectionString: testApp.databaseUrl, max: 2 });
    pool.on('error', () => undefined); // The database is dropped right after pool.end().
  });

  afterAll(async () => {
    await pool?.end();
    await testApp?.close();
  });

  /** Every place the service stores customer data as text, for a plaintext search. */
  async function storedText(customerId: string): Promise<{ events: string; readModel: string; documents: string; vault: string }> {
    const events = await pool.query<{ text: string }>(`SELECT coalesce(string_agg(data::text || metadata::text, ' '), '') AS text FROM events WHERE stream_name = $1`, [
      streamNameFor(customerId),
    ]);
    const readModel = await pool.query<{ text: string }>(`SELECT coalesce(string_agg(state || view, ' '), '') AS text FROM customers WHERE customer_id = $1`, [customerId]);
    const documents = await pool.query<{ text: string }>(`SELECT coalesce(string_agg(view, ' '), '') AS text FROM customer_documents WHERE customer_id = $1`, [customerId]);
    const vault = await pool.query<{ text: string }>(`SELECT coalesce(string_agg(id || encode(ciphertext, 'escape'), ' '), '') AS text FROM sealed_secrets`);
    return { events: events.rows[0].text, readModel: readModel.rows[0].text, documents: documents.rows[0].text, vault: vault.rows[0].text };
  }

  it('stores only sealed values, answers the plaintext, and after an operator erasure answers without it', async () => {
    const api = testApp.platform.api;
    // 001: KYC PENDING, so verifications check the requirements (SPEC.md sandbox rules).
    const individual = (
      await api
        .post('/customers')
        .send({ customerType: 'INDIVIDUAL', platformCustomerId: uniqueId(), fullName: 'Pat Example001', birthDate: '1990-01-15', nationality: 'US', idType: 'SSN', identifier: TAX_IDENTIFIER })
        .expect(201)
    ).body;
    expect(JSON.stringify(individual)).not.toContain(TAX_IDENTIFIER);
    const document = (
      await api
        .post('/documents')
        .field('documentHolder', individual.id)
        .field('documentType', 'PASSPORT')
        .field('country', 'US')
        .field('documentNumber', DOCUMENT_NUMBER)
        .attach('file', PDF, { filename: 'p.pdf', contentType: 'application/pdf' })
        .expect(201)
    ).body;
    expect(document.documentNumber).toBe(DOCUMENT_NUMBER);
    const business = (
      await api
        .post('/customers')
        .send({
          customerType: 'BUSINESS',
          platformCustomerId: uniqueId('biz'),
          businessInfo: { legalName: 'Acme Corp', registrationNumber: 'REG-001' },
          beneficialOwners: [beneficialOwner('Lopez', { identifier: OWNER_IDENTIFIER })],
        })
        .expect(201)
    ).body;
    expect(business.beneficialOwners[0].personalInfo.identifier).toBe('*******3333');

    // At rest: neither the events, nor the read models, nor the vault hold a plaintext value.
    for (const customerId of [individual.id, business.id]) {
      const stored = await storedText(customerId);
      for (const plaintext of [TAX_IDENTIFIER, DOCUMENT_NUMBER, OWNER_IDENTIFIER, '*******3333']) {
        expect(stored.events).not.toContain(plaintext);
        expect(stored.readModel).not.toContain(plaintext);
        expect(stored.documents).not.toContain(plaintext);
        expect(stored.vault).not.toContain(plaintext);
      }
    }
    const created = await pool.query<{ data: any }>(`SELECT data FROM events WHERE stream_name = $1 AND event_type = 'CustomerCreated'`, [streamNameFor(individual.id)]);
    const sealed = created.rows[0].data.profile.taxIdentifier;
    expect(sealed).toEqual({ $sealed: 'AES-256-GCM', keyId: `personal-data-key:${individual.id}:0`, nonce: expect.any(String), ciphertext: expect.any(String) });

    // The answers are as before: documents and owners read back, the identifier counts for a verification.
    expect((await api.get(`/documents/${document.id}`).expect(200)).body.documentNumber).toBe(DOCUMENT_NUMBER);
    expect((await api.get(`/customers/${business.id}`).expect(200)).body.beneficialOwners[0].personalInfo.identifier).toBe('*******3333');
    const listed = (await api.get('/customers').query({ customerType: 'BUSINESS' }).expect(200)).body.data;
    expect(listed.find((customer: { id: string }) => customer.id === business.id).beneficialOwners[0].personalInfo.identifier).toBe('*******3333');
    const before = (await api.post('/verifications').send({ customerId: individual.id }).expect(200)).body;
    expect(before.verificationStatus).toBe('RESOLVE_ERRORS');
    expect(before.errors.map((error: { field?: string }) => error.field)).not.toContain('identifier');
    // Resending the stored identifier is no change (a fresh seal would differ byte for byte).
    const unchanged = (await api.patch(`/customers/${individual.id}`).send({ identifier: TAX_IDENTIFIER }).expect(200)).body;
    expect(unchanged.updatedAt).toBe(individual.updatedAt);

    // The operator erases both customers.
    const platformId = testApp.platform.platformId;
    for (const customerId of [individual.id, business.id]) {
      const run = await erase(testApp.databaseUrl, [platformId, customerId, '--reason', REASON, '--by', 'alice']);
      expect({ code: run.code, result: JSON.parse(run.stdout) }).toEqual({
        code: 0,
        result: { customerId, status: 'ERASED', erasedKeyIds: [`personal-data-key:${customerId}:0`] },
      });
    }
    const keys = await pool.query(`SELECT id FROM sealed_secrets WHERE id LIKE 'personal-data-key:%'`);
    expect(keys.rows.map((row) => row.id)).not.toEqual(expect.arrayContaining([`personal-data-key:${individual.id}:0`]));
    expect(keys.rows.map((row) => row.id)).not.toEqual(expect.arrayContaining([`personal-data-key:${business.id}:0`]));

    // Answers leave the erased fields out (never an error, never the ciphertext).
    const erasedBusiness = await eventually(async () => {
      const body = (await api.get(`/customers/${business.id}`).expect(200)).body;
      return body.beneficialOwners[0].personalInfo.identifier === '[erased]' && body;
    });
    expect(erasedBusiness.beneficialOwners[0].personalInfo).toEqual({
      firstName: 'Ann', lastName: 'Lopez', birthDate: '1980-02-03', nationality: 'US', idType: 'SSN', identifier: '[erased]',
      address: { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' },
    });
    const erasedDocument = (await api.get(`/documents/${document.id}`).expect(200)).body;
    expect(erasedDocument).not.toHaveProperty('documentNumber');
    expect(erasedDocument).toEqual({ ...document, documentNumber: undefined });
    expect(JSON.stringify(erasedDocument)).not.toContain('sealed');
    const after = (await api.post('/verifications').send({ customerId: individual.id }).expect(200)).body;
    expect(after.errors.map((error: { field?: string }) => error.field)).toContain('identifier');

    // The audit history keeps every event in its shape; the sealed fields are marked erased.
    const history = (await api.get('/audit/events').query({ resourceId: individual.id, limit: 100 }).expect(200)).body.data;
    const createdEntry = history.find((entry: { type: string }) => entry.type === 'CustomerCreated');
    expect(createdEntry.data.profile.taxIdentifier).toEqual({ ...sealed, erased: true });
    const erasedEntry = history.find((entry: { type: string }) => entry.type === 'CustomerPersonalDataErased');
    expect(erasedEntry.data).toEqual({
      customerId: individual.id,
      platformId,
      keyId: `personal-data-key:${individual.id}:0`,
      erasedBy: 'alice',
      reason: REASON,
      erasedAt: expect.any(String),
    });
    expect(erasedEntry.metadata.actor).toBe('operator:alice');
    const documentHistory = (await api.get('/audit/events').query({ resourceId: document.id }).expect(200)).body.data;
    expect(documentHistory.map((entry: { type: string }) => entry.type)).toEqual(['DocumentUploaded']);
    expect(documentHistory[0].data.documentNumber).toEqual(expect.objectContaining({ $sealed: 'AES-256-GCM', erased: true }));

    // Idempotent: a second run appends nothing.
    const again = await erase(testApp.databaseUrl, [platformId, individual.id, '--reason', REASON, '--by', 'alice']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).status).toBe('ALREADY_ERASED');
    const erasures = await pool.query(`SELECT count(*)::int AS n FROM events WHERE stream_name = $1 AND event_type = 'CustomerPersonalDataErased'`, [streamNameFor(individual.id)]);
    expect(erasures.rows[0].n).toBe(1);

    // A new identifier after the erasure is sealed under a new key and reads again.
    await api.patch(`/customers/${business.id}`).send({ beneficialOwners: [beneficialOwner('Lopez', { identifier: '222-33-4444' })] }).expect(200);
    expect((await api.get(`/customers/${business.id}`).expect(200)).body.beneficialOwners[0].personalInfo.identifier).toBe('*******4444');
    const updated = await pool.query<{ data: any }>(`SELECT data FROM events WHERE stream_name = $1 AND event_type = 'CustomerUpdated'`, [streamNameFor(business.id)]);
    expect(updated.rows[0].data.changes.beneficialOwners[0].personalInfo.identifier.keyId).toBe(`personal-data-key:${business.id}:1`);

    // Projections replay the log to the same rows.
    const rebuilt = await runCli('projections', ['rebuild', 'customers'], testApp.databaseUrl);
    expect(rebuilt.code).toBe(0);
    const verified = await runCli('projections', ['verify', 'customers'], testApp.databaseUrl);
    expect(verified.stdout).toMatch(/^customers: no difference/);
    expect(verified.code).toBe(0);
    expect((await api.get(`/customers/${business.id}`).expect(200)).body.beneficialOwners[0].personalInfo.identifier).toBe('*******4444');
    expect((await api.get(`/documents/${document.id}`).expect(200)).body).not.toHaveProperty('documentNumber');
  });

  it('reads plain values that older events hold, and after an erasure stops showing them (the events keep them)', async () => {
    const api = testApp.platform.api;
    const customerId = newId('Customer');
    const now = new Date().toISOString();
    // A customer as the service stored it before fields were sealed: plain identifiers, no data key.
    const legacyOwner: any = { ...beneficialOwner('Legacy', { identifier: LEGACY_OWNER_IDENTIFIER }), id: `BeneficialOwner:${uuidv7()}`, createdAt: now, kycStatus: 'UNVERIFIED' };
    const profile = {
      region: 'US', email: null, phoneNumber: null, address: null, fullName: null, birthDate: null, nationality: null, taxIdType: null, taxIdentifier: null,
      businessInfo: { legalName: 'Old Corp', registrationNumber: 'REG-001', taxId: null, incorporationDate: null, entityType: null },
      beneficialOwners: [{ ...legacyOwner, personalInfo: { ...legacyOwner.personalInfo, middleName: null, email: null, phoneNumber: null } }],
    };
    const ref = { customerId, platformId: testApp.platform.platformId };
    const events = testApp.app.get(EventStoreService);
    await events.append(
      streamNameFor(customerId),
      [
        { type: 'CustomerCreated', data: { ...ref, customerType: 'BUSINESS', platformCustomerId: uniqueId('old'), umaAddress: `$old.${uuidv7().slice(-8)}@x.test`, profile, createdAt: now } },
        { type: 'CustomerKybStatusChanged', data: { ...ref, previousStatus: null, kybStatus: 'UNVERIFIED', beneficialOwnerKycStatuses: ['UNVERIFIED'], verificationId: null, changedAt: now } },
      ],
      'no_stream',
      { platformId: testApp.platform.platformId },
    );
    const shown = await eventually(async () => (await api.get(`/customers/${customerId}`)).body?.beneficialOwners?.[0]);
    expect(shown.personalInfo.identifier).toBe('*******7777');

    const run = await erase(testApp.databaseUrl, [testApp.platform.platformId, customerId, '--reason', REASON, '--by', 'alice']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).status).toBe('ERASED');
    await eventually(async () => (await api.get(`/customers/${customerId}`).expect(200)).body.beneficialOwners[0].personalInfo.identifier === '[erased]');
    // Crypto-shredding cannot reach a value that was never sealed: the old event still holds it.
    const raw = await pool.query<{ text: string }>(`SELECT data::text AS text FROM events WHERE stream_name = $1 AND event_type = 'CustomerCreated'`, [streamNameFor(customerId)]);
    expect(raw.rows[0].text).toContain(LEGACY_OWNER_IDENTIFIER);
  });

  it('the erasure CLI refuses bad input (2) and an unknown or foreign customer (1)', async () => {
    const platformId = testApp.platform.platformId;
    const noReason = await erase(testApp.databaseUrl, [platformId, newId('Customer')]);
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toContain('--reason is required');
    const unknown = await erase(testApp.databaseUrl, [platformId, newId('Customer'), '--reason', REASON, '--by', 'alice']);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stderr.slice(unknown.stderr.indexOf('{'))).code).toBe('USER_NOT_FOUND');
    const customer = (await testApp.platform.api.post('/customers').send({ customerType: 'INDIVIDUAL', platformCustomerId: uniqueId(), fullName: 'Kim Other' }).expect(201)).body;
    const other = await testApp.createPlatform();
    const foreign = await erase(testApp.databaseUrl, [other.platformId, customer.id, '--reason', REASON, '--by', 'alice']);
    expect(foreign.code).toBe(1);
  });
});
