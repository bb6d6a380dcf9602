import { ERASED_PLACEHOLDER, PersonalSecret, isSealed } from '../../infra/crypto/personal-data';
import { RecordedEvent } from '../../infra/event-store/event-store.port';
import { beneficialOwnerId } from '../domain/customer/beneficial-owner-id';
import { CustomerRecord, CustomerState, customerDecider, VerificationRecord } from '../domain/customer/customer.decider';
import {
  Address,
  BeneficialOwner,
  BusinessInfo,
  CustomerEvent,
  CustomerProfile,
  DocumentRecord,
  EndUserTermsConsent,
  IndividualEdd,
  KybStatus,
  KycStatus,
  VerificationError,
  VerificationStatus,
} from '../domain/customer/customer.events';
import { ContactChannelStatuses, ContactVerificationStatus } from '../domain/customer/contact-verification.events';

/**
 * A customer exactly as `GET /customers/{id}` returns it (the reference's IndividualCustomer or
 * BusinessCustomer). Null fields are dropped on the wire (src/infra/http/wire-json.ts).
 */
interface CustomerViewBase {
  id: string;
  platformCustomerId: string;
  umaAddress: string;
  region: string | null;
  currencies?: string[];
  email: string | null;
  phoneNumber: string | null;
  address: Address | null;
  endUserTermsConsent?: EndUserTermsConsent;
  /** Only the channels the customer's provider requires; absent when it requires none. */
  contactVerification?: ContactChannelStatuses;
  isDeleted: boolean;
  createdAt: string;
  updatedAt: string;
}

/**
 * An INDIVIDUAL customer.
 * @example
 * {
 *   "id": "Customer:019a2a17-5758-7d2e-8b1f-6c3e9a0d4f21",
 *   "platformCustomerId": "user-48213",
 *   "umaAddress": "$jane.doe@pay.example.com",
 *   "region": "US",
 *   "currencies": ["USD", "USDC"],
 *   "email": "jane.doe@example.com",
 *   "phoneNumber": "+14155550123",
 *   "address": { "line1": "500 Market Street", "line2": "Apt 12", "city": "San Francisco", "state": "CA", "postalCode": "94105", "country": "US" },
 *   "isDeleted": false,
 *   "createdAt": "2025-10-28T09:12:44.120Z",
 *   "updatedAt": "2025-10-28T09:15:02.871Z",
 *   "customerType": "INDIVIDUAL",
 *   "fullName": "Jane Doe",
 *   "birthDate": "1990-04-17",
 *   "nationality": "US",
 *   "kycStatus": "APPROVED"
 * }
 */
export interface IndividualCustomerView extends CustomerViewBase, IndividualEdd {
  customerType: 'INDIVIDUAL';
  fullName: string | null;
  birthDate: string | null;
  nationality: string | null;
  idType?: string;
  countryOfIssuance?: string;
  kycStatus: KycStatus;
}

export interface BeneficialOwnerView {
  id: string;
  customerId: string;
  roles: string[];
  ownershipPercentage: number | null;
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
    /** Masked: only the last 4 characters are shown. */
    identifier: string | null;
    countryOfIssuance?: string;
  };
  kycStatus: KycStatus;
  createdAt: string;
  updatedAt: string;
}

/** The reference's BusinessInfoResponse: `incorporatedOn` is stored as `incorporationDate`. */
export type BusinessInfoView = Omit<BusinessInfo, 'incorporationDate'> & { incorporatedOn?: string };

