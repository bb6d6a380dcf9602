import { deciderSpec } from '../../../../test/support/decider-spec';
import { beneficialOwnerId } from './beneficial-owner-id';
import { CustomerCommand, customerDecider } from './customer.decider';
import { BeneficialOwner, CustomerEvent, CustomerProfile, KybStatus } from './customer.events';

const T0 = '2025-10-13T12:00:00.000Z';
const T1 = '2025-10-13T13:00:00.000Z';
const CUSTOMER = 'Customer:0199a000-0000-7000-8000-000000000001';
const ref = { customerId: CUSTOMER, platformId: 'Platform:p' };
const OWNER_A = 'BeneficialOwner:0199a000-0000-7000-8000-00000000000a';
const OWNER_B = 'BeneficialOwner:0199a000-0000-7000-8000-00000000000b';
const address = { line1: '1 Main St', line2: null, city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' };

const owner = (id: string, ownershipPercentage: number, extra: Partial<BeneficialOwner> = {}): BeneficialOwner & { id: string; createdAt: string } => ({
  id,
  createdAt: T0,
  personalInfo: {
    firstName: 'Ann', middleName: null, lastName: 'Lee', birthDate: '1980-01-01', nationality: 'US', email: null, phoneNumber: null, address,
    idType: 'SSN', identifier: '123-45-6789',
  },
  roles: ['UBO'],
  ownershipPercentage,
  kycStatus: 'UNVERIFIED',
  ...extra,
});

const profile = (owners: BeneficialOwner[], customerType: 'BUSINESS' | 'INDIVIDUAL' = 'BUSINESS'): CustomerProfile => ({
  region: 'US', email: null, phoneNumber: null, address, fullName: customerType === 'INDIVIDUAL' ? 'Jane Doe' : null, birthDate: null,
  nationality: null, taxIdType: null, taxIdentifier: null,
  businessInfo: customerType === 'BUSINESS' ? { legalName: 'Acme', registrationNumber: null, taxId: null, incorporationDate: null, entityType: null } : null,
  beneficialOwners: owners,
});

function business(owners: BeneficialOwner[], kybStatus: KybStatus = 'UNVERIFIED'): CustomerEvent[] {
  const events: CustomerEvent[] = [
    { type: 'CustomerCreated', data: { ...ref, customerType: 'BUSINESS', platformCustomerId: 'org-1', umaAddress: '$org@x.test', profile: profile(owners), createdAt: T0 } },
    {
      type: 'CustomerKybStatusChanged',
      data: { ...ref, previousStatus: null, kybStatus: 'UNVERIFIED', beneficialOwnerKycStatuses: owners.map(() => 'UNVERIFIED' as const), verificationId: null, changedAt: T0 },
    },
  ];
  if (kybStatus === 'UNVERIFIED') return events;
  const statuses = owners.map(() => (kybStatus === 'APPROVED' ? ('APPROVED' as const) : ('UNVERIFIED' as const)));
  return [
    ...events,
    { type: 'CustomerKybStatusChanged', data: { ...ref, previousStatus: 'UNVERIFIED', kybStatus, beneficialOwnerKycStatuses: statuses, verificationId: 'Verification:v', changedAt: T0 } },
  ];
}

const spec = deciderSpec(customerDecider);
const add = (added: BeneficialOwner & { id: string; createdAt: string }): CustomerCommand => ({ type: 'AddBeneficialOwner', owner: added, now: T1 });
const update = (changes: Extract<CustomerCommand, { type: 'UpdateBeneficialOwner' }>['changes'], id = OWNER_A): CustomerCommand => ({
  type: 'UpdateBeneficialOwner', beneficialOwnerId: id, changes, now: T1,
});
const added = (newOwner: BeneficialOwner): CustomerEvent => ({ type: 'BeneficialOwnerAdded', data: { ...ref, beneficialOwnerId: newOwner.id!, owner: newOwner, addedAt: T1 } });
const reopened = (statuses: Array<'UNVERIFIED' | 'APPROVED'>): CustomerEvent => ({
  type: 'CustomerKybStatusChanged',
  data: { ...ref, previousStatus: 'APPROVED', kybStatus: 'PENDING', beneficialOwnerKycStatuses: statuses, verificationId: null, changedAt: T1 },
});

describe('customer decider: beneficial owners', () => {
  it('adds an owner UNVERIFIED to an unverified business; a retried add (same id) adds nothing', () => {
    spec.given(business([])).when(add(owner(OWNER_A, 40, { kycStatus: 'APPROVED' }))).then([added(owner(OWNER_A, 40))]);
    spec.given([...business([]), added(owner(OWNER_A, 40))]).when(add(owner(OWNER_A, 40))).then([]);
    const state = spec.state([...business([]), added(owner(OWNER_A, 40))]);
    expect(state.status === 'active' && { owners: state.profile.beneficialOwners, updatedAt: state.updatedAt }).toEqual({ owners: [owner(OWNER_A, 40)], updatedAt: T1 });
  });

  it('an owner added to an APPROVED business reopens its KYB: PENDING, every owner with its status', () => {
    const given = business([owner(OWNER_A, 40)], 'APPROVED');
    spec.given(given).when(add(owner(OWNER_B, 30))).then([added(owner(OWNER_B, 30)), reopened(['APPROVED', 'UNVERIFIED'])]);
    // A pending or rejected business keeps its status.
    spec.given(business([owner(OWNER_A, 40)], 'PENDING')).when(add(owner(OWNER_B, 30))).then([added(owner(OWNER_B, 30))]);
    spec.given(business([owner(OWNER_A, 40)], 'REJECTED')).when(add(owner(OWNER_B, 30))).then([added(owner(OWNER_B, 30))]);
  });

  it('refuses an individual, a missing or deleted customer, a 26th owner, and percentages over 100 in all', () => {
    const individual: CustomerEvent[] = [
      { type: 'CustomerCreated', data: { ...ref, customerType: 'INDIVIDUAL', platformCustomerId: 'u-1', umaAddress: '$u@x.test', profile: profile([], 'INDIVIDUAL'), createdAt: T0 } },
    ];
    spec.given(individual).when(add(owner(OWNER_A, 40))).thenError('INVALID_INPUT', { errors: [expect.objectContaining({ field: 'customerId' })] });
    spec.given([]).when(add(owner(OWNER_A, 40))).thenError('USER_NOT_FOUND');
    const deleted: CustomerEvent = { type: 'CustomerDeleted', data: { ...ref, platformCustomerId: 'org-1', umaAddress: '$org@x.test', deletedAt: T1 } };
    spec.given([...business([]), deleted]).when(add(owner(OWNER_A, 40))).thenError('USER_NOT_FOUND');
    const full = Array.from({ length: 25 }, (_, index) => owner(`BeneficialOwner:0199a000-0000-7000-8000-${String(index).padStart(12, '0')}`, 0));
    spec.given(business(full)).when(add(owner(OWNER_A, 0))).thenError('INVALID_INPUT');
    spec.given(business([owner(OWNER_A, 80)])).when(add(owner(OWNER_B, 30))).thenError('INVALID_INPUT', {
      errors: [{ field: 'ownershipPercentage', constraint: {}, message: "The owners' percentages would add up to 110; at most 100 (the others hold 80)" }],
    });
    spec.given(business([owner(OWNER_A, 80)])).when(add(owner(OWNER_B, 20))).then([added(owner(OWNER_B, 20))]);
  });

  it('PATCH /customers replacing the owners of an approved business reopens its KYB too', () => {
    const replaced = [owner(OWNER_B, 50)];
    spec.given(business([owner(OWNER_A, 40)], 'APPROVED')).when({ type: 'UpdateCustomer', changes: { beneficialOwners: replaced }, now: T1 }).then([
      { type: 'CustomerUpdated', data: { ...ref, changes: { beneficialOwners: replaced }, updatedAt: T1 } },
      reopened(['UNVERIFIED']),
    ]);
    spec.given(business([owner(OWNER_A, 40)], 'APPROVED')).when({ type: 'UpdateCustomer', changes: { email: 'a@b.c' }, now: T1 }).then([
      { type: 'CustomerUpdated', data: { ...ref, changes: { email: 'a@b.c' }, updatedAt: T1 } },
    ]);
  });

  it('records only the fields that change; a contact change keeps every status', () => {
    const given = spec.given(business([owner(OWNER_A, 40)], 'APPROVED'));
    given.when(update({ roles: ['UBO'], ownershipPercentage: 40, personalInfo: { firstName: 'Ann' } })).then([]);
    given.when(update({ personalInfo: { email: 'ann@example.com', firstName: 'Ann' } })).then([
      { type: 'BeneficialOwnerUpdated', data: { ...ref, beneficialOwnerId: OWNER_A, changes: { personalInfo: { email: 'ann@example.com' } }, updatedAt: T1 } },
    ]);
  });

  it('an identity change sends the owner back to UNVERIFIED; any ownership change reopens an approved KYB', () => {
    const given = spec.given(business([owner(OWNER_A, 40), owner(OWNER_B, 30)], 'APPROVED'));
    given.when(update({ personalInfo: { lastName: 'Lee-Smith' } })).then([
      { type: 'BeneficialOwnerUpdated', data: { ...ref, beneficialOwnerId: OWNER_A, changes: { personalInfo: { lastName: 'Lee-Smith' } }, kycStatus: 'UNVERIFIED', updatedAt: T1 } },
      reopened(['UNVERIFIED', 'APPROVED']),
    ]);
    given.when(update({ roles: ['UBO', 'DIRECTOR'] }, OWNER_B)).then([
      { type: 'BeneficialOwnerUpdated', data: { ...ref, beneficialOwnerId: OWNER_B, changes: { roles: ['UBO', 'DIRECTOR'] }, updatedAt: T1 } },
      reopened(['APPROVED', 'APPROVED']),
    ]);
    given.when(update({ ownershipPercentage: 71 }, OWNER_B)).thenError('INVALID_INPUT');
    given.when(update({ ownershipPercentage: 60 }, OWNER_B)).then([
      { type: 'BeneficialOwnerUpdated', data: { ...ref, beneficialOwnerId: OWNER_B, changes: { ownershipPercentage: 60 }, updatedAt: T1 } },
      reopened(['APPROVED', 'APPROVED']),
    ]);
    given.when(update({ roles: ['DIRECTOR'] }, 'BeneficialOwner:0199a000-0000-7000-8000-0000000000ff')).thenError('REFERENCE_NOT_FOUND');
  });

  it('folds an update into the owner: its updatedAt and status; an owner stored before ids gets its shown id frozen', () => {
    const legacy: BeneficialOwner = { ...owner(OWNER_A, 40) };
    delete legacy.id;
    delete legacy.createdAt;
    const legacyId = beneficialOwnerId(CUSTOMER, legacy, 0);
    const events = business([legacy], 'APPROVED');
    const { events: decided } = spec.given(events).when(update({ personalInfo: { birthDate: '1981-02-02' } }, legacyId));
    const state = spec.state([...events, ...decided]);
    expect(state.status === 'active' && { owners: state.profile.beneficialOwners, kybStatus: state.kybStatus }).toEqual({
      owners: [{ ...legacy, id: legacyId, createdAt: T0, personalInfo: { ...legacy.personalInfo, birthDate: '1981-02-02' }, kycStatus: 'UNVERIFIED', updatedAt: T1 }],
      kybStatus: 'PENDING',
    });
  });
});
