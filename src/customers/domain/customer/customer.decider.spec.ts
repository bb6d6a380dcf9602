import { DomainError } from '../../../infra/domain/domain-error';
import { CustomerCommand, CustomerState, VerificationScenario, customerDecider } from './customer.decider';
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
const given = (events: CustomerEvent[]): CustomerState => events.reduce(customerDecider.evolve, customerDecider.initialState());
const when = (state: CustomerState, command: CustomerCommand) => customerDecider.decide(command, state);
function errorCode(work: () => unknown): string | undefined {
  try {
    work();
  } catch (error) {
    return (error as DomainError).code;
  }
  return undefined;
}
const submit = (scenario: VerificationScenario = checkAll): CustomerCommand => ({ type: 'SubmitVerification', verificationId: 'Verification:v', scenario, now: NOW });

describe('customer decider', () => {
  it('creates an individual with its initial KYC status as a status-change event', () => {
    const events = when(given([]), {
      type: 'CreateCustomer', ...ref, customerType: 'INDIVIDUAL', platformCustomerId: 'pc-1', umaAddress: '$pc1@x.test',
      profile: completeIndividual, initialKycStatus: 'PENDING', now: NOW,
    });
    expect(events).toEqual(created(completeIndividual, 'INDIVIDUAL', 'PENDING'));
    const state = given(events);
    expect(state.status === 'active' && state.kycStatus).toBe('PENDING');
  });

  it('creates a business UNVERIFIED', () => {
    const events = when(given([]), {
      type: 'CreateCustomer', ...ref, customerType: 'BUSINESS', platformCustomerId: 'pc-1', umaAddress: '$pc1@x.test',
      profile: emptyProfile, initialKycStatus: 'APPROVED', now: NOW,
    });
    expect(events[1]).toEqual(expect.objectContaining({ type: 'CustomerKybStatusChanged', data: expect.objectContaining({ kybStatus: 'UNVERIFIED' }) }));
  });

  it('records only the fields that change, nothing when nothing changes', () => {
    const state = given(created(completeIndividual, 'INDIVIDUAL', 'APPROVED'));
    expect(when(state, { type: 'UpdateCustomer', changes: { email: 'a@b.c', nationality: 'US' }, now: NOW })).toEqual([
      { type: 'CustomerUpdated', data: { ...ref, changes: { email: 'a@b.c' }, updatedAt: NOW } },
    ]);
    expect(when(state, { type: 'UpdateCustomer', changes: { nationality: 'US' }, now: NOW })).toEqual([]);
  });

  it('answers 404 for an unknown customer and 410 once deleted', () => {
    expect(errorCode(() => when(given([]), { type: 'UpdateCustomer', changes: {}, now: NOW }))).toBe('USER_NOT_FOUND');
    const deleted = given([
      ...created(completeIndividual, 'INDIVIDUAL', 'APPROVED'),
      { type: 'CustomerDeleted', data: { ...ref, platformCustomerId: 'pc-1', umaAddress: '$pc1@x.test', deletedAt: NOW } },
    ]);
    expect(errorCode(() => when(deleted, { type: 'UpdateCustomer', changes: {}, now: NOW }))).toBe('CUSTOMER_DELETED');
    expect(errorCode(() => when(deleted, { type: 'DeleteCustomer', now: NOW }))).toBe('CUSTOMER_DELETED');
    expect(errorCode(() => when(deleted, submit()))).toBe('CUSTOMER_DELETED');
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
      const active = given(created(completeIndividual, 'INDIVIDUAL', 'APPROVED'));
      const events = when(active, open([eur, usdb]));
      expect(events).toEqual([opened([eur, usdb])]);
      const after = given([...created(completeIndividual, 'INDIVIDUAL', 'APPROVED'), ...events]);
      expect(after.status === 'active' && after.internalAccountIds).toEqual([eur.accountId, usdb.accountId]);
      expect(after.status === 'active' && after.updatedAt).toBe(active.status === 'active' && active.updatedAt);
    });

    it('refuses a deleted customer (deleted first, provisioning after)', () => {
      const deleted = given([...created(completeIndividual, 'INDIVIDUAL', 'APPROVED'), deletion]);
      expect(errorCode(() => when(deleted, open([eur])))).toBe('CUSTOMER_DELETED');
      expect(errorCode(() => when(given([]), open([eur])))).toBe('USER_NOT_FOUND');
    });

    it('adds nothing for accounts already recorded, also after a deletion; only the new ones otherwise', () => {
      const history = [...created(completeIndividual, 'INDIVIDUAL', 'APPROVED'), opened([eur])];
      expect(when(given(history), open([eur]))).toEqual([]);
      expect(when(given(history), open([eur, usdb]))).toEqual([opened([usdb])]);
      // Opened first, deleted after: the recorded account is finished, a new one is refused.
      expect(when(given([...history, deletion]), open([eur]))).toEqual([]);
      expect(errorCode(() => when(given([...history, deletion]), open([eur, usdb])))).toBe('CUSTOMER_DELETED');
    });
  });

  it('PENDING individual: one RESOLVE_ERRORS entry per missing item', () => {
    const state = given(created({ ...emptyProfile, fullName: 'Jane Doe001' }, 'INDIVIDUAL', 'PENDING'));
    const [event] = when(state, submit());
    expect(event.type).toBe('VerificationSubmitted');
    const data = event.data as { verificationStatus: string; errors: Array<{ type: string; field?: string }> };
    expect(data.verificationStatus).toBe('RESOLVE_ERRORS');
    expect(data.errors.map((error) => error.field ?? error.type)).toEqual([
      'birthDate', 'nationality', 'idType', 'identifier', 'address', 'MISSING_IDENTITY_DOCUMENT',
    ]);
  });

  it('PENDING individual with complete data and an identity document: PENDING_MANUAL_REVIEW', () => {
    const state = given([
      ...created(completeIndividual, 'INDIVIDUAL', 'PENDING'),
      { type: 'DocumentUploaded', data: { ...passport, ...ref } },
    ]);
    const events = when(state, submit());
    expect(events).toEqual([
      { type: 'VerificationSubmitted', data: { ...ref, verificationId: 'Verification:v', verificationStatus: 'PENDING_MANUAL_REVIEW', errors: [], submittedAt: NOW } },
    ]);
  });

  it('UNVERIFIED individual (003): RESOLVE_ERRORS for the poor-quality document', () => {
    const state = given([
      ...created(completeIndividual, 'INDIVIDUAL', 'UNVERIFIED'),
      { type: 'DocumentUploaded', data: { ...passport, ...ref } },
    ]);
    const [event] = when(state, submit({ ...checkAll, individual: 'POOR_QUALITY_DOCUMENT' }));
    const data = event.data as { verificationStatus: string; errors: Array<{ type: string; resourceId: string }> };
    expect(data.verificationStatus).toBe('RESOLVE_ERRORS');
    expect(data.errors).toEqual([expect.objectContaining({ type: 'POOR_QUALITY_DOCUMENT', resourceId: 'Document:d1' })]);
  });

  it('refuses a verification once the individual is approved or rejected', () => {
    expect(errorCode(() => when(given(created(completeIndividual, 'INDIVIDUAL', 'APPROVED')), submit()))).toBe('INVALID_INPUT');
    expect(errorCode(() => when(given(created(completeIndividual, 'INDIVIDUAL', 'REJECTED')), submit()))).toBe('INVALID_INPUT');
  });

  it('business: APPROVE and REJECT resolve the business and each beneficial owner at once', () => {
    const owner = (lastName: string): BeneficialOwner => ({
      personalInfo: { firstName: 'A', middleName: null, lastName, birthDate: null, nationality: null, email: null, phoneNumber: null, address: null, idType: null, identifier: null },
      roles: [], ownershipPercentage: 50, kycStatus: 'UNVERIFIED',
    });
    const profile = { ...emptyProfile, businessInfo: { legalName: 'Acme', registrationNumber: 'R-999', taxId: null, incorporationDate: null, entityType: null }, beneficialOwners: [owner('Smith001'), owner('Jones')] };
    const state = given(created(profile, 'BUSINESS', 'UNVERIFIED'));
    const approved = when(state, submit({ individual: 'CHECK_REQUIREMENTS', business: 'APPROVE', beneficialOwnerKycStatuses: ['PENDING', 'APPROVED'] }));
    expect(approved.map((event) => event.type)).toEqual(['VerificationSubmitted', 'CustomerKybStatusChanged']);
    const after = given([...created(profile, 'BUSINESS', 'UNVERIFIED'), ...approved]);
    expect(after.status === 'active' && after.kybStatus).toBe('APPROVED');
    expect(after.status === 'active' && after.profile.beneficialOwners.map((o) => o.kycStatus)).toEqual(['PENDING', 'APPROVED']);
    expect(errorCode(() => when(after, submit()))).toBe('INVALID_INPUT');
    const rejected = when(state, submit({ individual: 'CHECK_REQUIREMENTS', business: 'REJECT', beneficialOwnerKycStatuses: ['REJECTED', 'REJECTED'] }));
    expect((rejected[0].data as { verificationStatus: string }).verificationStatus).toBe('REJECTED');
  });

  it('business CHECK_REQUIREMENTS: RESOLVE_ERRORS lists what is missing; complete goes to PENDING_MANUAL_REVIEW and kyb PENDING', () => {
    const profile = { ...emptyProfile, businessInfo: { legalName: 'Acme', registrationNumber: 'R-001', taxId: null, incorporationDate: null, entityType: null } };
    const [event] = when(given(created(profile, 'BUSINESS', 'UNVERIFIED')), submit());
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
    const [event] = when(given(created(profile, 'BUSINESS', 'UNVERIFIED')), submit());
    const ownerErrors = (event.data as { errors: Array<{ resourceId: string; field?: string }> }).errors.filter((error) => error.resourceId !== CUSTOMER);
    expect(ownerErrors.map((error) => error.field)).toEqual(['personalInfo.firstName', 'personalInfo.birthDate', 'ownershipPercentage']);
    expect(new Set(ownerErrors.map((error) => error.resourceId))).toEqual(new Set([expect.stringMatching(/^BeneficialOwner:[0-9a-f-]{36}$/)]));
  });

  it('UpdateCustomer moves the UMA address (alone or with changes); the same address is no change', () => {
    const state = given(created(completeIndividual, 'INDIVIDUAL', 'APPROVED'));
    expect(when(state, { type: 'UpdateCustomer', changes: {}, umaAddress: '$pc1@x.test', now: NOW })).toEqual([]);
    const moved = when(state, { type: 'UpdateCustomer', changes: { currencies: ['USD'] }, umaAddress: '$new@x.test', now: NOW });
    expect(moved).toEqual([{ type: 'CustomerUpdated', data: { ...ref, changes: { currencies: ['USD'] }, umaAddress: '$new@x.test', updatedAt: NOW } }]);
    const after = given([...created(completeIndividual, 'INDIVIDUAL', 'APPROVED'), ...moved]);
    expect(after.status === 'active' && after.umaAddress).toBe('$new@x.test');
  });
});
