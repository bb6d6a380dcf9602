import { DomainError } from '../../../infra/domain/domain-error';
import { CustomerEvent, DocumentRecord, VerificationError, VerificationStatus } from './customer.events';
import { beneficialOwnerId } from './beneficial-owner-id';
import { BeneficialOwner } from './customer.events';
import { IDENTITY_DOCUMENT_TYPES } from './verification-requirements';

/**
 * Replacing and deleting a customer's documents (`PUT`/`DELETE /documents/{documentId}`), the
 * documents' fold, and how a replacement answers a verification's complaint (customer.decider.ts
 * wires them in; docs/customers.md "Documents").
 *
 * A document is *submitted for verification* once a verification that did not ask for fixes
 * (PENDING_MANUAL_REVIEW, APPROVED or REJECTED: under review or decided) was recorded while this
 * revision of it was on file. It is then the evidence of that decision: it can be neither deleted
 * (409) nor replaced (400). A document only RESOLVE_ERRORS verifications saw (one flagged
 * POOR_QUALITY_DOCUMENT, say) stays replaceable and deletable: fixing it is what they ask for.
 */
export type DocumentRevision = Omit<DocumentRecord, 'uploadedAt' | 'updatedAt' | 'verificationsBefore'>;

export type DocumentCommand =
  | { type: 'ReplaceDocument'; document: DocumentRevision; now: string }
  | { type: 'DeleteDocument'; documentId: string; now: string };

/** What these rules read of the customer's state (the decider's CustomerRecord has it all). */
export interface DocumentsSubject {
  status: 'active' | 'deleted';
  customerId: string;
  platformId: string;
  documents: DocumentRecord[];
  verifications: Array<{ verificationStatus: VerificationStatus; errors: VerificationError[] }>;
}

type DocumentEvent = Extract<CustomerEvent, { type: 'DocumentUploaded' | 'DocumentReplaced' | 'DocumentDeleted' }>;

export const DOCUMENT_SUBMITTED_FOR_VERIFICATION = 'DOCUMENT_SUBMITTED_FOR_VERIFICATION';

export function decideDocumentChange(command: DocumentCommand, state: { status: 'none' } | DocumentsSubject): CustomerEvent[] {
  const documentId = command.type === 'ReplaceDocument' ? command.document.documentId : command.documentId;
  const subject = assertDocumentChangeable(command.type, state, documentId);
  const ref = { customerId: subject.customerId, platformId: subject.platformId };
  if (command.type === 'ReplaceDocument') return [{ type: 'DocumentReplaced', data: { ...command.document, ...ref, replacedAt: command.now } }];
  return [{ type: 'DocumentDeleted', data: { ...ref, documentId, deletedAt: command.now } }];
}

/**
 * The checks of a change, also run by the handlers before they store a replacement's file (the
 * decision runs them again on the state it appends to). PUT declares 400 and 404 only, DELETE 404
 * and 409: a refused replacement is a bad request, a refused deletion a conflict.
 */
export function assertDocumentChangeable(
  change: DocumentCommand['type'],
  state: { status: 'none' } | DocumentsSubject,
  documentId: string,
): DocumentsSubject {
  const document = state.status === 'none' ? undefined : state.documents.find((candidate) => candidate.documentId === documentId);
  if (state.status === 'none' || !document) throw new DomainError('REFERENCE_NOT_FOUND', 'Document not found');
  const refuse = (message: string, reason: string) =>
    change === 'ReplaceDocument' ? new DomainError('INVALID_INPUT', message, { reason }) : new DomainError('CONFLICT', message, { reason });
  if (state.status === 'deleted') throw refuse('The customer was deleted', 'CUSTOMER_DELETED');
  if (submittedForVerification(state, document)) {
    const verb = change === 'ReplaceDocument' ? 'replaced' : 'deleted';
    throw refuse(`The document was submitted for verification; it can no longer be ${verb}`, DOCUMENT_SUBMITTED_FOR_VERIFICATION);
  }
  return state;
}

export function submittedForVerification(state: DocumentsSubject, document: DocumentRecord): boolean {
  return state.verifications.slice(document.verificationsBefore ?? 0).some((verification) => verification.verificationStatus !== 'RESOLVE_ERRORS');
}

/** Each revision notes how many verifications came before it: the ones after it were decided on it. */
export function evolveDocuments<S extends DocumentsSubject>(state: S, event: DocumentEvent): S {
  const verificationsBefore = state.verifications.length;
  switch (event.type) {
    case 'DocumentUploaded': {
      const { customerId: _customerId, platformId: _platformId, ...document } = event.data;
      return { ...state, documents: [...state.documents, { ...document, verificationsBefore }] };
    }
    case 'DocumentReplaced': {
      const { customerId: _customerId, platformId: _platformId, replacedAt, ...revision } = event.data;
      const documents = state.documents.map((document) =>
        document.documentId === revision.documentId
          ? { ...revision, ...holderOf(document), uploadedAt: document.uploadedAt, updatedAt: replacedAt, verificationsBefore }
          : document,
      );
      return { ...state, documents };
    }
    case 'DocumentDeleted':
      return { ...state, documents: state.documents.filter((document) => document.documentId !== event.data.documentId) };
  }
}

type IndividualScenario = 'CHECK_REQUIREMENTS' | 'POOR_QUALITY_DOCUMENT';

/**
 * The poor-quality scenario (sandbox) flags the customer's latest identity document. Replacing
 * that document after a verification flagged it is the fix the error asks for, so the next
 * verification checks the requirements instead of flagging the clearer copy again. A document
 * uploaded anew (POST) is flagged like the first one.
 */
export function individualScenarioAfterReplacements(scenario: IndividualScenario, state: DocumentsSubject): IndividualScenario {
  if (scenario !== 'POOR_QUALITY_DOCUMENT') return scenario;
  const identityDocuments = state.documents.filter((document) => IDENTITY_DOCUMENT_TYPES.includes(document.documentType));
  const latest = identityDocuments[identityDocuments.length - 1];
  return latest && replacedSinceFlagged(state, latest) ? 'CHECK_REQUIREMENTS' : scenario;
}

function replacedSinceFlagged(state: DocumentsSubject, document: DocumentRecord): boolean {
  if (document.updatedAt === undefined) return false;
  const flags = (verification: DocumentsSubject['verifications'][number]) =>
    verification.errors.some((error) => error.type === 'POOR_QUALITY_DOCUMENT' && error.resourceId === document.documentId);
  const lastFlagged = state.verifications.map(flags).lastIndexOf(true);
  return lastFlagged >= 0 && lastFlagged < (document.verificationsBefore ?? 0);
}

/**
 * A document for a beneficial owner names one of the business's owners (by the id its GET
 * shows); otherwise the holder does not exist: 404 like an unknown customer.
 */
export function assertDocumentHolder(state: { customerId: string; profile: { beneficialOwners: BeneficialOwner[] } }, holderId: string | undefined): void {
  if (holderId === undefined) return;
  const owners = state.profile.beneficialOwners.map((owner, index) => beneficialOwnerId(state.customerId, owner, index));
  if (!owners.includes(holderId)) throw new DomainError('REFERENCE_NOT_FOUND', 'Document holder not found');
}

/** A replacement keeps who the document is for. */
export function holderOf(document: DocumentRecord): { holderId?: string } {
  return document.holderId === undefined ? {} : { holderId: document.holderId };
}
