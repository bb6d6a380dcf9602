import { Decider } from '../../../infra/domain/decider';
import { DomainError } from '../../../infra/domain/domain-error';
import { CustomerEvent, CustomerProfile } from './customer.events';
import { CustomerCommand, CustomerRecord, CustomerState } from './customer.state';
import { decideVerification } from './verification.decisions';
import { decideErasure, withoutPersonalSecrets } from './personal-data-fields';
import { contactVerificationAfterUpdate, contactVerificationAtCreation } from './contact-verification';
import { decideContactVerification, evolveContactVerification, gateVerification } from './contact-verification';
import { assertKnownTermsVersion } from './end-user-terms';
import { decideInternalAccounts } from './internal-accounts-opened';
import { assertDocumentHolder, decideDocumentChange, evolveDocuments, individualScenarioAfterReplacements } from './documents';
import { decideBeneficialOwners, evolveBeneficialOwners, kybAfterOwnersReplaced } from './beneficial-owners';
import { decideKycLinks, evolveKycLinks } from './kyc-links';

export type { CustomerCommand, CustomerRecord, CustomerState, VerificationRecord, VerificationScenario } from './customer.state';

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
          ...kybAfterOwnersReplaced(state, changes.beneficialOwners, command.now),
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
        assertDocumentHolder(state, command.document.holderId);
        return [{ type: 'DocumentUploaded', data: { ...command.document, customerId: state.customerId, platformId: state.platformId } }];
      }

      case 'ReplaceDocument':
      case 'DeleteDocument':
        return decideDocumentChange(command, state);

      case 'ErasePersonalData':
        return decideErasure(command, state);

      case 'SubmitVerification':
        requireActive(state);
        return gateVerification(
          state,
          decideVerification({ ...command, scenario: { ...command.scenario, individual: individualScenarioAfterReplacements(command.scenario.individual, state) } }, state),
        );

      case 'IssueKycLink':
      case 'CompleteKycLink':
        return decideKycLinks(command, state);

      case 'AddBeneficialOwner':
      case 'UpdateBeneficialOwner':
        return decideBeneficialOwners(command, state);

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
      case 'DocumentUploaded':
      case 'DocumentReplaced':
      case 'DocumentDeleted':
        return state.status === 'none' ? state : evolveDocuments(state, event);
      case 'CustomerPersonalDataErased':
        if (state.status === 'none') return state;
        return {
          ...state,
          ...withoutPersonalSecrets(state.profile, state.documents),
          erasedPersonalDataKeyIds: [...(state.erasedPersonalDataKeyIds ?? []), event.data.keyId],
          updatedAt: event.data.erasedAt,
        };
      case 'KycLinkIssued':
      case 'KycLinkCompleted':
        return state.status === 'none' ? state : evolveKycLinks(state, event);
      case 'BeneficialOwnerAdded':
      case 'BeneficialOwnerUpdated':
        return state.status === 'none' ? state : evolveBeneficialOwners(state, event);
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
