import { DomainError } from '../../../infra/domain/domain-error';
import { CustomerCommand, CustomerRecord } from './customer.state';
import { CustomerEvent, KybStatus, KycStatus, VerificationError, VerificationStatus } from './customer.events';
import { businessRequirementErrors, IDENTITY_DOCUMENT_TYPES, individualRequirementErrors } from './verification-requirements';

/** The verification decisions of the customer decider (customer.decider.ts), kept apart for size. */
type ActiveState = { status: 'active' } & CustomerRecord;
type SubmitCommand = Extract<CustomerCommand, { type: 'SubmitVerification' }>;

/** `POST /verifications`: the individual's KYC or the business's KYB, decided on its data and documents. */
export function decideVerification(command: SubmitCommand, state: ActiveState): CustomerEvent[] {
  return state.customerType === 'INDIVIDUAL' ? decideIndividualVerification(command, state) : decideBusinessVerification(command, state);
}

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
  // A business on HOLD was asked for more: its next submission is checked against the requirements.
  const scenario = command.scenario.business === 'HOLD' && state.kybStatus === 'HOLD' ? 'CHECK_REQUIREMENTS' : command.scenario.business;
  switch (scenario) {
    case 'HOLD':
      return [verificationEvent(state, command, 'PENDING_MANUAL_REVIEW', []), kybChange('HOLD', currentOwnerStatuses)];
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
