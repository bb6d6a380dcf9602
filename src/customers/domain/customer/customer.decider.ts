import { Decider } from '../../../infra/domain/decider';
import { DomainError } from '../../../infra/domain/domain-error';
import {
  CustomerEvent,
  CustomerProfile,
  CustomerType,
  DocumentRecord,
  KybStatus,
  KycStatus,
  VerificationError,
  VerificationStatus,
} from './customer.events';
import { businessRequirementErrors, IDENTITY_DOCUMENT_TYPES, individualRequirementErrors } from './verification-requirements';
import { decideErasure, withoutPersonalSecrets } from './personal-data-fields';
import { ContactChannel, ContactVerificationCommand, ContactVerificationState, contactVerificationAfterUpdate, contactVerificationAtCreation } from './contact-verification';
import { decideContactVerification, evolveContactVerification, gateVerification } from './contact-verification';
import { assertKnownTermsVersion } from './end-user-terms';
import { decideInternalAccounts } from './internal-accounts-opened';

export interface VerificationRecord {
  verificationId: string;
  verificationStatus: VerificationStatus;
  errors: VerificationError[];
  submittedAt: string;
}

export interface CustomerRecord {
  customerId: string;
  platformId: string;
  customerType: CustomerType;
  platformCustomerId: string;
  umaAddress: string;
  profile: CustomerProfile;
  kycStatus: KycStatus | null;
  kybStatus: KybStatus | null;
  documents: DocumentRecord[];
  verifications: VerificationRecord[];
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
  /** Internal accounts opened through this stream (absent before the first; see CustomerInternalAccountsOpened). */
  internalAccountIds?: string[];
  /** Data keys erased so far, oldest first (absent before the first erasure). */
  erasedPersonalDataKeyIds?: string[];
  /** The channels the provider requires and their progress (absent when none is required). */
  contactVerification?: ContactVerificationState;
}

/** JSON-serialisable (the read model keeps it), a discriminated union on `status`. */
export type CustomerState = { status: 'none' } | ({ status: 'active' | 'deleted' } & CustomerRecord);

/**
 * How the sandbox resolves a verification (src/sandbox/kyc-scenarios.ts decides it from the
 * magic suffixes; the decider stays free of sandbox knowledge).
 */
export interface VerificationScenario {
  individual: 'CHECK_REQUIREMENTS' | 'POOR_QUALITY_DOCUMENT';
  business: 'CHECK_REQUIREMENTS' | 'APPROVE' | 'REJECT';
  /** Each beneficial owner's status if the business resolves terminally now. */
  beneficialOwnerKycStatuses: KycStatus[];
}

export type CustomerCommand =
  | {
      type: 'CreateCustomer';
      customerId: string;
      platformId: string;
      customerType: CustomerType;
      platformCustomerId: string;
      umaAddress: string;
      profile: CustomerProfile;
      /** Individuals only: the sandbox status fixed at creation. */
      initialKycStatus: KycStatus;
      /** The channels the customer's provider requires verified (src/customers/contact-verification-providers.ts). */
      contactChannels?: ContactChannel[];
      now: string;
    }
  | {
      type: 'UpdateCustomer';
      changes: Partial<CustomerProfile>;
      /** A new UMA address whose key the service has already claimed. */
      umaAddress?: string;
      now: string;
    }
  | { type: 'DeleteCustomer'; now: string }
  | {
      type: 'OpenInternalAccounts';
      /** Accounts the ledger has not opened yet (ids derived from customer and currency). */
      accounts: Array<{ accountId: string; currency: string }>;
      now: string;
    }
  | { type: 'UploadDocument'; document: DocumentRecord }
  | { type: 'SubmitVerification'; verificationId: string; scenario: VerificationScenario; now: string }
  | {
      type: 'ErasePersonalData';
      /** Whether the vault still holds the customer's current data key (values may be sealed with it). */
      currentKeyExists: boolean;
      erasedBy: string;
      reason: string;
      now: string;
    }
  | ContactVerificationCommand;

function requireActive(state: CustomerState): asserts state is { status: 'active' } & CustomerRecord {
  if (state.status === 'none') throw new DomainError('USER_NOT_FOUND', 'Customer not found');
  if (state.status === 'deleted') throw new DomainError('CUSTOMER_DELETED', 'The customer was deleted');
}

