import { CustomerEvent, customerView, documentView } from '../../src/customers';
import { SealedValue } from '../../src/infra/domain/personal-secret';
import { customerStateFromEvents, customerViewFromEvents } from '../../src/customers/queries/customer.view';
import { CustomerRecord, evolveCustomerRecord } from './customer-record';

const CUSTOMER = 'Customer:0199a000-0000-7000-8000-000000000001';
const ref = { customerId: CUSTOMER, platformId: 'Platform:0199a000-0000-7000-8000-0000000000f1' };
const KEY = `personal-data-key:${CUSTOMER}:0`;
const sealed = (nonce: string): SealedValue => ({ $sealed: 'AES-256-GCM', keyId: KEY, nonce, ciphertext: 'Y2lwaGVydGV4dA' });
const address = { line1: '1 Main St', line2: null, city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' };
const profile = {
  region: 'US', email: 'jane@example.com', phoneNumber: null, address, fullName: 'Jane Doe', birthDate: '1990-01-15', nationality: 'US',
  taxIdType: 'SSN', taxIdentifier: sealed('dGF4'), businessInfo: null, beneficialOwners: [],
};
const owner = (identifier: SealedValue | string) => ({
  id: 'BeneficialOwner:0199a000-0000-7000-8000-0000000000b1',
  createdAt: '2025-10-13T12:00:00.000Z',
  personalInfo: {
    firstName: 'Maria', middleName: null, lastName: 'Lopez', birthDate: null, nationality: 'US', email: null, phoneNumber: null, address: null,
    idType: 'SSN', identifier,
  },
  roles: ['UBO'],
  ownershipPercentage: 60,
  kycStatus: 'UNVERIFIED' as const,
});

const individual: CustomerEvent[] = [
  {
    type: 'CustomerCreated',
    data: { ...ref, customerType: 'INDIVIDUAL', platformCustomerId: 'user-1', umaAddress: '$jane@pay.example', profile, createdAt: '2025-10-13T12:00:00.000Z' },
  },
  { type: 'CustomerKycStatusChanged', data: { ...ref, previousStatus: null, kycStatus: 'PENDING', verificationId: null, changedAt: '2025-10-13T12:00:00.000Z' } },
  {
    type: 'DocumentUploaded',
    data: {
      ...ref, documentId: 'Document:1', documentType: 'PASSPORT', side: null, country: 'US', documentNumber: sealed('ZG9j'), issuingAuthority: null,
      fileName: 'p.pdf', contentType: 'application/pdf', sizeBytes: 10, sha256: 'ab'.repeat(32), uploadedAt: '2025-10-13T12:01:00.000Z',
    },
  },
  {
    type: 'VerificationSubmitted',
    data: { ...ref, verificationId: 'Verification:1', verificationStatus: 'PENDING_MANUAL_REVIEW', errors: [], submittedAt: '2025-10-13T12:02:00.000Z' },
  },
  { type: 'CustomerInternalAccountsOpened', data: { ...ref, accounts: [{ accountId: 'InternalAccount:1', currency: 'USD' }], openedAt: '2025-10-13T12:03:00.000Z' } },
  { type: 'CustomerUpdated', data: { ...ref, changes: { email: 'jd@example.com', taxIdentifier: sealed('bmV3') }, umaAddress: '$jd@pay.example', updatedAt: '2025-10-13T12:04:00.000Z' } },
  { type: 'CustomerPersonalDataErased', data: { ...ref, keyId: KEY, erasedBy: 'alice', reason: 'GDPR', erasedAt: '2025-10-13T12:05:00.000Z' } },
  { type: 'CustomerDeleted', data: { ...ref, platformCustomerId: 'user-1', umaAddress: '$jd@pay.example', deletedAt: '2025-10-13T12:06:00.000Z' } },
];

const business: CustomerEvent[] = [
  {
    type: 'CustomerCreated',
    data: {
      ...ref, customerType: 'BUSINESS', platformCustomerId: 'org-1', umaAddress: '$acme@pay.example', createdAt: '2025-10-13T12:00:00.000Z',
      profile: {
        ...profile, fullName: null, taxIdType: null, taxIdentifier: null,
        businessInfo: { legalName: 'Acme LLC', registrationNumber: '1', taxId: null, incorporationDate: '2016-03-01', entityType: 'LLC' },
        beneficialOwners: [owner(sealed('b3du'))],
      },
    },
  },
  {
    type: 'CustomerKybStatusChanged',
    data: { ...ref, previousStatus: null, kybStatus: 'PENDING', beneficialOwnerKycStatuses: ['UNVERIFIED'], verificationId: null, changedAt: '2025-10-13T12:00:00.000Z' },
  },
  {
    type: 'CustomerKybStatusChanged',
    data: { ...ref, previousStatus: 'PENDING', kybStatus: 'APPROVED', beneficialOwnerKycStatuses: ['APPROVED'], verificationId: 'V', changedAt: '2025-10-13T12:10:00.000Z' },
  },
  // An owner stored in plain text by an older event.
  { type: 'CustomerUpdated', data: { ...ref, changes: { beneficialOwners: [owner('123-45-6789')] }, updatedAt: '2025-10-13T12:11:00.000Z' } },
  { type: 'CustomerPersonalDataErased', data: { ...ref, keyId: KEY, erasedBy: 'alice', reason: 'GDPR', erasedAt: '2025-10-13T12:12:00.000Z' } },
];

function fold(events: CustomerEvent[]): CustomerRecord | null {
  return events.reduce<CustomerRecord | null>(evolveCustomerRecord, null);
}

describe('customer record (the customers read model state)', () => {
  it('shows, after every event, the customer view the write side answers (same fields, same order)', () => {
    for (const stream of [individual, business]) {
      for (let length = 1; length <= stream.length; length += 1) {
        const events = stream.slice(0, length);
        expect({ length, view: JSON.stringify(customerView(fold(events)!)) }).toEqual({ length, view: JSON.stringify(customerViewFromEvents(events)) });
      }
    }
  });

  it('folds owners added and updated by /beneficial-owners as the write side does; an owner stored without an id keeps its shown one', () => {
    const { id: _id, createdAt: _createdAt, ...legacy } = owner('123-45-6789');
    const withLegacy: CustomerEvent[] = [business[0], { type: 'CustomerUpdated', data: { ...ref, changes: { beneficialOwners: [legacy] }, updatedAt: '2025-10-13T12:01:00.000Z' } }];
    const legacyId = (customerViewFromEvents(withLegacy) as { beneficialOwners: Array<{ id: string }> }).beneficialOwners[0].id;
    const added = { ...owner(sealed('bmV3')), id: 'BeneficialOwner:0199a000-0000-7000-8000-0000000000b2', createdAt: '2025-10-13T12:02:00.000Z' };
    const stream: CustomerEvent[] = [
      ...withLegacy,
      { type: 'BeneficialOwnerAdded', data: { ...ref, beneficialOwnerId: added.id, owner: added, addedAt: '2025-10-13T12:02:00.000Z' } },
      {
        type: 'BeneficialOwnerUpdated',
        data: { ...ref, beneficialOwnerId: legacyId, changes: { roles: ['DIRECTOR'], personalInfo: { lastName: 'Lopez-Diaz' } }, kycStatus: 'UNVERIFIED', updatedAt: '2025-10-13T12:03:00.000Z' },
      },
      {
        type: 'CustomerKybStatusChanged',
        data: { ...ref, previousStatus: 'APPROVED', kybStatus: 'PENDING', beneficialOwnerKycStatuses: ['UNVERIFIED', 'UNVERIFIED'], verificationId: null, changedAt: '2025-10-13T12:03:00.000Z' },
      },
    ];
    for (let length = 1; length <= stream.length; length += 1) {
      const events = stream.slice(0, length);
      expect({ length, view: JSON.stringify(customerView(fold(events)!)) }).toEqual({ length, view: JSON.stringify(customerViewFromEvents(events)) });
    }
    expect(fold(stream)!.profile.beneficialOwners.map((shown) => [shown.id, shown.personalInfo.lastName, shown.updatedAt])).toEqual([
      [legacyId, 'Lopez-Diaz', '2025-10-13T12:03:00.000Z'],
      [added.id, 'Lopez', undefined],
    ]);
  });

  it('keeps no tax identifier, verification, opened account or erased key', () => {
    const record = fold(individual.slice(0, 6))!;
    expect(record.profile).not.toHaveProperty('taxIdentifier');
    expect(record).not.toHaveProperty('verifications');
    expect(record).not.toHaveProperty('internalAccountIds');
    expect(record).not.toHaveProperty('erasedPersonalDataKeyIds');
  });

  it('keeps its documents as the write side does, their numbers dropped by an erasure', () => {
    for (const length of [3, 7]) {
      const write = customerStateFromEvents(individual.slice(0, length));
      if (write.status === 'none') throw new Error('not created');
      const read = fold(individual.slice(0, length))!;
      expect(read.documents.map((document) => documentView(CUSTOMER, document))).toEqual(write.documents.map((document) => documentView(CUSTOMER, document)));
    }
    expect(fold(individual.slice(0, 7))!.documents[0].documentNumber).toBeNull();
  });

  it('keeps replaced and deleted documents as the write side does', () => {
    const second = { ...(individual[2].data as object), documentId: 'Document:2', uploadedAt: '2025-10-13T12:01:30.000Z' } as CustomerEvent['data'];
    const stream: CustomerEvent[] = [
      ...individual.slice(0, 3),
      { type: 'DocumentUploaded', data: second } as CustomerEvent,
      {
        type: 'DocumentReplaced',
        data: {
          ...ref, documentId: 'Document:1', documentType: 'NATIONAL_ID', side: 'BACK', country: 'FR', documentNumber: null, issuingAuthority: 'Mairie',
          fileName: 'id.png', contentType: 'image/png', sizeBytes: 20, sha256: 'cd'.repeat(32), replacedAt: '2025-10-13T12:02:00.000Z',
        },
      },
      { type: 'DocumentDeleted', data: { ...ref, documentId: 'Document:2', deletedAt: '2025-10-13T12:03:00.000Z' } },
    ];
    for (const length of [5, 6]) {
      const write = customerStateFromEvents(stream.slice(0, length));
      if (write.status === 'none') throw new Error('not created');
      const read = fold(stream.slice(0, length))!;
      expect(read.documents.map((document) => documentView(CUSTOMER, document))).toEqual(write.documents.map((document) => documentView(CUSTOMER, document)));
      expect(customerView(read).updatedAt).toBe('2025-10-13T12:00:00.000Z');
    }
    expect(fold(stream)!.documents.map((document) => [document.documentId, document.documentType, document.updatedAt])).toEqual([
      ['Document:1', 'NATIONAL_ID', '2025-10-13T12:02:00.000Z'],
    ]);
  });

  it('shows contactVerification as the write side does: statuses only, codes and wrong codes not shown', () => {
    const at = (minute: number) => `2025-10-13T12:${String(minute).padStart(2, '0')}:00.000Z`;
    const stream: CustomerEvent[] = [
      individual[0],
      { type: 'ContactVerificationRequirementSet', data: { ...ref, channels: { email: 'PENDING', phone: 'PENDING' }, reason: 'CUSTOMER_CREATED', setAt: at(0) } },
      { type: 'ContactVerificationCodeSent', data: { ...ref, channel: 'EMAIL', expiresAt: at(6), sentAt: at(1) } },
      { type: 'ContactVerificationCodeRejected', data: { ...ref, channel: 'EMAIL', failedAttempts: 1, lockedUntil: null, rejectedAt: at(2) } },
      { type: 'ContactVerified', data: { ...ref, channel: 'EMAIL', verifiedAt: at(3) } },
      { type: 'ContactVerificationRequirementSet', data: { ...ref, channels: { email: 'PENDING', phone: 'PENDING' }, reason: 'EMAIL_CHANGED', setAt: at(4) } },
    ];
    for (let length = 1; length <= stream.length; length += 1) {
      const events = stream.slice(0, length);
      expect({ length, view: JSON.stringify(customerView(fold(events)!)) }).toEqual({ length, view: JSON.stringify(customerViewFromEvents(events)) });
    }
    expect(customerView(fold(stream.slice(0, 5))!).contactVerification).toEqual({ email: 'VERIFIED', phone: 'PENDING' });
    expect(fold(stream.slice(0, 5))!.updatedAt).toBe(at(3));
  });

  it('events of a customer never created fold to nothing', () => {
    expect(fold(individual.slice(1))).toBeNull();
  });
});
