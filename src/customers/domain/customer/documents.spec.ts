import { deciderSpec } from '../../../../test/support/decider-spec';
import { CustomerCommand, VerificationScenario, customerDecider } from './customer.decider';
import { CustomerEvent, CustomerProfile, DocumentRecord, VerificationError, VerificationStatus } from './customer.events';
import { DocumentRevision } from './documents';

const T0 = '2025-10-13T12:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();
const CUSTOMER = 'Customer:0199a000-0000-7000-8000-000000000001';
const ref = { customerId: CUSTOMER, platformId: 'Platform:p' };
const spec = deciderSpec(customerDecider);

const profile: CustomerProfile = {
  region: 'US', email: null, phoneNumber: null, fullName: 'Una Verified003', birthDate: '1990-01-15', nationality: 'US', taxIdType: 'SSN',
  taxIdentifier: '1', address: { line1: '1 Main St', line2: null, city: null, state: null, postalCode: '62701', country: 'US' },
  businessInfo: null, beneficialOwners: [],
};
const created: CustomerEvent[] = [
  { type: 'CustomerCreated', data: { ...ref, customerType: 'INDIVIDUAL', platformCustomerId: 'pc-1', umaAddress: '$pc1@x.test', profile, createdAt: T0 } },
  { type: 'CustomerKycStatusChanged', data: { ...ref, previousStatus: null, kycStatus: 'UNVERIFIED', verificationId: null, changedAt: T0 } },
];
const passport: DocumentRevision = {
  documentId: 'Document:d1', documentType: 'PASSPORT', side: null, country: 'US', documentNumber: null, issuingAuthority: null,
  fileName: 'blurry.jpg', contentType: 'image/jpeg', sizeBytes: 10, sha256: 'aa',
};
const clearer: DocumentRevision = { ...passport, fileName: 'clear.pdf', contentType: 'application/pdf', sizeBytes: 20, sha256: 'bb', side: 'FRONT' };
const uploaded = (document: DocumentRevision = passport, seconds = 1): CustomerEvent => ({ type: 'DocumentUploaded', data: { ...document, ...ref, uploadedAt: at(seconds) } });
const replaced = (document: DocumentRevision = clearer, seconds = 3): CustomerEvent => ({ type: 'DocumentReplaced', data: { ...document, ...ref, replacedAt: at(seconds) } });
const deleted = (documentId = 'Document:d1', seconds = 3): CustomerEvent => ({ type: 'DocumentDeleted', data: { ...ref, documentId, deletedAt: at(seconds) } });
const verified = (verificationStatus: VerificationStatus, errors: VerificationError[] = [], id = 'Verification:v1', seconds = 2): CustomerEvent => ({
  type: 'VerificationSubmitted', data: { ...ref, verificationId: id, verificationStatus, errors, submittedAt: at(seconds) },
});
const poorQuality: VerificationError = { resourceId: 'Document:d1', type: 'POOR_QUALITY_DOCUMENT', reason: 'too blurry' };
const replace = (document: DocumentRevision = clearer, seconds = 3): CustomerCommand => ({ type: 'ReplaceDocument', document, now: at(seconds) });
const remove = (documentId = 'Document:d1', seconds = 3): CustomerCommand => ({ type: 'DeleteDocument', documentId, now: at(seconds) });
const poorQualityScenario: VerificationScenario = { individual: 'POOR_QUALITY_DOCUMENT', business: 'CHECK_REQUIREMENTS', beneficialOwnerKycStatuses: [] };
const submit = (id: string, seconds: number): CustomerCommand => ({ type: 'SubmitVerification', verificationId: id, scenario: poorQualityScenario, now: at(seconds) });
const documentsOf = (events: CustomerEvent[]): DocumentRecord[] => {
  const state = spec.state(events);
  return state.status === 'none' ? [] : state.documents;
};