/**
 * A BUSINESS customer, with its beneficial owners (identifiers masked).
 * @example
 * {
 *   "id": "Customer:019a2a19-8c41-7a0e-b5d3-7e2f1c9a6b04",
 *   "platformCustomerId": "org-1207",
 *   "umaAddress": "$acme@pay.example.com",
 *   "region": "US",
 *   "email": "finance@acme.example.com",
 *   "isDeleted": false,
 *   "createdAt": "2025-10-28T09:15:10.977Z",
 *   "updatedAt": "2025-10-28T09:15:10.977Z",
 *   "customerType": "BUSINESS",
 *   "businessInfo": { "legalName": "Acme Widgets LLC", "registrationNumber": "5543210", "taxId": "84-1234567", "entityType": "LLC", "country": "US", "incorporatedOn": "2016-03-01" },
 *   "beneficialOwners": [
 *     {
 *       "id": "BeneficialOwner:019a2a19-8c41-7f12-9d8a-33b0e6c2a9f5",
 *       "customerId": "Customer:019a2a19-8c41-7a0e-b5d3-7e2f1c9a6b04",
 *       "roles": ["UBO", "DIRECTOR"],
 *       "ownershipPercentage": 60,
 *       "personalInfo": { "firstName": "Maria", "lastName": "Lopez", "birthDate": "1981-09-02", "nationality": "US", "idType": "SSN", "identifier": "*******4321" },
 *       "kycStatus": "APPROVED",
 *       "createdAt": "2025-10-28T09:15:10.977Z",
 *       "updatedAt": "2025-10-28T09:15:10.977Z"
 *     }
 *   ],
 *   "kybStatus": "PENDING"
 * }
 */
export interface BusinessCustomerView extends CustomerViewBase {
  customerType: 'BUSINESS';
  businessInfo: BusinessInfoView;
  beneficialOwners: BeneficialOwnerView[];
  kybStatus: KybStatus;
}

export type CustomerView = IndividualCustomerView | BusinessCustomerView;

/**
 * A view as the read model stores it: secret fields still sealed (see personal-data-views.ts,
 * which opens them at read time). Plain values from older events are stored as shown.
 */
export type StoredBeneficialOwnerView = Omit<BeneficialOwnerView, 'personalInfo'> & {
  personalInfo: Omit<BeneficialOwnerView['personalInfo'], 'identifier'> & { identifier: PersonalSecret | null };
};
export type StoredCustomerView = IndividualCustomerView | (Omit<BusinessCustomerView, 'beneficialOwners'> & { beneficialOwners: StoredBeneficialOwnerView[] });

/** The reference's IdentificationType: older events may hold other values, which are not shown. */
const IDENTIFICATION_TYPES = ['SSN', 'ITIN', 'EIN', 'NON_US_TAX_ID'];

export interface VerificationView {
  id: string;
  customerId: string;
  verificationStatus: VerificationStatus;
  errors: VerificationError[];
  createdAt: string;
  updatedAt: string;
}

export type StoredDocumentView = Omit<DocumentView, 'documentNumber'> & { documentNumber: PersonalSecret | null };

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

/**
 * What a customer's view is made of (the write-only tax identifier is not). The write side's state
 * and the read model's own record (projections/customers/customer-record.ts) both carry it, so
 * commands and GETs answer the same view.
 */
export type CustomerViewSource = {
  status: 'active' | 'deleted';
  profile: Omit<CustomerProfile, 'taxIdentifier'>;
  contactVerification?: { email?: { status: ContactVerificationStatus }; phone?: { status: ContactVerificationStatus } };
} & Pick<
  CustomerRecord,
  'customerId' | 'customerType' | 'platformCustomerId' | 'umaAddress' | 'kycStatus' | 'kybStatus' | 'createdAt' | 'updatedAt'
>;

/** A document as its view shows it (the file's digest is not shown). */
export type DocumentViewSource = Omit<DocumentRecord, 'sha256'>;

/**
 * The GET view of a customer (write-only fields such as identifiers are left out), as the read
 * model stores it: sealed fields stay sealed until `openCustomerView`.
 */
