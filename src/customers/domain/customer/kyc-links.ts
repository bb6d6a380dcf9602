import { DomainError } from '../../../infra/domain/domain-error';
import { contactVerificationErrors } from './contact-verification';
import { CustomerEvent, CustomerProfile, CustomerType, DocumentRecord, VerificationError } from './customer.events';
import { CustomerCommand, CustomerRecord, CustomerState } from './customer.state';
import { KycLinkEvent, KycLinkRecord } from './kyc-link.events';
import { businessRequirementErrors, individualRequirementErrors } from './verification-requirements';

/**
 * Hosted KYC/KYB links (docs/customers.md "Hosted KYC/KYB link"), decided on the customer stream:
 * whether a link may be issued depends on the customer (deleted, contact verification), and its
 * use is followed by the customer's verification, so the customer's audit history tells the whole
 * story in order; two submissions of one link race on the stream's revision and the second finds
 * it used. A stream per link would add a stream read to every issue and use for nothing more.
 */
type IssueCommand = Extract<CustomerCommand, { type: 'IssueKycLink' }>;
type CompleteCommand = Extract<CustomerCommand, { type: 'CompleteKycLink' }>;
type ActiveState = { status: 'active' } & CustomerRecord;

export function decideKycLinks(command: IssueCommand | CompleteCommand, state: CustomerState): CustomerEvent[] {
  return command.type === 'IssueKycLink' ? decideIssue(command, state) : decideComplete(command, state);
}

/** Issuing changes nothing of the customer's status; refused while contact verification is pending. */
function decideIssue(command: IssueCommand, state: CustomerState): CustomerEvent[] {
  // The operation declares no 410: a deleted customer has no link to give.
  if (state.status !== 'active') throw new DomainError('USER_NOT_FOUND', 'Customer not found');
  const pending = contactVerificationErrors(state);
  if (pending.length > 0) {
    throw new DomainError('CONFLICT', "The customer's email and phone must be verified before a KYC link is generated", {
      reason: 'CONTACT_VERIFICATION_REQUIRED',
      fields: pending.map((error) => error.field),
    });
  }
  const { linkId, tokenHash, redirectUri, expiresAt, now } = command;
  return [{ type: 'KycLinkIssued', data: { customerId: state.customerId, platformId: state.platformId, linkId, tokenHash, redirectUri, expiresAt, issuedAt: now } }];
}

/** Marks the link used; the handler then runs `SubmitVerification`, the command of `POST /verifications`. */
function decideComplete(command: CompleteCommand, state: CustomerState): CustomerEvent[] {
  const link = usableKycLink(state, command.tokenHash, command.now);
  const { customerId, platformId } = state as ActiveState;
  return [{ type: 'KycLinkCompleted', data: { customerId, platformId, linkId: link.linkId, completedAt: command.now } }];
}

/**
 * The link a token's hash names, if it may be used at `now`; otherwise the refusal the hosted page
 * shows (`details.reason`: KYC_LINK_NOT_FOUND, KYC_LINK_USED, KYC_LINK_EXPIRED, CUSTOMER_DELETED,
 * VERIFICATION_ALREADY_RESOLVED).
 */
export function usableKycLink(state: CustomerState, tokenHash: string, now: string): KycLinkRecord {
  const link = state.status === 'none' ? undefined : state.kycLinks?.find((candidate) => candidate.tokenHash === tokenHash);
  if (!link || state.status === 'none') throw new DomainError('NOT_FOUND', 'This verification link is not valid', { reason: 'KYC_LINK_NOT_FOUND' });
  if (state.status === 'deleted') throw new DomainError('CUSTOMER_DELETED', 'The customer was deleted', { reason: 'CUSTOMER_DELETED' });
  if (link.completedAt !== null) throw new DomainError('CONFLICT', 'This verification link was already used', { reason: 'KYC_LINK_USED' });
  if (Date.parse(now) >= Date.parse(link.expiresAt)) {
    throw new DomainError('EXPIRED', 'This verification link has expired', { reason: 'KYC_LINK_EXPIRED', expiresAt: link.expiresAt });
  }
  // The verification would refuse (as POST /verifications does): the link is not used for nothing.
  const status = state.customerType === 'INDIVIDUAL' ? state.kycStatus : state.kybStatus;
  if (status === 'APPROVED' || status === 'REJECTED') {
    throw new DomainError('INVALID_INPUT', 'The customer has already been approved or rejected', { reason: 'VERIFICATION_ALREADY_RESOLVED' });
  }
  return link;
}

/** The fold; a link is not a change of the customer resource, so `updatedAt` stays. */
export function evolveKycLinks<S extends { kycLinks?: KycLinkRecord[] }>(state: S, event: KycLinkEvent): S {
  const links = state.kycLinks ?? [];
  switch (event.type) {
    case 'KycLinkIssued': {
      const { linkId, tokenHash, redirectUri, expiresAt, issuedAt } = event.data;
      return { ...state, kycLinks: [...links, { linkId, tokenHash, redirectUri, expiresAt, issuedAt, completedAt: null }] };
    }
    case 'KycLinkCompleted':
      return {
        ...state,
        kycLinks: links.map((link) => (link.linkId === event.data.linkId ? { ...link, completedAt: event.data.completedAt } : link)),
      };
  }
}

/** What the link's person still has to give: the requirements `POST /verifications` checks. */
export function kycLinkRequirements(state: { customerId: string; customerType: CustomerType; profile: CustomerProfile; documents: DocumentRecord[] }): VerificationError[] {
  const requirements = state.customerType === 'INDIVIDUAL' ? individualRequirementErrors : businessRequirementErrors;
  return requirements(state.customerId, state.profile, state.documents);
}