export const customerDecider: Decider<CustomerCommand, CustomerState, CustomerEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'CreateCustomer': {
        if (state.status !== 'none') return [];
        assertKnownTermsVersion(command.profile.endUserTermsConsent);
        const base = { customerId: command.customerId, platformId: command.platformId };
        const contactEvents = contactVerificationAtCreation(base, command.contactChannels, command.now);
        const created: CustomerEvent = {
          type: 'CustomerCreated',
          data: {
            ...base,
            customerType: command.customerType,
            platformCustomerId: command.platformCustomerId,
            umaAddress: command.umaAddress,
            profile: command.profile,
            createdAt: command.now,
          },
        };
        if (command.customerType === 'INDIVIDUAL') {
          return [
            created,
            {
              type: 'CustomerKycStatusChanged',
              data: { ...base, previousStatus: null, kycStatus: command.initialKycStatus, verificationId: null, changedAt: command.now },
            },
            ...contactEvents,
          ];
        }
        return [
          created,
          {
            type: 'CustomerKybStatusChanged',
            data: {
              ...base,
              previousStatus: null,
              kybStatus: 'UNVERIFIED',
              beneficialOwnerKycStatuses: command.profile.beneficialOwners.map((owner) => owner.kycStatus),
              verificationId: null,
              changedAt: command.now,
            },
          },
          ...contactEvents,
        ];
      }

      case 'UpdateCustomer': {
        requireActive(state);
        assertKnownTermsVersion(command.changes.endUserTermsConsent);
        const changes: Partial<CustomerProfile> = {};
        for (const [key, value] of Object.entries(command.changes) as [keyof CustomerProfile, unknown][]) {
          if (value === undefined) continue;
          if (JSON.stringify(state.profile[key]) !== JSON.stringify(value)) (changes as Record<string, unknown>)[key] = value;
        }
        const umaAddress = command.umaAddress !== undefined && command.umaAddress !== state.umaAddress ? command.umaAddress : undefined;
        if (Object.keys(changes).length === 0 && umaAddress === undefined) return [];
        return [
          {
            type: 'CustomerUpdated',
            data: {
              customerId: state.customerId,
              platformId: state.platformId,
              changes,
              ...(umaAddress !== undefined ? { umaAddress } : {}),
              updatedAt: command.now,
            },
          },
          ...contactVerificationAfterUpdate(state, changes, command.now),
        ];
      }

      case 'DeleteCustomer': {
        requireActive(state);
        return [
          {
            type: 'CustomerDeleted',
            data: {
              customerId: state.customerId,
              platformId: state.platformId,
              platformCustomerId: state.platformCustomerId,
              umaAddress: state.umaAddress,
              deletedAt: command.now,
            },
          },
        ];
      }

      case 'OpenInternalAccounts':
        return decideInternalAccounts(command, state);

      case 'UploadDocument': {
        requireActive(state);
        if (state.documents.some((document) => document.documentId === command.document.documentId)) return [];
        return [{ type: 'DocumentUploaded', data: { ...command.document, customerId: state.customerId, platformId: state.platformId } }];
      }

      case 'ErasePersonalData':
        return decideErasure(command, state);

      case 'SubmitVerification':
        requireActive(state);
        return gateVerification(state, state.customerType === 'INDIVIDUAL' ? decideIndividualVerification(command, state) : decideBusinessVerification(command, state));

      default: // the contact verification commands
        return decideContactVerification(command, state);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'CustomerCreated':
        return {
          status: 'active',
          customerId: event.data.customerId,
          platformId: event.data.platformId,
          customerType: event.data.customerType,
          platformCustomerId: event.data.platformCustomerId,
          umaAddress: event.data.umaAddress,
          profile: event.data.profile,
          kycStatus: null,
          kybStatus: null,
          documents: [],
          verifications: [],
          createdAt: event.data.createdAt,
          updatedAt: event.data.createdAt,
          deletedAt: null,
        };
      case 'CustomerUpdated':
        if (state.status === 'none') return state;
        return {
          ...state,
          umaAddress: event.data.umaAddress ?? state.umaAddress,
          profile: { ...state.profile, ...event.data.changes },
          updatedAt: event.data.updatedAt,
        };
      case 'CustomerDeleted':
        if (state.status === 'none') return state;
        return { ...state, status: 'deleted', deletedAt: event.data.deletedAt, updatedAt: event.data.deletedAt };
      case 'CustomerInternalAccountsOpened':
        if (state.status === 'none') return state;
        // Not a change of the customer resource: updatedAt stays.
        return { ...state, internalAccountIds: [...(state.internalAccountIds ?? []), ...event.data.accounts.map((account) => account.accountId)] };
      case 'CustomerKycStatusChanged':
        if (state.status === 'none') return state;
        return { ...state, kycStatus: event.data.kycStatus, updatedAt: event.data.changedAt };
      case 'CustomerKybStatusChanged': {
        if (state.status === 'none') return state;
        const statuses = event.data.beneficialOwnerKycStatuses;
        const beneficialOwners = state.profile.beneficialOwners.map((owner, index) => {
          const kycStatus = statuses[index] ?? owner.kycStatus;
          return kycStatus === owner.kycStatus ? owner : { ...owner, kycStatus, updatedAt: event.data.changedAt };
        });
        return {
          ...state,
          kybStatus: event.data.kybStatus,
          profile: { ...state.profile, beneficialOwners },
          updatedAt: event.data.changedAt,
        };
      }
      case 'DocumentUploaded': {
        if (state.status === 'none') return state;
        const { customerId: _customerId, platformId: _platformId, ...document } = event.data;
        return { ...state, documents: [...state.documents, document] };
      }
      case 'CustomerPersonalDataErased':
        if (state.status === 'none') return state;
        return {
          ...state,
          ...withoutPersonalSecrets(state.profile, state.documents),
          erasedPersonalDataKeyIds: [...(state.erasedPersonalDataKeyIds ?? []), event.data.keyId],
          updatedAt: event.data.erasedAt,
        };
      default: // the contact verification events
        return state.status === 'none' ? state : evolveContactVerification(state, event);
      case 'VerificationSubmitted':
        if (state.status === 'none') return state;
        return {
          ...state,
          verifications: [
            ...state.verifications,
            {
              verificationId: event.data.verificationId,
              verificationStatus: event.data.verificationStatus,
              errors: event.data.errors,
              submittedAt: event.data.submittedAt,
            },
          ],
        };
    }
  },
};

