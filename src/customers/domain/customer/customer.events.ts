/**
 * Events of the customer stream (`customer-<uuid>`). Documents and verifications live in the
 * customer's stream: a verification decides on the customer's data and documents, so keeping
 * them in one stream makes that decision consistent without cross-stream reads.
 */
export type CustomerType = 'INDIVIDUAL' | 'BUSINESS';
export type KycStatus = 'UNVERIFIED' | 'PENDING' | 'APPROVED' | 'REJECTED';
export type KybStatus = 'UNVERIFIED' | 'PENDING' | 'APPROVED' | 'REJECTED';
export type VerificationStatus = 'RESOLVE_ERRORS' | 'PENDING_MANUAL_REVIEW' | 'APPROVED' | 'REJECTED';

export type Address = {
  line1: string;
  line2: string | null;
  city: string;
  state: string | null;
  postalCode: string;
  country: string;
};

export type BusinessInfo = {
  legalName: string;
  registrationNumber: string | null;
  taxId: string | null;
  incorporationDate: string | null;
  entityType: string | null;
};

export type BeneficialOwnerPersonalInfo = {
  firstName: string | null;
  middleName: string | null;
  lastName: string;
  birthDate: string | null;
  nationality: string | null;
  email: string | null;
  phoneNumber: string | null;
  address: Address | null;
  idType: string | null;
  /** Write-only: kept for verification, never returned. */
  identifier: string | null;
};

export type BeneficialOwner = {
  personalInfo: BeneficialOwnerPersonalInfo;
  roles: string[];
  ownershipPercentage: number | null;
  kycStatus: KycStatus;
};

/** Every field a platform may set on a customer (creation and PATCH). Absent = unchanged. */
export type CustomerProfile = {
  region: string | null;
  email: string | null;
  phoneNumber: string | null;
  address: Address | null;
  fullName: string | null;
  birthDate: string | null;
  nationality: string | null;
  taxIdType: string | null;
  /** Write-only: kept for verification, never returned. */
  taxIdentifier: string | null;
  businessInfo: BusinessInfo | null;
  beneficialOwners: BeneficialOwner[];
};

export type VerificationError = {
  resourceId: string;
  type: string;
  field?: string;
  acceptedDocumentTypes?: string[];
  reason: string;
};

export type DocumentRecord = {
  documentId: string;
  documentType: string;
  side: string | null;
  country: string;
  documentNumber: string | null;
  issuingAuthority: string | null;
  fileName: string;
  contentType: string;
  sizeBytes: number;
  sha256: string;
  uploadedAt: string;
};

export type CustomerCreated = {
  type: 'CustomerCreated';
  data: {
    customerId: string;
    platformId: string;
    customerType: CustomerType;
    platformCustomerId: string;
    umaAddress: string;
    profile: CustomerProfile;
    createdAt: string;
  };
};

export type CustomerUpdated = {
  type: 'CustomerUpdated';
  data: { customerId: string; platformId: string; changes: Partial<CustomerProfile>; updatedAt: string };
};

export type CustomerDeleted = {
  type: 'CustomerDeleted';
  data: { customerId: string; platformId: string; platformCustomerId: string; umaAddress: string; deletedAt: string };
};

/** Emitted for every KYC status an individual takes, the initial one included. */
export type CustomerKycStatusChanged = {
  type: 'CustomerKycStatusChanged';
  data: {
    customerId: string;
    platformId: string;
    previousStatus: KycStatus | null;
    kycStatus: KycStatus;
    verificationId: string | null;
    changedAt: string;
  };
};

/** Emitted for every KYB status a business takes; beneficial owners resolve with it. */
export type CustomerKybStatusChanged = {
  type: 'CustomerKybStatusChanged';
  data: {
    customerId: string;
    platformId: string;
    previousStatus: KybStatus | null;
    kybStatus: KybStatus;
    /** Each beneficial owner's KYC status after this change, in the customer's order. */
    beneficialOwnerKycStatuses: KycStatus[];
    verificationId: string | null;
    changedAt: string;
  };
};

export type DocumentUploaded = {
  type: 'DocumentUploaded';
  data: DocumentRecord & { customerId: string; platformId: string };
};

/** A `POST /verifications` result: one event per verification (its status is final here). */
export type VerificationSubmitted = {
  type: 'VerificationSubmitted';
  data: {
    customerId: string;
    platformId: string;
    verificationId: string;
    verificationStatus: VerificationStatus;
    errors: VerificationError[];
    submittedAt: string;
  };
};

export type CustomerEvent =
  | CustomerCreated
  | CustomerUpdated
  | CustomerDeleted
  | CustomerKycStatusChanged
  | CustomerKybStatusChanged
  | DocumentUploaded
  | VerificationSubmitted;

export const CUSTOMER_EVENT_TYPES: CustomerEvent['type'][] = [
  'CustomerCreated',
  'CustomerUpdated',
  'CustomerDeleted',
  'CustomerKycStatusChanged',
  'CustomerKybStatusChanged',
  'DocumentUploaded',
  'VerificationSubmitted',
];
