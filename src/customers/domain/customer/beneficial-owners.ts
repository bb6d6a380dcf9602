import { DomainError, FieldError, ValidationError } from '../../../infra/domain/domain-error';
import { beneficialOwnerId } from './beneficial-owner-id';
import {
  BeneficialOwner,
  BeneficialOwnerAdded,
  BeneficialOwnerChanges,
  BeneficialOwnerPersonalInfo,
  BeneficialOwnerUpdated,
  CustomerEvent,
  CustomerType,
  KybStatus,
} from './customer.events';

/**
 * Beneficial owners as a resource (`POST/PATCH /beneficial-owners`, docs/customers.md "Beneficial
 * owners"). Owners stay in their business's profile, so the customer's GET, `POST /verifications`
 * and the sandbox's owner resolution see them at once; each change is an event on the business's
 * stream. Ownership changes reopen an approved business's KYB: they never keep it silently approved.
 */
export type BeneficialOwnerCommand =
  /** `owner` carries its id, creation time and sealed identifier (the handler sets them). */
  | { type: 'AddBeneficialOwner'; owner: BeneficialOwner & { id: string; createdAt: string }; now: string }
  /** `changes` holds only given fields; an identifier equal to the stored one is left out by the handler. */
  | { type: 'UpdateBeneficialOwner'; beneficialOwnerId: string; changes: BeneficialOwnerChanges; now: string };

export type BeneficialOwnerEvent = BeneficialOwnerAdded | BeneficialOwnerUpdated;

/** The inline owners of `POST /customers` allow 25 (customers.dto.ts): the resource keeps the same bound. */
const MAX_BENEFICIAL_OWNERS = 25;

/** Contact details of an owner: changing them changes nobody's identity, so no KYC reopens. */
const CONTACT_FIELDS: ReadonlyArray<keyof BeneficialOwnerPersonalInfo> = ['email', 'phoneNumber'];

/** What these rules read of the customer's state (the decider's CustomerRecord has it all). */
export interface BeneficialOwnersSubject {
  status: 'active' | 'deleted';
  customerId: string;
  platformId: string;
  customerType: CustomerType;
  kybStatus: KybStatus | null;
  profile: { beneficialOwners: BeneficialOwner[] };
}

export function beneficialOwnerNotFound(): DomainError {
  return new DomainError('REFERENCE_NOT_FOUND', 'Beneficial owner not found');
}

/** Owners belong to businesses only: naming an individual is a bad field of the request. */
export function individualCustomerError(): FieldError {
  return { field: 'customerId', constraint: {}, message: 'customerId names an INDIVIDUAL customer; beneficial owners belong to BUSINESS customers' };
}

export function decideBeneficialOwners(command: BeneficialOwnerCommand, state: { status: 'none' } | BeneficialOwnersSubject): CustomerEvent[] {
  // The resource treats a deleted business as gone: its owners are not found either.
  if (state.status !== 'active') throw new DomainError('USER_NOT_FOUND', 'Customer not found');
  if (state.customerType !== 'BUSINESS') throw new ValidationError([individualCustomerError()]);
  return command.type === 'AddBeneficialOwner' ? decideAdd(command, state) : decideUpdate(command, state);
}

type AddCommand = Extract<BeneficialOwnerCommand, { type: 'AddBeneficialOwner' }>;
type UpdateCommand = Extract<BeneficialOwnerCommand, { type: 'UpdateBeneficialOwner' }>;

function decideAdd(command: AddCommand, state: BeneficialOwnersSubject): CustomerEvent[] {
  const owners = state.profile.beneficialOwners;
  // A retried command (same id) adds nothing.
  if (owners.some((owner) => owner.id === command.owner.id)) return [];
  if (owners.length >= MAX_BENEFICIAL_OWNERS) {
    throw new ValidationError([
      { field: 'customerId', constraint: {}, message: `A business has at most ${MAX_BENEFICIAL_OWNERS} beneficial owners; this one has ${owners.length}` },
    ]);
  }
  assertOwnershipTotal(owners, null, command.owner.ownershipPercentage);
  // Verified with the business's next verification (POST /verifications), never before.
  const owner: BeneficialOwner = { ...command.owner, kycStatus: 'UNVERIFIED' };
  const added: CustomerEvent = {
    type: 'BeneficialOwnerAdded',
    data: { customerId: state.customerId, platformId: state.platformId, beneficialOwnerId: command.owner.id, owner, addedAt: command.now },
  };
  return [added, ...reopenedKyb(state, [...owners, owner], command.now)];
}

function decideUpdate(command: UpdateCommand, state: BeneficialOwnersSubject): CustomerEvent[] {
  const owners = state.profile.beneficialOwners;
  const index = owners.findIndex((owner, position) => beneficialOwnerId(state.customerId, owner, position) === command.beneficialOwnerId);
  if (index < 0) throw beneficialOwnerNotFound();
  const current = owners[index];
  const changes = effectiveChanges(current, command.changes);
  if (Object.keys(changes).length === 0) return [];
  if (changes.ownershipPercentage !== undefined) assertOwnershipTotal(owners, index, changes.ownershipPercentage);
  // The KYC was of the person as described before: another identity needs another check.
  const identityChanged = Object.keys(changes.personalInfo ?? {}).some((field) => !CONTACT_FIELDS.includes(field as keyof BeneficialOwnerPersonalInfo));
  const resetsKyc = identityChanged && current.kycStatus !== 'UNVERIFIED';
  const updated: BeneficialOwnerUpdated = {
    type: 'BeneficialOwnerUpdated',
    data: {
      customerId: state.customerId,
      platformId: state.platformId,
      beneficialOwnerId: command.beneficialOwnerId,
      changes,
      ...(resetsKyc ? { kycStatus: 'UNVERIFIED' as const } : {}),
      updatedAt: command.now,
    },
  };
  const material = identityChanged || changes.roles !== undefined || changes.ownershipPercentage !== undefined;
  if (!material) return [updated];
  const after = owners.map((owner, position) => (position === index ? { ...owner, kycStatus: updated.data.kycStatus ?? owner.kycStatus } : owner));
  return [updated, ...reopenedKyb(state, after, command.now)];
}