type ActiveState = { status: 'active' } & CustomerRecord;
type SubmitCommand = Extract<CustomerCommand, { type: 'SubmitVerification' }>;

function alreadyResolved(): DomainError {
  return new DomainError('INVALID_INPUT', 'The customer has already been approved or rejected; it cannot be submitted again', {
    reason: 'VERIFICATION_ALREADY_RESOLVED',
  });
}

function verificationEvent(state: ActiveState, command: SubmitCommand, status: VerificationStatus, errors: VerificationError[]): CustomerEvent {
  return {
    type: 'VerificationSubmitted',
    data: {
      customerId: state.customerId,
      platformId: state.platformId,
      verificationId: command.verificationId,
      verificationStatus: status,
      errors,
      submittedAt: command.now,
    },
  };
}

function decideIndividualVerification(command: SubmitCommand, state: ActiveState): CustomerEvent[] {
  if (state.kycStatus === 'APPROVED' || state.kycStatus === 'REJECTED') throw alreadyResolved();
  const errors = individualRequirementErrors(state.customerId, state.profile, state.documents);
  if (command.scenario.individual === 'POOR_QUALITY_DOCUMENT') {
    const identityDocuments = state.documents.filter((document) => IDENTITY_DOCUMENT_TYPES.includes(document.documentType));
    const latest = identityDocuments[identityDocuments.length - 1];
    if (latest) {
      errors.push({
        resourceId: latest.documentId,
        type: 'POOR_QUALITY_DOCUMENT',
        acceptedDocumentTypes: IDENTITY_DOCUMENT_TYPES,
        reason: 'The identity document is of too poor a quality to read; upload a clearer copy',
      });
    }
    return [verificationEvent(state, command, 'RESOLVE_ERRORS', errors)];
  }
  if (errors.length > 0) return [verificationEvent(state, command, 'RESOLVE_ERRORS', errors)];
  const events = [verificationEvent(state, command, 'PENDING_MANUAL_REVIEW', [])];
  if (state.kycStatus !== 'PENDING') {
    events.push({
      type: 'CustomerKycStatusChanged',
      data: {
        customerId: state.customerId,
        platformId: state.platformId,
        previousStatus: state.kycStatus,
        kycStatus: 'PENDING',
        verificationId: command.verificationId,
        changedAt: command.now,
      },
    });
  }
  return events;
}

function decideBusinessVerification(command: SubmitCommand, state: ActiveState): CustomerEvent[] {
  if (state.kybStatus === 'APPROVED' || state.kybStatus === 'REJECTED') throw alreadyResolved();
  const kybChange = (kybStatus: KybStatus, ownerStatuses: KycStatus[]): CustomerEvent => ({
    type: 'CustomerKybStatusChanged',
    data: {
      customerId: state.customerId,
      platformId: state.platformId,
      previousStatus: state.kybStatus,
      kybStatus,
      beneficialOwnerKycStatuses: ownerStatuses,
      verificationId: command.verificationId,
      changedAt: command.now,
    },
  });
  const currentOwnerStatuses = state.profile.beneficialOwners.map((owner) => owner.kycStatus);
  switch (command.scenario.business) {
    case 'APPROVE':
      return [verificationEvent(state, command, 'APPROVED', []), kybChange('APPROVED', command.scenario.beneficialOwnerKycStatuses)];
    case 'REJECT':
      return [verificationEvent(state, command, 'REJECTED', []), kybChange('REJECTED', command.scenario.beneficialOwnerKycStatuses)];
    case 'CHECK_REQUIREMENTS': {
      const errors = businessRequirementErrors(state.customerId, state.profile, state.documents);
      if (errors.length > 0) return [verificationEvent(state, command, 'RESOLVE_ERRORS', errors)];
      const events = [verificationEvent(state, command, 'PENDING_MANUAL_REVIEW', [])];
      if (state.kybStatus !== 'PENDING') events.push(kybChange('PENDING', currentOwnerStatuses));
      return events;
    }
  }
}
