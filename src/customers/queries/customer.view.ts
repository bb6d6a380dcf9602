import { RecordedEvent } from '../../infra/event-store/event-store.port';
import { CustomerRecord, CustomerState, customerDecider, VerificationRecord } from '../domain/customer/customer.decider';
import { Address, BusinessInfo, CustomerEvent, DocumentRecord, KybStatus, KycStatus, VerificationError, VerificationStatus } from '../domain/customer/customer.events';

/** A customer exactly as `GET /customers/{id}` returns it. */
interface CustomerViewBase {
  id: string;
  platformCustomerId: string;
  umaAddress: string;
  region: string | null;
  email: string | null;
  phoneNumber: string | null;
  address: Address | null;
  isDeleted: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface IndividualCustomerView extends CustomerViewBase {
  customerType: 'INDIVIDUAL';
  fullName: string | null;
  birthDate: string | null;
  nationality: string | null;
  taxIdType: string | null;
  kycStatus: KycStatus;
}

export interface BeneficialOwnerView {
  personalInfo: {
    firstName: string | null;
    middleName: string | null;
    lastName: string;
    birthDate: string | null;
    nationality: string | null;
    email: string | null;
    phoneNumber: string | null;
    address: Address | null;
    idType: string | null;
  };
  roles: string[];
  ownershipPercentage: number | null;
  kycStatus: KycStatus;
}

export interface BusinessCustomerView extends CustomerViewBase {
  customerType: 'BUSINESS';
  businessInfo: BusinessInfo;
  beneficialOwners: BeneficialOwnerView[];
  kybStatus: KybStatus;
}

export type CustomerView = IndividualCustomerView | BusinessCustomerView;

export interface VerificationView {
  id: string;
  customerId: string;
  verificationStatus: VerificationStatus;
  errors: VerificationError[];
  createdAt: string;
  updatedAt: string;
}

export interface DocumentView {
  id: string;
  documentHolder: string;
  documentType: string;
  side: string | null;
  country: string;
  documentNumber: string | null;
  issuingAuthority: string | null;
  fileName: string;
  contentType: string;
  sizeBytes: number;
  createdAt: string;
  updatedAt: string;
}

/** The GET view of a customer state (write-only fields such as tax identifiers are left out). */
export function customerView(state: { status: 'active' | 'deleted' } & CustomerRecord): CustomerView {
  const profile = state.profile;
  const base: CustomerViewBase = {
    id: state.customerId,
    platformCustomerId: state.platformCustomerId,
    umaAddress: state.umaAddress,
    region: profile.region,
    email: profile.email,
    phoneNumber: profile.phoneNumber,
    address: profile.address,
    isDeleted: state.status === 'deleted',
    createdAt: state.createdAt,
    updatedAt: state.updatedAt,
  };
  if (state.customerType === 'INDIVIDUAL') {
    return {
      ...base,
      customerType: 'INDIVIDUAL',
      fullName: profile.fullName,
      birthDate: profile.birthDate,
      nationality: profile.nationality,
      taxIdType: profile.taxIdType,
      kycStatus: state.kycStatus ?? 'UNVERIFIED',
    };
  }
  return {
    ...base,
    customerType: 'BUSINESS',
    businessInfo: profile.businessInfo ?? { legalName: '', registrationNumber: null, taxId: null, incorporationDate: null, entityType: null },
    beneficialOwners: profile.beneficialOwners.map((owner) => {
      const { identifier: _identifier, ...personalInfo } = owner.personalInfo;
      return { personalInfo, roles: owner.roles, ownershipPercentage: owner.ownershipPercentage, kycStatus: owner.kycStatus };
    }),
    kybStatus: state.kybStatus ?? 'UNVERIFIED',
  };
}

export function verificationView(customerId: string, record: VerificationRecord): VerificationView {
  return {
    id: record.verificationId,
    customerId,
    verificationStatus: record.verificationStatus,
    errors: record.errors,
    createdAt: record.submittedAt,
    updatedAt: record.submittedAt,
  };
}

export function documentView(customerId: string, document: DocumentRecord): DocumentView {
  return {
    id: document.documentId,
    documentHolder: customerId,
    documentType: document.documentType,
    side: document.side,
    country: document.country,
    documentNumber: document.documentNumber,
    issuingAuthority: document.issuingAuthority,
    fileName: document.fileName,
    contentType: document.contentType,
    sizeBytes: document.sizeBytes,
    createdAt: document.uploadedAt,
    updatedAt: document.uploadedAt,
  };
}

/**
 * Folds a customer stream (up to any event) into its state: the same fold the read model uses,
 * so a webhook built "as of" an event equals what GET answered at that moment.
 */
export function customerStateFromEvents(events: Array<Pick<RecordedEvent, 'type' | 'data'>>): CustomerState {
  let state = customerDecider.initialState();
  for (const event of events) state = customerDecider.evolve(state, event as unknown as CustomerEvent);
  return state;
}

/** The customer view as of the last of `events`, or null before the customer exists. */
export function customerViewFromEvents(events: Array<Pick<RecordedEvent, 'type' | 'data'>>): CustomerView | null {
  const state = customerStateFromEvents(events);
  return state.status === 'none' ? null : customerView(state);
}

/** A verification as of the last of `events` (its customer's stream), or null before it exists. */
export function verificationViewFromEvents(events: Array<Pick<RecordedEvent, 'type' | 'data'>>, verificationId: string): VerificationView | null {
  const state = customerStateFromEvents(events);
  if (state.status === 'none') return null;
  const record = state.verifications.find((candidate) => candidate.verificationId === verificationId);
  return record ? verificationView(state.customerId, record) : null;
}