/** The given fields that differ from the owner's current values (a PATCH resending a GET body changes nothing). */
function effectiveChanges(owner: BeneficialOwner, given: BeneficialOwnerChanges): BeneficialOwnerChanges {
  const changes: BeneficialOwnerChanges = {};
  if (given.roles !== undefined && JSON.stringify(given.roles) !== JSON.stringify(owner.roles)) changes.roles = given.roles;
  if (given.ownershipPercentage !== undefined && given.ownershipPercentage !== owner.ownershipPercentage) changes.ownershipPercentage = given.ownershipPercentage;
  const info: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(given.personalInfo ?? {})) {
    if (value === undefined) continue;
    if (JSON.stringify(owner.personalInfo[field as keyof BeneficialOwnerPersonalInfo] ?? null) !== JSON.stringify(value)) info[field] = value;
  }
  if (Object.keys(info).length > 0) changes.personalInfo = info as Partial<BeneficialOwnerPersonalInfo>;
  return changes;
}

/**
 * Ownership is of one business: the owners' percentages may not add up to more than 100. Data
 * from before this rule (inline owners) may; a change that does not raise the total is accepted.
 */
function assertOwnershipTotal(owners: BeneficialOwner[], replacedIndex: number | null, percentage: number | null): void {
  const before = owners.reduce((sum, owner) => sum + (owner.ownershipPercentage ?? 0), 0);
  const replaced = replacedIndex === null ? 0 : (owners[replacedIndex].ownershipPercentage ?? 0);
  const after = before - replaced + (percentage ?? 0);
  if (after > 100 && after > before) {
    throw new ValidationError([
      { field: 'ownershipPercentage', constraint: {}, message: `The owners' percentages would add up to ${after}; at most 100 (the others hold ${before - replaced})` },
    ]);
  }
}

/**
 * An approved business whose ownership changed is approved no longer: its KYB goes back to
 * PENDING (CUSTOMER.KYB_PENDING) until `POST /verifications` decides again. Other statuses
 * stay: an unverified or pending business is verified on its current owners anyway, a rejected
 * one stays rejected.
 */
function reopenedKyb(state: BeneficialOwnersSubject, ownersAfter: BeneficialOwner[], now: string): CustomerEvent[] {
  if (state.kybStatus !== 'APPROVED') return [];
  return [
    {
      type: 'CustomerKybStatusChanged',
      data: {
        customerId: state.customerId,
        platformId: state.platformId,
        previousStatus: 'APPROVED',
        kybStatus: 'PENDING',
        beneficialOwnerKycStatuses: ownersAfter.map((owner) => owner.kycStatus),
        verificationId: null,
        changedAt: now,
      },
    },
  ];
}

/** `PATCH /customers/{id}` with `beneficialOwners` replaces them all: an ownership change too. */
export function kybAfterOwnersReplaced(state: BeneficialOwnersSubject, owners: BeneficialOwner[] | undefined, now: string): CustomerEvent[] {
  return owners === undefined ? [] : reopenedKyb(state, owners, now);
}

/**
 * Folds an owner event into a customer (the decider's state and the read model's record alike).
 * An updated owner keeps the id it was shown with (owners stored before ids get theirs frozen).
 */
export function evolveBeneficialOwners<
  S extends { customerId: string; profile: { beneficialOwners: BeneficialOwner[] }; createdAt: string; updatedAt: string },
>(
  state: S,
  event: BeneficialOwnerEvent,
): S {
  const owners = state.profile.beneficialOwners;
  if (event.type === 'BeneficialOwnerAdded') {
    return { ...state, profile: { ...state.profile, beneficialOwners: [...owners, event.data.owner] }, updatedAt: event.data.addedAt };
  }
  const beneficialOwners = owners.map((owner, index) =>
    beneficialOwnerId(state.customerId, owner, index) === event.data.beneficialOwnerId ? ownerUpdated(state, owner, index, event) : owner,
  );
  return { ...state, profile: { ...state.profile, beneficialOwners }, updatedAt: event.data.updatedAt };
}

/** Owners stored before they had ids or creation times get the ones they were shown with (customer.view.ts). */
function ownerUpdated(customer: { customerId: string; createdAt: string }, owner: BeneficialOwner, index: number, event: BeneficialOwnerUpdated): BeneficialOwner {
  const { changes } = event.data;
  const personalInfo = { ...owner.personalInfo, ...changes.personalInfo };
  // A new identifier replaces one an erasure cleared.
  const identifierErased = changes.personalInfo?.identifier !== undefined ? undefined : owner.identifierErased;
  const { identifierErased: _previous, ...rest } = owner;
  return {
    ...rest,
    id: beneficialOwnerId(customer.customerId, owner, index),
    createdAt: owner.createdAt ?? customer.createdAt,
    personalInfo,
    ...(changes.roles !== undefined ? { roles: changes.roles } : {}),
    ...(changes.ownershipPercentage !== undefined ? { ownershipPercentage: changes.ownershipPercentage } : {}),
    ...(event.data.kycStatus !== undefined ? { kycStatus: event.data.kycStatus } : {}),
    updatedAt: event.data.updatedAt,
    ...(identifierErased ? { identifierErased } : {}),
  };
}
