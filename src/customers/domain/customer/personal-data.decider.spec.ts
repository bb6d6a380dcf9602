import { deciderSpec } from '../../../../test/support/decider-spec';
import { SealedValue, personalDataKeyId } from '../../../infra/crypto/personal-data';
import { CustomerCommand, customerDecider } from './customer.decider';
import { CustomerEvent, CustomerProfile, DocumentRecord } from './customer.events';
import { currentPersonalDataKeyId } from './personal-data-fields';

const NOW = '2025-10-13T12:00:00.000Z';
const LATER = '2025-10-14T12:00:00.000Z';
const CUSTOMER = 'Customer:0199a000-0000-7000-8000-000000000001';
const ref = { customerId: CUSTOMER, platformId: 'Platform:p' };
const sealed = (keyId: string): SealedValue => ({ $sealed: 'AES-256-GCM', keyId, nonce: 'bm9uY2Vub25jZTEy', ciphertext: 'Y2lwaGVydGV4dA' });
const KEY_0 = personalDataKeyId(CUSTOMER, 0);
const KEY_1 = personalDataKeyId(CUSTOMER, 1);

const profile: CustomerProfile = {
  region: 'US', email: null, phoneNumber: null, address: null, fullName: 'Jane Doe', birthDate: '1990-01-15', nationality: 'US',
  taxIdType: 'SSN', taxIdentifier: sealed(KEY_0), businessInfo: null, beneficialOwners: [],
};
const document: DocumentRecord = {
  documentId: 'Document:d1', documentType: 'PASSPORT', side: null, country: 'US', documentNumber: sealed(KEY_0), issuingAuthority: null,
  fileName: 'p.pdf', contentType: 'application/pdf', sizeBytes: 10, sha256: 'x', uploadedAt: NOW,
};
const history: CustomerEvent[] = [
  { type: 'CustomerCreated', data: { ...ref, customerType: 'INDIVIDUAL', platformCustomerId: 'pc-1', umaAddress: '$pc1@x.test', profile, createdAt: NOW } },
  { type: 'DocumentUploaded', data: { ...document, ...ref } },
];
const erasedEvent = (keyId: string): CustomerEvent => ({
  type: 'CustomerPersonalDataErased',
  data: { ...ref, keyId, erasedBy: 'alice', reason: 'GDPR request 42', erasedAt: LATER },
});
const erase = (currentKeyExists: boolean): CustomerCommand => ({ type: 'ErasePersonalData', currentKeyExists, erasedBy: 'alice', reason: 'GDPR request 42', now: LATER });
const spec = deciderSpec(customerDecider);

describe('customer decider: personal data erasure', () => {
  it('given a customer, erasing records who, why, when and the current key', () => {
    spec.given(history).when(erase(true)).then([erasedEvent(KEY_0)]);
  });

  it('given no customer, erasing is refused as not found', () => {
    expect(spec.given([]).when(erase(true)).error).toEqual({ code: 'USER_NOT_FOUND', message: 'Customer not found' });
  });

  it('given an erased customer and nothing sealed since, erasing again appends nothing', () => {
    spec.given([...history, erasedEvent(KEY_0)]).when(erase(false)).then([]);
  });

  it('given an erased customer with values sealed under a new key since, erasing erases that key', () => {
    spec.given([...history, erasedEvent(KEY_0)]).when(erase(true)).then([erasedEvent(KEY_1)]);
  });

  it('given a customer created before sealing (no key), the first erasure is still recorded', () => {
    const legacy: CustomerEvent[] = [{ ...history[0], data: { ...(history[0].data as object), profile: { ...profile, taxIdentifier: '123-45-6789' } } } as CustomerEvent];
    spec.given(legacy).when(erase(false)).then([erasedEvent(KEY_0)]);
  });

  it('the erasure clears every secret field from the state, sealed or plain, and moves to the next key', () => {
    const legacyOwner = { personalInfo: { firstName: 'A', middleName: null, lastName: 'B', birthDate: null, nationality: null, email: null, phoneNumber: null, address: null, idType: 'SSN', identifier: '999-00-1111' }, roles: ['UBO'], ownershipPercentage: 50, kycStatus: 'UNVERIFIED' as const };
    const state = spec.state([
      ...history,
      { type: 'CustomerUpdated', data: { ...ref, changes: { beneficialOwners: [legacyOwner] }, updatedAt: NOW } },
      erasedEvent(KEY_0),
    ]);
    if (state.status !== 'active') throw new Error('expected an active customer');
    expect(state.profile.taxIdentifier).toBeNull();
    expect(state.profile.beneficialOwners[0].personalInfo.identifier).toBeNull();
    expect(state.profile.beneficialOwners[0].identifierErased).toBe(true);
    expect(state.profile.fullName).toBe('Jane Doe');
    expect(state.documents[0].documentNumber).toBeNull();
    expect(state.erasedPersonalDataKeyIds).toEqual([KEY_0]);
    expect(state.updatedAt).toBe(LATER);
    expect(currentPersonalDataKeyId(state)).toBe(KEY_1);
  });

  it('an erased identifier counts as missing for a verification', () => {
    const { events } = spec.given([...history, erasedEvent(KEY_0)]).when(
      { type: 'SubmitVerification', verificationId: 'Verification:v', scenario: { individual: 'CHECK_REQUIREMENTS', business: 'CHECK_REQUIREMENTS', beneficialOwnerKycStatuses: [] }, now: LATER },
    );
    expect(events[0].type).toBe('VerificationSubmitted');
    expect((events[0].data as { errors: Array<{ field?: string }> }).errors.map((error) => error.field)).toContain('identifier');
  });
});
