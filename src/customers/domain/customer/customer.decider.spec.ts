import { deciderSpec } from '../../../../test/support/decider-spec';
import { CustomerCommand, VerificationScenario, customerDecider } from './customer.decider';
import { BeneficialOwner, CustomerEvent, CustomerProfile, DocumentRecord } from './customer.events';

const NOW = '2025-10-13T12:00:00.000Z';
const CUSTOMER = 'Customer:0199a000-0000-7000-8000-000000000001';
const ref = { customerId: CUSTOMER, platformId: 'Platform:p' };

const emptyProfile: CustomerProfile = {
  region: 'US', email: null, phoneNumber: null, address: null, fullName: null, birthDate: null, nationality: null,
  taxIdType: null, taxIdentifier: null, businessInfo: null, beneficialOwners: [],
};
const address = { line1: '1 Main St', line2: null, city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' };
const completeIndividual: CustomerProfile = {
  ...emptyProfile, fullName: 'Jane Doe001', birthDate: '1990-01-15', nationality: 'US', taxIdType: 'SSN', taxIdentifier: '123-45-6789', address,
};
const passport: DocumentRecord = {
  documentId: 'Document:d1', documentType: 'PASSPORT', side: null, country: 'US', documentNumber: null, issuingAuthority: null,
  fileName: 'p.pdf', contentType: 'application/pdf', sizeBytes: 10, sha256: 'x', uploadedAt: NOW,
};
const checkAll: VerificationScenario = { individual: 'CHECK_REQUIREMENTS', business: 'CHECK_REQUIREMENTS', beneficialOwnerKycStatuses: [] };

function created(profile: CustomerProfile, customerType: 'INDIVIDUAL' | 'BUSINESS', status: string): CustomerEvent[] {
  const base: CustomerEvent = {
    type: 'CustomerCreated',
    data: { ...ref, customerType, platformCustomerId: 'pc-1', umaAddress: '$pc1@x.test', profile, createdAt: NOW },
  };
  return customerType === 'INDIVIDUAL'
    ? [base, { type: 'CustomerKycStatusChanged', data: { ...ref, previousStatus: null, kycStatus: status as 'PENDING', verificationId: null, changedAt: NOW } }]
    : [base, { type: 'CustomerKybStatusChanged', data: { ...ref, previousStatus: null, kybStatus: 'UNVERIFIED', beneficialOwnerKycStatuses: profile.beneficialOwners.map(() => 'UNVERIFIED' as const), verificationId: null, changedAt: NOW } }];
}
const spec = deciderSpec(customerDecider);
const submit = (scenario: VerificationScenario = checkAll): CustomerCommand => ({ type: 'SubmitVerification', verificationId: 'Verification:v', scenario, now: NOW });

describe('customer decider', () => {
  it('creates an individual with its initial KYC status as a status-change event', () => {
    spec.given([]).when({
      type: 'CreateCustomer', ...ref, customerType: 'INDIVIDUAL', platformCustomerId: 'pc-1', umaAddress: '$pc1@x.test',
      profile: completeIndividual, initialKycStatus: 'PENDING', now: NOW,
    }).then(created(completeIndividual, 'INDIVIDUAL', 'PENDING'));
    const state = spec.state(created(completeIndividual, 'INDIVIDUAL', 'PENDING'));
    expect(state.status === 'active' && state.kycStatus).toBe('PENDING');
  });

  it('creates a business UNVERIFIED', () => {
    const { events } = spec.given([]).when({
      type: 'CreateCustomer', ...ref, customerType: 'BUSINESS', platformCustomerId: 'pc-1', umaAddress: '$pc1@x.test',
      profile: emptyProfile, initialKycStatus: 'APPROVED', now: NOW,
    });
    expect(events[1]).toEqual(expect.objectContaining({ type: 'CustomerKybStatusChanged', data: expect.objectContaining({ kybStatus: 'UNVERIFIED' }) }));
  });

  it('records only the fields that change, nothing when nothing changes', () => {
    const approved = spec.given(created(completeIndividual, 'INDIVIDUAL', 'APPROVED'));
    approved.when({ type: 'UpdateCustomer', changes: { email: 'a@b.c', nationality: 'US' }, now: NOW }).then([
      { type: 'CustomerUpdated', data: { ...ref, changes: { email: 'a@b.c' }, updatedAt: NOW } },
    ]);
    approved.when({ type: 'UpdateCustomer', changes: { nationality: 'US' }, now: NOW }).then([]);
  });

  it('answers 404 for an unknown customer and 410 once deleted', () => {
    spec.given([]).when({ type: 'UpdateCustomer', changes: {}, now: NOW }).thenError('USER_NOT_FOUND');
    const deleted = spec.given([
      ...created(completeIndividual, 'INDIVIDUAL', 'APPROVED'),
      { type: 'CustomerDeleted', data: { ...ref, platformCustomerId: 'pc-1', umaAddress: '$pc1@x.test', deletedAt: NOW } },
    ]);
    deleted.when({ type: 'UpdateCustomer', changes: {}, now: NOW }).thenError('CUSTOMER_DELETED');
    deleted.when({ type: 'DeleteCustomer', now: NOW }).thenError('CUSTOMER_DELETED');
    deleted.when(submit()).thenError('CUSTOMER_DELETED');
  });

  describe('OpenInternalAccounts (the write-side rule of internal-account provisioning)', () => {
    const eur = { accountId: 'InternalAccount:eur', currency: 'EUR' };
    const usdb = { accountId: 'InternalAccount:usdb', currency: 'USDB' };
    const open = (accounts: Array<{ accountId: string; currency: string }>): CustomerCommand => ({ type: 'OpenInternalAccounts', accounts, now: NOW });
    const deletion: CustomerEvent = { type: 'CustomerDeleted', data: { ...ref, platformCustomerId: 'pc-1', umaAddress: '$pc1@x.test', deletedAt: NOW } };
    const opened = (accounts: Array<{ accountId: string; currency: string }>): CustomerEvent => ({
      type: 'CustomerInternalAccountsOpened',
      data: { ...ref, accounts, openedAt: NOW },
    });

    it('records the accounts of an active customer, without touching updatedAt', () => {
      const active = spec.given(created(completeIndividual, 'INDIVIDUAL', 'APPROVED'));
      active.when(open([eur, usdb])).then([opened([eur, usdb])]);
      const after = spec.state([...created(completeIndividual, 'INDIVIDUAL', 'APPROVED'), opened([eur, usdb])]);
      expect(after.status === 'active' && after.internalAccountIds).toEqual([eur.accountId, usdb.accountId]);
      expect(after.status === 'active' && after.updatedAt).toBe(active.state.status === 'active' && active.state.updatedAt);
    });

    it('refuses a deleted customer (deleted first, provisioning after)', () => {
      spec.given([...created(completeIndividual, 'INDIVIDUAL', 'APPROVED'), deletion]).when(open([eur])).thenError('CUSTOMER_DELETED');
      spec.given([]).when(open([eur])).thenError('USER_NOT_FOUND');
    });

    it('adds nothing for accounts already recorded, also after a deletion; only the new ones otherwise', () => {
      const history = [...created(completeIndividual, 'INDIVIDUAL', 'APPROVED'), opened([eur])];
      spec.given(history).when(open([eur])).then([]);
      spec.given(history).when(open([eur, usdb])).then([opened([usdb])]);
      // Opened first, deleted after: the recorded account is finished, a new one is refused.
      spec.given([...history, deletion]).when(open([eur])).then([]);
      spec.given([...history, deletion]).when(open([eur, usdb])).thenError('CUSTOMER_DELETED');
    });
  });

  it('PENDING individual: one RESOLVE_ERRORS entry per missing item', () => {
    const [event] = spec.given(created({ ...emptyProfile, fullName: 'Jane Doe001' }, 'INDIVIDUAL', 'PENDING')).when(submit()).events;
    expect(event.type).toBe('VerificationSubmitted');
    const data = event.data as { verificationStatus: string; errors: Array<{ type: string; field?: string }> };
    expect(data.verificationStatus).toBe('RESOLVE_ERRORS');
    expect(data.errors.map((error) => error.field ?? error.type)).toEqual([
      'birthDate', 'nationality', 'idType', 'identifier', 'address', 'MISSING_IDENTITY_DOCUMENT',
    ]);
  });

  it('PENDING individual with complete data and an identity document: PENDING_MANUAL_REVIEW', () => {
    spec.given([
      ...created(completeIndividual, 'INDIVIDUAL', 'PENDING'),
      { type: 'DocumentUploaded', data: { ...passport, ...ref } },
    ]).when(submit()).then([
      { type: 'VerificationSubmitted', data: { ...ref, verificationId: 'Verification:v', verificationStatus: 'PENDING_MANUAL_REVIEW', errors: [], submittedAt: NOW } },
    ]);
  });

  it('UNVERIFIED individual (003): RESOLVE_ERRORS for the poor-quality document', () => {
    const [event] = spec.given([
      ...created(completeIndividual, 'INDIVIDUAL', 'UNVERIFIED'),
      { type: 'DocumentUploaded', data: { ...passport, ...ref } },
    ]).when(submit({ ...checkAll, individual: 'POOR_QUALITY_DOCUMENT' })).events;
    const data = event.data as { verificationStatus: string; errors: Array<{ type: string; resourceId: string }> };
    expect(data.verificationStatus).toBe('RESOLVE_ERRORS');
    expect(data.errors).toEqual([expect.objectContaining({ type: 'POOR_QUALITY_DOCUMENT', resourceId: 'Document:d1' })]);
  });

  it('refuses a verification once the individual is approved or rejected', () => {
    spec.given(created(completeIndividual, 'INDIVIDUAL', 'APPROVED')).when(submit()).thenError('INVALID_INPUT');
    spec.given(created(completeIndividual, 'INDIVIDUAL', 'REJECTED')).when(submit()).thenError('INVALID_INPUT');
  });

  it('business: APPROVE and REJECT resolve the business and each beneficial owner at once', () => {
    const owner = (lastName: string): BeneficialOwner => ({
      personalInfo: { firstName: 'A', middleName: null, lastName, birthDate: null, nationality: null, email: null, phoneNumber: null, address: null, idType: null, identifier: null },
      roles: [], ownershipPercentage: 50, kycStatus: 'UNVERIFIED',
    });
    const profile = { ...emptyProfile, businessInfo: { legalName: 'Acme', registrationNumber: 'R-999', taxId: null, incorporationDate: null, entityType: null }, beneficialOwners: [owner('Smith001'), owner('Jones')] };
    const unverified = spec.given(created(profile, 'BUSINESS', 'UNVERIFIED'));
    const { events: approved } = unverified.when(submit({ individual: 'CHECK_REQUIREMENTS', business: 'APPROVE', beneficialOwnerKycStatuses: ['PENDING', 'APPROVED'] }));
    expect(approved.map((event) => event.type)).toEqual(['VerificationSubmitted', 'CustomerKybStatusChanged']);
    const after = spec.state([...created(profile, 'BUSINESS', 'UNVERIFIED'), ...approved]);
    expect(after.status === 'active' && after.kybStatus).toBe('APPROVED');
    expect(after.status === 'active' && after.profile.beneficialOwners.map((o) => o.kycStatus)).toEqual(['PENDING', 'APPROVED']);
    spec.given([...created(profile, 'BUSINESS', 'UNVERIFIED'), ...approved]).when(submit()).thenError('INVALID_INPUT');
    const { events: rejected } = unverified.when(submit({ individual: 'CHECK_REQUIREMENTS', business: 'REJECT', beneficialOwnerKycStatuses: ['REJECTED', 'REJECTED'] }));
    expect((rejected[0].data as { verificationStatus: string }).verificationStatus).toBe('REJECTED');
  });

  it('business CHECK_REQUIREMENTS: RESOLVE_ERRORS lists what is missing; complete goes to PENDING_MANUAL_REVIEW and kyb PENDING', () => {
    const profile = { ...emptyProfile, businessInfo: { legalName: 'Acme', registrationNumber: 'R-001', taxId: null, incorporationDate: null, entityType: null } };
    const [event] = spec.given(created(profile, 'BUSINESS', 'UNVERIFIED')).when(submit()).events;
    const data = event.data as { verificationStatus: string; errors: Array<{ type: string; field?: string }> };
    expect(data.verificationStatus).toBe('RESOLVE_ERRORS');
    expect(data.errors.map((error) => error.field ?? error.type)).toEqual([
      'businessInfo.country', 'businessInfo.incorporatedOn', 'businessInfo.taxId', 'address', 'MISSING_BENEFICIAL_OWNER',
      'MISSING_LEGAL_PRESENCE_DOCUMENT',
    ]);
  });

  it('business CHECK_REQUIREMENTS: an owner stored before owners were complete is named by its (derived) id', () => {
    const legacyOwner: BeneficialOwner = {
      personalInfo: { firstName: null, middleName: null, lastName: 'Old', birthDate: null, nationality: 'US', email: null, phoneNumber: null, address: address, idType: 'SSN', identifier: '1' },
      roles: [], ownershipPercentage: null, kycStatus: 'UNVERIFIED',
    };
    const profile = { ...emptyProfile, businessInfo: { legalName: 'Acme', registrationNumber: 'R-001', taxId: null, incorporationDate: null, entityType: null }, beneficialOwners: [legacyOwner] };
    const [event] = spec.given(created(profile, 'BUSINESS', 'UNVERIFIED')).when(submit()).events;
    const ownerErrors = (event.data as { errors: Array<{ resourceId: string; field?: string }> }).errors.filter((error) => error.resourceId !== CUSTOMER);
    expect(ownerErrors.map((error) => error.field)).toEqual(['personalInfo.firstName', 'personalInfo.birthDate', 'ownershipPercentage']);
    expect(new Set(ownerErrors.map((error) => error.resourceId))).toEqual(new Set([expect.stringMatching(/^BeneficialOwner:[0-9a-f-]{36}$/)]));
  });

  it('UpdateCustomer moves the UMA address (alone or with changes); the same address is no change', () => {
    const approved = spec.given(created(completeIndividual, 'INDIVIDUAL', 'APPROVED'));
    approved.when({ type: 'UpdateCustomer', changes: {}, umaAddress: '$pc1@x.test', now: NOW }).then([]);
    const moved: CustomerEvent = { type: 'CustomerUpdated', data: { ...ref, changes: { currencies: ['USD'] }, umaAddress: '$new@x.test', updatedAt: NOW } };
    approved.when({ type: 'UpdateCustomer', changes: { currencies: ['USD'] }, umaAddress: '$new@x.test', now: NOW }).then([moved]);
    const after = spec.state([...created(completeIndividual, 'INDIVIDUAL', 'APPROVED'), moved]);
    expect(after.status === 'active' && after.umaAddress).toBe('$new@x.test');
  });
});