describe('customer decider: documents', () => {
  it('replaces a document: new file and metadata, the upload time kept, updatedAt the replacement', () => {
    spec.given([...created, uploaded()]).when(replace()).then([replaced()]);
    expect(documentsOf([...created, uploaded(), replaced()])).toEqual([{ ...clearer, uploadedAt: at(1), updatedAt: at(3), verificationsBefore: 0 }]);
  });

  it('deletes a document: it leaves the state, a second deletion or a replacement is not found', () => {
    spec.given([...created, uploaded()]).when(remove()).then([deleted()]);
    expect(documentsOf([...created, uploaded(), deleted()])).toEqual([]);
    spec.given([...created, uploaded(), deleted()]).when(remove()).thenError('REFERENCE_NOT_FOUND');
    spec.given([...created, uploaded(), deleted()]).when(replace()).thenError('REFERENCE_NOT_FOUND');
    spec.given([...created]).when(remove('Document:other')).thenError('REFERENCE_NOT_FOUND');
    spec.given([]).when(remove()).thenError('REFERENCE_NOT_FOUND');
  });

  it('keeps a document a RESOLVE_ERRORS verification flagged replaceable and deletable', () => {
    const given = [...created, uploaded(), verified('RESOLVE_ERRORS', [poorQuality])];
    spec.given(given).when(replace()).then([replaced()]);
    spec.given(given).when(remove()).then([deleted()]);
  });

  it('refuses to change a document a verification under review or decided was made on: 409 to delete, 400 to replace', () => {
    for (const status of ['PENDING_MANUAL_REVIEW', 'APPROVED', 'REJECTED'] as const) {
      const given = [...created, uploaded(), verified(status)];
      spec.given(given).when(remove()).thenError('CONFLICT', { reason: 'DOCUMENT_SUBMITTED_FOR_VERIFICATION' });
      spec.given(given).when(replace()).thenError('INVALID_INPUT', { reason: 'DOCUMENT_SUBMITTED_FOR_VERIFICATION' });
    }
    // A document uploaded after that verification was not submitted to it.
    const later = { ...passport, documentId: 'Document:d2' };
    spec.given([...created, uploaded(), verified('PENDING_MANUAL_REVIEW'), uploaded(later, 3)]).when(remove('Document:d2', 4)).then([deleted('Document:d2', 4)]);
    // A revision replaced after a RESOLVE_ERRORS verification is submitted by the next one that passes.
    spec
      .given([...created, uploaded(), verified('RESOLVE_ERRORS', [poorQuality]), replaced(), verified('PENDING_MANUAL_REVIEW', [], 'Verification:v2', 4)])
      .when(remove('Document:d1', 5))
      .thenError('CONFLICT', { reason: 'DOCUMENT_SUBMITTED_FOR_VERIFICATION' });
  });

  it("refuses to change a deleted customer's documents", () => {
    const given = [...created, uploaded(), { type: 'CustomerDeleted', data: { ...ref, platformCustomerId: 'pc-1', umaAddress: '$pc1@x.test', deletedAt: at(2) } } as CustomerEvent];
    spec.given(given).when(remove()).thenError('CONFLICT', { reason: 'CUSTOMER_DELETED' });
    spec.given(given).when(replace()).thenError('INVALID_INPUT', { reason: 'CUSTOMER_DELETED' });
  });

  it('a replaced identity document answers the poor-quality complaint: the next verification checks the requirements', () => {
    const flagged = spec.given([...created, uploaded()]).when(submit('Verification:v1', 2)).events;
    expect(flagged).toEqual([verified('RESOLVE_ERRORS', [expect.objectContaining({ type: 'POOR_QUALITY_DOCUMENT', resourceId: 'Document:d1' })])]);
    // Submitting again without a replacement flags the same document again.
    const again = spec.given([...created, uploaded(), ...flagged]).when(submit('Verification:v2', 3)).events;
    expect(again[0]).toEqual(expect.objectContaining({ data: expect.objectContaining({ verificationStatus: 'RESOLVE_ERRORS' }) }));
    const passing = spec.given([...created, uploaded(), ...flagged, replaced()]).when(submit('Verification:v2', 4)).events;
    expect(passing.map((event) => event.type)).toEqual(['VerificationSubmitted', 'CustomerKycStatusChanged']);
    expect(passing[0]).toEqual(verified('PENDING_MANUAL_REVIEW', [], 'Verification:v2', 4));
  });

  it('a replacement made before any complaint, or a new upload, is flagged like any document', () => {
    const replacedFirst = spec.given([...created, uploaded(), replaced(clearer, 2)]).when(submit('Verification:v1', 3)).events;
    expect(replacedFirst[0]).toEqual(expect.objectContaining({ data: expect.objectContaining({ verificationStatus: 'RESOLVE_ERRORS' }) }));
    const second = { ...passport, documentId: 'Document:d2' };
    const flagged = verified('RESOLVE_ERRORS', [poorQuality]);
    const newUpload = spec.given([...created, uploaded(), flagged, replaced(), uploaded(second, 4)]).when(submit('Verification:v2', 5)).events;
    expect(newUpload[0]).toEqual(
      expect.objectContaining({ data: expect.objectContaining({ errors: [expect.objectContaining({ type: 'POOR_QUALITY_DOCUMENT', resourceId: 'Document:d2' })] }) }),
    );
  });

  it('a replaced document counts as its new type for the requirements', () => {
    const utilityBill = { ...clearer, documentType: 'UTILITY_BILL' };
    const checkAll: VerificationScenario = { ...poorQualityScenario, individual: 'CHECK_REQUIREMENTS' };
    const { events } = spec.given([...created, uploaded(), replaced(utilityBill)]).when({ type: 'SubmitVerification', verificationId: 'Verification:v1', scenario: checkAll, now: at(4) });
    expect(events).toEqual([verified('RESOLVE_ERRORS', [expect.objectContaining({ type: 'MISSING_IDENTITY_DOCUMENT' })], 'Verification:v1', 4)]);
  });

  it("records a document for one of the customer's beneficial owners, refuses one for an owner it does not have, and keeps the holder on replacement", () => {
    const owner = { id: 'BeneficialOwner:0199a000-0000-7000-8000-0000000000b1', personalInfo: { ...profile, firstName: 'Ann', middleName: null, lastName: 'Smith', identifier: null, idType: null } };
    const withOwner: CustomerEvent[] = [
      { ...created[0], data: { ...(created[0].data as any), customerType: 'BUSINESS', profile: { ...profile, beneficialOwners: [{ ...owner, roles: ['UBO'], ownershipPercentage: 60, kycStatus: 'UNVERIFIED' }] } } } as CustomerEvent,
    ];
    const ownersPassport = { ...passport, holderId: owner.id, uploadedAt: at(1) };
    spec.given(withOwner).when({ type: 'UploadDocument', document: ownersPassport }).then([{ type: 'DocumentUploaded', data: { ...ownersPassport, ...ref } }]);
    spec
      .given(withOwner)
      .when({ type: 'UploadDocument', document: { ...ownersPassport, holderId: 'BeneficialOwner:0199a000-0000-7000-8000-0000000000b9' } })
      .thenError('REFERENCE_NOT_FOUND');
    const [document] = documentsOf([...withOwner, { type: 'DocumentUploaded', data: { ...ownersPassport, ...ref } }, replaced()]);
    expect(document).toEqual(expect.objectContaining({ holderId: owner.id, fileName: 'clear.pdf' }));
  });
});

