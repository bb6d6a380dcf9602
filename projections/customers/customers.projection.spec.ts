import { projectionSpec, ProjectionSpec } from '../../test/support/projection-spec';
import { customersProjection } from './customers.projection';

const PLATFORM = 'Platform:0199a000-0000-7000-8000-0000000000f1';
const OTHER_PLATFORM = 'Platform:0199a000-0000-7000-8000-0000000000f2';
const CUSTOMER = 'Customer:0199a000-0000-7000-8000-000000000001';
const OWNER = 'BeneficialOwner:0199a000-0000-7000-8000-0000000000b1';
const DOCUMENT = 'Document:0199a000-0000-7000-8000-0000000000d1';
const VERIFICATION = 'Verification:0199a000-0000-7000-8000-0000000000c1';
const CREATED_AT = '2025-10-13T12:00:00.000Z';
const KEY = `personal-data-key:${CUSTOMER}:0`;
const sealed = (nonce: string) => ({ $sealed: 'AES-256-GCM', keyId: KEY, nonce, ciphertext: 'Y2lwaGVydGV4dA' });

const address = { line1: '1 Main St', line2: null, city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' };
const individualProfile = {
  region: 'US',
  email: 'jane@example.com',
  phoneNumber: '+14155550123',
  address,
  fullName: 'Jane Doe',
  birthDate: '1990-01-15',
  nationality: 'US',
  taxIdType: 'SSN',
  taxIdentifier: sealed('bm9uY2UtdGF4'),
  businessInfo: null,
  beneficialOwners: [],
  currencies: ['USD', 'USDC'],
};
const owner = {
  id: OWNER,
  createdAt: CREATED_AT,
  personalInfo: {
    firstName: 'Maria', middleName: null, lastName: 'Lopez', birthDate: '1981-09-02', nationality: 'US', email: null, phoneNumber: null,
    address: null, idType: 'SSN', identifier: sealed('bm9uY2Utb3du'),
  },
  roles: ['UBO'],
  ownershipPercentage: 60,
  kycStatus: 'UNVERIFIED',
};
const businessProfile = {
  region: 'US', email: 'finance@acme.example', phoneNumber: null, address, fullName: null, birthDate: null, nationality: null, taxIdType: null,
  taxIdentifier: null, businessInfo: { legalName: 'Acme LLC', registrationNumber: '5543210', taxId: '84-1234567', incorporationDate: '2016-03-01', entityType: 'LLC' },
  beneficialOwners: [owner],
};

const ref = (platformId = PLATFORM) => ({ customerId: CUSTOMER, platformId });
const stream = (platformId = PLATFORM) => `customer-0199a000-0000-7000-8000-000000000001-${platformId}`;
const createdIndividual = (platformId = PLATFORM) => [
  {
    stream: stream(platformId),
    type: 'CustomerCreated',
    data: { ...ref(platformId), customerType: 'INDIVIDUAL', platformCustomerId: 'user-1', umaAddress: '$jane@pay.example', profile: individualProfile, createdAt: CREATED_AT },
  },
  {
    stream: stream(platformId),
    type: 'CustomerKycStatusChanged',
    data: { ...ref(platformId), previousStatus: null, kycStatus: 'PENDING', verificationId: null, changedAt: CREATED_AT },
  },
];
const createdBusiness = [
  {
    stream: stream(),
    type: 'CustomerCreated',
    data: { ...ref(), customerType: 'BUSINESS', platformCustomerId: 'org-1', umaAddress: '$acme@pay.example', profile: businessProfile, createdAt: CREATED_AT },
  },
  {
    stream: stream(),
    type: 'CustomerKybStatusChanged',
    data: { ...ref(), previousStatus: null, kybStatus: 'UNVERIFIED', beneficialOwnerKycStatuses: ['UNVERIFIED'], verificationId: null, changedAt: CREATED_AT },
  },
];
const updated = (changes: object, updatedAt: string, extra: object = {}, platformId = PLATFORM) => ({
  stream: stream(platformId),
  type: 'CustomerUpdated',
  data: { ...ref(platformId), changes, ...extra, updatedAt },
});
const documentUploaded = {
  stream: stream(),
  type: 'DocumentUploaded',
  data: {
    ...ref(),
    documentId: DOCUMENT, documentType: 'PASSPORT', side: null, country: 'US', documentNumber: sealed('bm9uY2UtZG9j'), issuingAuthority: null,
    fileName: 'passport.pdf', contentType: 'application/pdf', sizeBytes: 1024, sha256: 'ab'.repeat(32), uploadedAt: '2025-10-13T12:05:00.000Z',
  },
};
const verificationSubmitted = {
  stream: stream(),
  type: 'VerificationSubmitted',
  data: { ...ref(), verificationId: VERIFICATION, verificationStatus: 'PENDING_MANUAL_REVIEW', errors: [], submittedAt: '2025-10-13T12:06:00.000Z' },
};

const COLUMNS = `platform_id, customer_id, platform_customer_id, customer_type, kyc_status, kyb_status, region, email, uma_address, currencies,
  is_deleted, view::json AS view, created_at, updated_at`;

describe('customers projection', () => {
  let spec: ProjectionSpec;
  beforeEach(async () => {
    spec = await projectionSpec(customersProjection);
  });
  afterEach(async () => {
    await spec.close();
  });

  it('a created individual is one row: list columns, its KYC status and its GET view (identifier left out)', async () => {
    await spec.given(createdIndividual());
    expect(await spec.rows(`SELECT ${COLUMNS} FROM customers`)).toEqual([
      {
        platform_id: PLATFORM,
        customer_id: CUSTOMER,
        platform_customer_id: 'user-1',
        customer_type: 'INDIVIDUAL',
        kyc_status: 'PENDING',
        kyb_status: null,
        region: 'US',
        email: 'jane@example.com',
        uma_address: '$jane@pay.example',
        currencies: ['USD', 'USDC'],
        is_deleted: false,
        view: {
          id: CUSTOMER,
          platformCustomerId: 'user-1',
          umaAddress: '$jane@pay.example',
          region: 'US',
          currencies: ['USD', 'USDC'],
          email: 'jane@example.com',
          phoneNumber: '+14155550123',
          address,
          isDeleted: false,
          createdAt: CREATED_AT,
          updatedAt: CREATED_AT,
          customerType: 'INDIVIDUAL',
          fullName: 'Jane Doe',
          birthDate: '1990-01-15',
          nationality: 'US',
          idType: 'SSN',
          kycStatus: 'PENDING',
        },
        created_at: new Date(CREATED_AT),
        updated_at: new Date(CREATED_AT),
      },
    ]);
    // The read model's own record: the write-only tax identifier is not kept, even sealed.
    const { taxIdentifier: _writeOnly, ...shownProfile } = individualProfile;
    expect(await spec.rows('SELECT state::json AS state FROM customers')).toEqual([
      {
        state: {
          status: 'active',
          customerId: CUSTOMER,
          platformId: PLATFORM,
          customerType: 'INDIVIDUAL',
          platformCustomerId: 'user-1',
          umaAddress: '$jane@pay.example',
          profile: shownProfile,
          kycStatus: 'PENDING',
          kybStatus: null,
          documents: [],
          createdAt: CREATED_AT,
          updatedAt: CREATED_AT,
        },
      },
    ]);
  });

  it("contact verification: the view shows each required channel's status; codes sent and wrong codes change no row", async () => {
    const at = (minute: number) => `2025-10-13T12:${String(minute).padStart(2, '0')}:00.000Z`;
    const event = (type: string, data: object) => ({ stream: stream(), type, data: { ...ref(), ...data } });
    await spec.given([
      ...createdIndividual(),
      event('ContactVerificationRequirementSet', { channels: { email: 'PENDING', phone: 'PENDING' }, reason: 'CUSTOMER_CREATED', setAt: CREATED_AT }),
      event('ContactVerificationCodeSent', { channel: 'PHONE', expiresAt: at(6), sentAt: at(1) }),
      event('ContactVerificationCodeRejected', { channel: 'PHONE', failedAttempts: 1, lockedUntil: null, rejectedAt: at(2) }),
      event('ContactVerified', { channel: 'PHONE', verifiedAt: at(3) }),
    ]);
    expect(await spec.rows(`SELECT view::json -> 'contactVerification' AS contact, updated_at FROM customers`)).toEqual([
      { contact: { email: 'PENDING', phone: 'VERIFIED' }, updated_at: new Date(at(3)) },
    ]);
  });

  it('a tax identifier given in an update is not kept either', async () => {
    await spec.given([...createdIndividual(), updated({ taxIdentifier: sealed('bm9uY2UtbmV3'), taxIdType: 'ITIN' }, '2025-10-13T12:10:00.000Z')]);
    const [row] = await spec.rows(`SELECT state::json -> 'profile' AS profile, view::json ->> 'idType' AS id_type FROM customers`);
    expect(row.id_type).toBe('ITIN');
    expect(row.profile).not.toHaveProperty('taxIdentifier');
  });

  it('an update changes the filter columns and the view; a new UMA address replaces the old; created_at stays', async () => {
    await spec.given([
      ...createdIndividual(),
      updated({ email: 'jane.doe@example.com', region: 'MX', currencies: ['MXN'] }, '2025-10-13T12:10:00.000Z', { umaAddress: '$jane.doe@pay.example' }),
    ]);
    expect(await spec.rows(`SELECT ${COLUMNS} FROM customers`)).toEqual([
      {
        platform_id: PLATFORM,
        customer_id: CUSTOMER,
        platform_customer_id: 'user-1',
        customer_type: 'INDIVIDUAL',
        kyc_status: 'PENDING',
        kyb_status: null,
        region: 'MX',
        email: 'jane.doe@example.com',
        uma_address: '$jane.doe@pay.example',
        currencies: ['MXN'],
        is_deleted: false,
        view: expect.objectContaining({
          email: 'jane.doe@example.com', region: 'MX', currencies: ['MXN'], umaAddress: '$jane.doe@pay.example', fullName: 'Jane Doe',
          createdAt: CREATED_AT, updatedAt: '2025-10-13T12:10:00.000Z',
        }),
        created_at: new Date(CREATED_AT),
        updated_at: new Date('2025-10-13T12:10:00.000Z'),
      },
    ]);
  });

  it('a business: KYB status in its column, owners resolve with it, identifiers stay sealed in the view', async () => {
    await spec.given([
      ...createdBusiness,
      {
        stream: stream(),
        type: 'CustomerKybStatusChanged',
        data: { ...ref(), previousStatus: 'UNVERIFIED', kybStatus: 'APPROVED', beneficialOwnerKycStatuses: ['APPROVED'], verificationId: VERIFICATION, changedAt: '2025-10-13T12:20:00.000Z' },
      },
    ]);
    expect(await spec.rows('SELECT customer_type, kyc_status, kyb_status, currencies, view::json AS view, updated_at FROM customers')).toEqual([
      {
        customer_type: 'BUSINESS',
        kyc_status: null,
        kyb_status: 'APPROVED',
        currencies: null,
        view: expect.objectContaining({
          customerType: 'BUSINESS',
          kybStatus: 'APPROVED',
          businessInfo: { legalName: 'Acme LLC', registrationNumber: '5543210', taxId: '84-1234567', incorporatedOn: '2016-03-01', entityType: 'LLC' },
          beneficialOwners: [
            {
              id: OWNER,
              customerId: CUSTOMER,
              roles: ['UBO'],
              ownershipPercentage: 60,
              personalInfo: { ...owner.personalInfo, identifier: sealed('bm9uY2Utb3du') },
              kycStatus: 'APPROVED',
              createdAt: CREATED_AT,
              updatedAt: '2025-10-13T12:20:00.000Z',
            },
          ],
          updatedAt: '2025-10-13T12:20:00.000Z',
        }),
        updated_at: new Date('2025-10-13T12:20:00.000Z'),
      },
    ]);
  });

  it('every owner id a business shows maps to it (customer_beneficial_owners), those added by /beneficial-owners too', async () => {
    const added = { ...owner, id: 'BeneficialOwner:0199a000-0000-7000-8000-0000000000b2', createdAt: '2025-10-13T12:30:00.000Z' };
    await spec.given([
      ...createdBusiness,
      { stream: stream(), type: 'BeneficialOwnerAdded', data: { ...ref(), beneficialOwnerId: added.id, owner: added, addedAt: '2025-10-13T12:30:00.000Z' } },
      {
        stream: stream(),
        type: 'BeneficialOwnerUpdated',
        data: { ...ref(), beneficialOwnerId: added.id, changes: { ownershipPercentage: 30 }, updatedAt: '2025-10-13T12:31:00.000Z' },
      },
    ]);
    expect(await spec.rows('SELECT platform_id, beneficial_owner_id, customer_id FROM customer_beneficial_owners ORDER BY beneficial_owner_id')).toEqual([
      { platform_id: PLATFORM, beneficial_owner_id: OWNER, customer_id: CUSTOMER },
      { platform_id: PLATFORM, beneficial_owner_id: added.id, customer_id: CUSTOMER },
    ]);
    const [row] = await spec.rows(`SELECT view::json -> 'beneficialOwners' -> 1 AS owner, updated_at FROM customers`);
    expect(row).toEqual({
      owner: expect.objectContaining({ id: added.id, ownershipPercentage: 30, createdAt: '2025-10-13T12:30:00.000Z', updatedAt: '2025-10-13T12:31:00.000Z' }),
      updated_at: new Date('2025-10-13T12:31:00.000Z'),
    });
  });

  it('a document and a verification get rows of their own; neither, nor opened accounts, move the customer updated_at', async () => {
    await spec.given([
      ...createdIndividual(),
      documentUploaded,
      verificationSubmitted,
      {
        stream: stream(),
        type: 'CustomerInternalAccountsOpened',
        data: { ...ref(), accounts: [{ accountId: 'InternalAccount:0199a000-0000-7000-8000-0000000000a1', currency: 'USD' }], openedAt: '2025-10-13T12:07:00.000Z' },
      },
    ]);
    expect(await spec.rows('SELECT platform_id, document_id, customer_id, view::json AS view, created_at FROM customer_documents')).toEqual([
      {
        platform_id: PLATFORM,
        document_id: DOCUMENT,
        customer_id: CUSTOMER,
        view: {
          id: DOCUMENT, documentHolder: CUSTOMER, documentType: 'PASSPORT', side: null, country: 'US', documentNumber: sealed('bm9uY2UtZG9j'),
          issuingAuthority: null, fileName: 'passport.pdf', contentType: 'application/pdf', sizeBytes: 1024,
          createdAt: '2025-10-13T12:05:00.000Z', updatedAt: '2025-10-13T12:05:00.000Z',
        },
        created_at: new Date('2025-10-13T12:05:00.000Z'),
      },
    ]);
    expect(await spec.rows('SELECT platform_id, verification_id, customer_id, verification_status, view::json AS view, created_at FROM customer_verifications')).toEqual([
      {
        platform_id: PLATFORM,
        verification_id: VERIFICATION,
        customer_id: CUSTOMER,
        verification_status: 'PENDING_MANUAL_REVIEW',
        view: {
          id: VERIFICATION, customerId: CUSTOMER, verificationStatus: 'PENDING_MANUAL_REVIEW', errors: [],
          createdAt: '2025-10-13T12:06:00.000Z', updatedAt: '2025-10-13T12:06:00.000Z',
        },
        created_at: new Date('2025-10-13T12:06:00.000Z'),
      },
    ]);
    // The record keeps the document (its view is rewritten at an erasure) but not the file's digest,
    // the verification, nor the opened accounts: the write side's business.
    const { customerId: _customerId, platformId: _platformId, sha256: _sha256, ...document } = documentUploaded.data;
    expect(await spec.rows('SELECT state::json AS state, view::json ->> \'updatedAt\' AS view_updated_at, updated_at FROM customers')).toEqual([
      { state: expect.objectContaining({ documents: [document], updatedAt: CREATED_AT }), view_updated_at: CREATED_AT, updated_at: new Date(CREATED_AT) },
    ]);
    const [{ state }] = await spec.rows('SELECT state::json AS state FROM customers');
    expect(state).not.toHaveProperty('verifications');
    expect(state).not.toHaveProperty('internalAccountIds');
  });

  it('an erasure clears the sealed values from the record and the views, the uploaded document view included', async () => {
    await spec.given([
      ...createdIndividual(),
      documentUploaded,
      { stream: stream(), type: 'CustomerPersonalDataErased', data: { ...ref(), keyId: KEY, erasedBy: 'alice', reason: 'GDPR request 42', erasedAt: '2025-10-14T12:00:00.000Z' } },
    ]);
    expect(await spec.rows('SELECT view::json ->> \'documentNumber\' AS number, created_at FROM customer_documents')).toEqual([
      { number: null, created_at: new Date('2025-10-13T12:05:00.000Z') },
    ]);
    expect(
      await spec.rows(`SELECT state::json -> 'documents' -> 0 -> 'documentNumber' AS number, view::json ->> 'fullName' AS name, updated_at FROM customers`),
    ).toEqual([{ number: null, name: 'Jane Doe', updated_at: new Date('2025-10-14T12:00:00.000Z') }]);
  });

  it("an erasure shows a business owner's identifier as erased", async () => {
    await spec.given([
      ...createdBusiness,
      { stream: stream(), type: 'CustomerPersonalDataErased', data: { ...ref(), keyId: KEY, erasedBy: 'alice', reason: 'GDPR request 42', erasedAt: '2025-10-14T12:00:00.000Z' } },
    ]);
    expect(
      await spec.rows(`SELECT view::json -> 'beneficialOwners' -> 0 -> 'personalInfo' ->> 'identifier' AS identifier,
        state::json -> 'profile' -> 'beneficialOwners' -> 0 AS owner FROM customers`),
    ).toEqual([
      { identifier: '[erased]', owner: expect.objectContaining({ identifierErased: true, personalInfo: expect.objectContaining({ identifier: null }) }) },
    ]);
  });

  it('a deleted customer keeps its row, marked deleted', async () => {
    await spec.given([
      ...createdIndividual(),
      {
        stream: stream(),
        type: 'CustomerDeleted',
        data: { ...ref(), platformCustomerId: 'user-1', umaAddress: '$jane@pay.example', deletedAt: '2025-10-13T13:00:00.000Z' },
      },
    ]);
    expect(await spec.rows('SELECT is_deleted, kyc_status, view::json AS view, created_at, updated_at FROM customers')).toEqual([
      {
        is_deleted: true,
        kyc_status: 'PENDING',
        view: expect.objectContaining({ isDeleted: true, kycStatus: 'PENDING', updatedAt: '2025-10-13T13:00:00.000Z' }),
        created_at: new Date(CREATED_AT),
        updated_at: new Date('2025-10-13T13:00:00.000Z'),
      },
    ]);
  });

  it('events of a customer it never saw created write no row; the same customer id on two platforms stays apart', async () => {
    await spec.given([createdIndividual()[1], documentUploaded, verificationSubmitted, updated({ email: 'ghost@example.com' }, '2025-10-13T12:01:00.000Z')]);
    expect(await spec.rows('SELECT customer_id FROM customers UNION ALL SELECT document_id FROM customer_documents UNION ALL SELECT verification_id FROM customer_verifications')).toEqual([]);

    await spec.given([...createdIndividual(), ...createdIndividual(OTHER_PLATFORM), updated({ email: 'other@example.com' }, '2025-10-13T12:10:00.000Z', {}, OTHER_PLATFORM)]);
    expect(await spec.rows('SELECT platform_id, customer_id, email, updated_at FROM customers ORDER BY platform_id')).toEqual([
      { platform_id: PLATFORM, customer_id: CUSTOMER, email: 'jane@example.com', updated_at: new Date(CREATED_AT) },
      { platform_id: OTHER_PLATFORM, customer_id: CUSTOMER, email: 'other@example.com', updated_at: new Date('2025-10-13T12:10:00.000Z') },
    ]);
  });

  it('a customer lookup planned once on the empty table (a prepared statement) still uses the primary key', async () => {
    // The plan a connection keeps while the table grows: one that scans the platform's customers costs O(customers) per event.
    await spec.rows(`PREPARE customer_lookup(text, text) AS SELECT state FROM customers WHERE platform_id = $1 AND customer_id = $2`);
    await spec.rows(`SET plan_cache_mode = force_generic_plan`);
    const [plan] = await spec.rows<{ 'QUERY PLAN': Array<{ Plan: { 'Node Type': string; 'Index Name'?: string; 'Index Cond'?: string } }> }>(
      `EXPLAIN (FORMAT JSON) EXECUTE customer_lookup('${PLATFORM}', '${CUSTOMER}')`,
    );
    expect(plan['QUERY PLAN'][0].Plan).toMatchObject({ 'Node Type': 'Index Scan', 'Index Name': 'customers_pkey', 'Index Cond': '((platform_id = $1) AND (customer_id = $2))' });
    expect(await spec.rows(`SELECT count(*)::int AS keys FROM pg_index WHERE indrelid = 'customers'::regclass AND indisprimary`)).toEqual([{ keys: 1 }]);
  });
});
