import { projectionSpec, ProjectionSpec } from '../../test/support/projection-spec';
import { customersProjection } from './customers.projection';

const PLATFORM = 'Platform:0199a000-0000-7000-8000-0000000000f1';
const CUSTOMER = 'Customer:0199a000-0000-7000-8000-000000000001';
const DOCUMENT = 'Document:0199a000-0000-7000-8000-0000000000d1';
const CREATED_AT = '2025-10-13T12:00:00.000Z';
const KEY = `personal-data-key:${CUSTOMER}:0`;
const sealed = (nonce: string) => ({ $sealed: 'AES-256-GCM', keyId: KEY, nonce, ciphertext: 'Y2lwaGVydGV4dA' });
const ref = { customerId: CUSTOMER, platformId: PLATFORM };
const stream = `customer-0199a000-0000-7000-8000-000000000001-${PLATFORM}`;
const profile = {
  region: 'US', email: null, phoneNumber: null, address: null, fullName: 'Jane Doe', birthDate: null, nationality: null, taxIdType: null,
  taxIdentifier: null, businessInfo: null, beneficialOwners: [],
};
const created = [
  { stream, type: 'CustomerCreated', data: { ...ref, customerType: 'INDIVIDUAL', platformCustomerId: 'user-1', umaAddress: '$jane@pay.example', profile, createdAt: CREATED_AT } },
  { stream, type: 'CustomerKycStatusChanged', data: { ...ref, previousStatus: null, kycStatus: 'PENDING', verificationId: null, changedAt: CREATED_AT } },
];
const uploaded = {
  stream,
  type: 'DocumentUploaded',
  data: {
    ...ref, documentId: DOCUMENT, documentType: 'PASSPORT', side: null, country: 'US', documentNumber: sealed('bm9uY2UtZG9j'), issuingAuthority: null,
    fileName: 'passport.pdf', contentType: 'application/pdf', sizeBytes: 1024, sha256: 'ab'.repeat(32), uploadedAt: '2025-10-13T12:05:00.000Z',
  },
};
const replaced = {
  stream,
  type: 'DocumentReplaced',
  data: {
    ...ref, documentId: DOCUMENT, documentType: 'DRIVERS_LICENSE', side: 'FRONT', country: 'CA', documentNumber: sealed('bm9uY2UtbmV3'), issuingAuthority: 'DMV',
    fileName: 'licence.png', contentType: 'image/png', sizeBytes: 2048, sha256: 'cd'.repeat(32), replacedAt: '2025-10-13T12:10:00.000Z',
  },
};

/** The customers projection's `customer_documents` rows as documents are replaced and deleted (GET /documents reads them). */
describe('customers projection: documents replaced and deleted', () => {
  let spec: ProjectionSpec;
  beforeEach(async () => {
    spec = await projectionSpec(customersProjection);
  });
  afterEach(async () => {
    await spec.close();
  });

  it('an upload names its holder; a replacement rewrites the view (updatedAt moves), the customer as shown stays', async () => {
    await spec.given([...created, uploaded, replaced]);
    expect(await spec.rows('SELECT document_id, customer_id, document_holder, view::json AS view, created_at, deleted_at FROM customer_documents')).toEqual([
      {
        document_id: DOCUMENT,
        customer_id: CUSTOMER,
        document_holder: CUSTOMER,
        view: {
          id: DOCUMENT, documentHolder: CUSTOMER, documentType: 'DRIVERS_LICENSE', side: 'FRONT', country: 'CA', documentNumber: sealed('bm9uY2UtbmV3'),
          issuingAuthority: 'DMV', fileName: 'licence.png', contentType: 'image/png', sizeBytes: 2048,
          createdAt: '2025-10-13T12:05:00.000Z', updatedAt: '2025-10-13T12:10:00.000Z',
        },
        created_at: new Date('2025-10-13T12:05:00.000Z'),
        deleted_at: null,
      },
    ]);
    expect(await spec.rows('SELECT updated_at FROM customers')).toEqual([{ updated_at: new Date(CREATED_AT) }]);
  });

  it('a deleted document keeps its row (the audit history finds its customer through it), marked deleted, without its number', async () => {
    await spec.given([...created, uploaded, replaced, { stream, type: 'DocumentDeleted', data: { ...ref, documentId: DOCUMENT, deletedAt: '2025-10-13T12:20:00.000Z' } }]);
    expect(await spec.rows(`SELECT customer_id, view::json ->> 'documentNumber' AS number, view::json ->> 'fileName' AS file_name, deleted_at FROM customer_documents`)).toEqual([
      { customer_id: CUSTOMER, number: null, file_name: 'licence.png', deleted_at: new Date('2025-10-13T12:20:00.000Z') },
    ]);
    expect(await spec.rows(`SELECT state::json -> 'documents' AS documents, updated_at FROM customers`)).toEqual([{ documents: [], updated_at: new Date(CREATED_AT) }]);
  });
});