export function customerView(state: CustomerViewSource): StoredCustomerView {
  const profile = state.profile;
  const base: CustomerViewBase = {
    id: state.customerId,
    platformCustomerId: state.platformCustomerId,
    umaAddress: state.umaAddress,
    region: profile.region,
    ...(profile.currencies ? { currencies: profile.currencies } : {}),
    email: profile.email,
    phoneNumber: profile.phoneNumber,
    address: profile.address,
    ...(profile.endUserTermsConsent ? { endUserTermsConsent: profile.endUserTermsConsent } : {}),
    ...(state.contactVerification ? { contactVerification: contactVerificationView(state.contactVerification) } : {}),
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
      ...(profile.taxIdType && IDENTIFICATION_TYPES.includes(profile.taxIdType) ? { idType: profile.taxIdType } : {}),
      ...(profile.countryOfIssuance ? { countryOfIssuance: profile.countryOfIssuance } : {}),
      ...(profile.edd ?? {}),
      kycStatus: state.kycStatus ?? 'UNVERIFIED',
    };
  }
  return {
    ...base,
    customerType: 'BUSINESS',
    businessInfo: businessInfoView(profile.businessInfo),
    beneficialOwners: profile.beneficialOwners.map((owner, index) => beneficialOwnerView(state, owner, index)),
    kybStatus: state.kybStatus ?? 'UNVERIFIED',
  };
}

function contactVerificationView(source: NonNullable<CustomerViewSource['contactVerification']>): ContactChannelStatuses {
  return { ...(source.email ? { email: source.email.status } : {}), ...(source.phone ? { phone: source.phone.status } : {}) };
}

function businessInfoView(info: BusinessInfo | null): BusinessInfoView {
  if (!info) return { legalName: '', registrationNumber: null, taxId: null, entityType: null };
  const { incorporationDate, ...rest } = info;
  return { ...rest, ...(incorporationDate ? { incorporatedOn: incorporationDate } : {}) };
}

/** Owners stored before they had ids or creation times show derived ones (see beneficialOwnerId). */
function beneficialOwnerView(state: Pick<CustomerRecord, 'customerId' | 'createdAt'>, owner: BeneficialOwner, index: number): StoredBeneficialOwnerView {
  const { identifier, countryOfIssuance, ...personalInfo } = owner.personalInfo;
  const createdAt = owner.createdAt ?? state.createdAt;
  return {
    id: beneficialOwnerId(state.customerId, owner, index),
    customerId: state.customerId,
    roles: owner.roles,
    ownershipPercentage: owner.ownershipPercentage,
    personalInfo: {
      ...personalInfo,
      // A sealed identifier is opened and masked at read time; a plain one (older events) is masked
      // now. The contract requires the field: an erased one answers a placeholder.
      identifier: identifier === null ? (owner.identifierErased ? ERASED_PLACEHOLDER : null) : isSealed(identifier) ? identifier : maskIdentifier(identifier),
      ...(countryOfIssuance ? { countryOfIssuance } : {}),
    },
    kycStatus: owner.kycStatus,
    createdAt,
    updatedAt: owner.updatedAt ?? createdAt,
  };
}

/** `123-45-6789` -> `*******6789`: enough to tell owners apart, not enough to reuse. */
export function maskIdentifier(identifier: string): string {
  const shown = identifier.length > 4 ? identifier.slice(-4) : '';
  return '*'.repeat(identifier.length - shown.length) + shown;
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

export function documentView(customerId: string, document: DocumentViewSource): StoredDocumentView {
  return {
    id: document.documentId,
    documentHolder: document.holderId ?? customerId,
    documentType: document.documentType,
    side: document.side,
    country: document.country,
    documentNumber: document.documentNumber,
    issuingAuthority: document.issuingAuthority,
    fileName: document.fileName,
    contentType: document.contentType,
    sizeBytes: document.sizeBytes,
    createdAt: document.uploadedAt,
    updatedAt: document.updatedAt ?? document.uploadedAt,
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
export function customerViewFromEvents(events: Array<Pick<RecordedEvent, 'type' | 'data'>>): StoredCustomerView | null {
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
