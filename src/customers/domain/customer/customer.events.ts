import { PersonalSecret } from '../../../infra/domain/personal-secret';
import { CONTACT_VERIFICATION_EVENT_TYPES, ContactVerificationEvent } from './contact-verification.events';
import { KYC_LINK_EVENT_TYPES, KycLinkEvent } from './kyc-link.events';

/**
 * Events of the customer stream (`customer-<uuid>`). Documents and verifications live in the
 * customer's stream: a verification decides on the customer's data and documents, so keeping
 * them in one stream makes that decision consistent without cross-stream reads.
 */
export type CustomerType = 'INDIVIDUAL' | 'BUSINESS';
/** `HOLD`: the provider paused the customer until it updates or adds information (then verify again). */
export type KycStatus = 'UNVERIFIED' | 'PENDING' | 'APPROVED' | 'REJECTED' | 'HOLD';
export type KybStatus = 'UNVERIFIED' | 'PENDING' | 'APPROVED' | 'REJECTED' | 'HOLD';
export type VerificationStatus = 'RESOLVE_ERRORS' | 'PENDING_MANUAL_REVIEW' | 'APPROVED' | 'REJECTED';

export type Address = {
  line1: string;
  line2: string | null;
  city: string | null;
  state: string | null;
  postalCode: string;
  country: string;
};

/**
 * The business's details. `incorporationDate` is the stored name of the reference's
 * `incorporatedOn` (events keep their names; the view maps it). The fields after `entityType`
 * came with the reference's BusinessInfo and are absent from older events.
 */
export type BusinessInfo = {
  legalName: string;
  registrationNumber: string | null;
  taxId: string | null;
  incorporationDate: string | null;
  entityType: string | null;
  doingBusinessAs?: string | null;
  /** Country of incorporation (ISO 3166-1 alpha-2). */
  country?: string | null;
  countriesOfOperation?: string[] | null;
  businessType?: string | null;
  purposeOfAccount?: string | null;
  sourceOfFunds?: string | null;
  expectedMonthlyTransactionCount?: string | null;
  expectedMonthlyTransactionVolume?: string | null;
  expectedRecipientJurisdictions?: string[] | null;
  naicsCode?: string | null;
  sourceOfFundsCategories?: string[] | null;
  sourceOfFundsOtherDescription?: string | null;
  purposeOfAccountOtherDescription?: string | null;
  expectedCounterpartyCountries?: string[] | null;
  primaryContactFirstName?: string | null;
  primaryContactLastName?: string | null;
};

/** An individual's enhanced due diligence answers (the reference's CustomerEdd), all optional. */
export type IndividualEdd = {
  sourceOfFundsCategories?: string[];
  sourceOfFundsOtherDescription?: string;
  sourceOfWealthCategories?: string[];
  sourceOfWealthOtherDescription?: string;
  purposeOfAccount?: string;
  purposeOfAccountOtherDescription?: string;
  expectedMonthlyTransactionCount?: string;
  expectedMonthlyTransactionVolume?: string;
  annualIncomeRange?: string;
  netWorthRange?: string;
  pepStatus?: string;
};

/** The end user's acceptance of the terms, as the platform recorded it. */
export type EndUserTermsConsent = {
  acceptedAt: string;
  ipAddress: string;
  termsVersion: string;
  acceptanceMethod: string;
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
  /**
   * Returned masked (all but the last 4 characters hidden). Sealed with the customer's data key
   * (field `beneficialOwners[<owner id>].identifier`); a plain string in older events.
   */
  identifier: PersonalSecret | null;
  countryOfIssuance?: string | null;
};

/**
 * `id` and `createdAt` are assigned when the owner is added (creation or a PATCH that replaces
 * the owners); older events lack them and the view derives them (see customer.view.ts).
 */
export type BeneficialOwner = {
  id?: string;
  createdAt?: string;
  personalInfo: BeneficialOwnerPersonalInfo;
  roles: string[];
  ownershipPercentage: number | null;
  kycStatus: KycStatus;
  /** Last KYC status change (state only, set by the fold). */
  updatedAt?: string;
  /** The identifier was erased (state only, set by the fold of CustomerPersonalDataErased). */
  identifierErased?: boolean;
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
  /** The reference's `idType` (IdentificationType); SPEC.md calls it `taxIdType`. */
  taxIdType: string | null;
  /**
   * The reference's `identifier`. Write-only: kept for verification, never returned. Sealed with
   * the customer's data key (field `taxIdentifier`); a plain string in older events.
   */
  taxIdentifier: PersonalSecret | null;
  businessInfo: BusinessInfo | null;
  beneficialOwners: BeneficialOwner[];
  /** Fields below came with the reference's customer shape; absent from older events. */
  countryOfIssuance?: string | null;
  currencies?: string[] | null;
  endUserTermsConsent?: EndUserTermsConsent | null;
  edd?: IndividualEdd | null;
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
  /** Sealed with the customer's data key (field `documents[<document id>].documentNumber`); plain in older events. */
  documentNumber: PersonalSecret | null;
  issuingAuthority: string | null;
  fileName: string;
  contentType: string;
  sizeBytes: number;
  sha256: string;
  uploadedAt: string;
  /** The beneficial owner the document is for (`BeneficialOwner:<uuid>`); absent: the customer itself. */
  holderId?: string;
  /** The last replacement (state only, set by the fold of DocumentReplaced; see documents.ts). */
  updatedAt?: string;
  /** How many verifications the customer had when this revision was recorded (state only; see documents.ts). */
  verificationsBefore?: number;
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
  data: {
    customerId: string;
    platformId: string;
    changes: Partial<CustomerProfile>;
    /** Set when the PATCH moved the customer to a new UMA address (its key was claimed first). */
    umaAddress?: string;
    updatedAt: string;
  };
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

/** `PUT /documents/{documentId}`: the document's new file and metadata (its id and `uploadedAt` stay). */
export type DocumentReplaced = {
  type: 'DocumentReplaced';
  data: Omit<DocumentRecord, 'uploadedAt' | 'updatedAt' | 'verificationsBefore'> & { customerId: string; platformId: string; replacedAt: string };
};

/** `DELETE /documents/{documentId}`: the document is no longer on file (its events stay, its files are removed). */
export type DocumentDeleted = {
  type: 'DocumentDeleted';
  data: { customerId: string; platformId: string; documentId: string; deletedAt: string };
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

/**
 * An operator erased the customer's secret personal data (`npm run customers:erase`): the data key
 * `keyId` is destroyed right after, which shreds every value sealed with it. Values stored in
 * plain text before fields were sealed stay in their events but are no longer shown.
 */
export type CustomerPersonalDataErased = {
  type: 'CustomerPersonalDataErased';
  data: {
    customerId: string;
    platformId: string;
    keyId: string;
    /** The operator who ran the erasure. */
    erasedBy: string;
    reason: string;
    erasedAt: string;
  };
};

/**
 * Internal accounts opened for the customer (src/accounts/provisioning/internal-account-provisioner.ts),
 * in the same commit as each account's `InternalAccountOpened`: the account opens only while the
 * customer is not deleted, decided on this stream. Accounts opened before this event existed are
 * not listed.
 */
export type CustomerInternalAccountsOpened = {
  type: 'CustomerInternalAccountsOpened';
  data: { customerId: string; platformId: string; accounts: Array<{ accountId: string; currency: string }>; openedAt: string };
};

/**
 * `POST /beneficial-owners`: an owner added to a business (docs/customers.md "Beneficial owners"),
 * with its id, creation time and sealed identifier already set.
 */
export type BeneficialOwnerAdded = {
  type: 'BeneficialOwnerAdded';
  /** `beneficialOwnerId` repeats `owner.id` so the owner's audit history finds the event. */
  data: { customerId: string; platformId: string; beneficialOwnerId: string; owner: BeneficialOwner; addedAt: string };
};

/** What a `PATCH /beneficial-owners/{id}` may change; `personalInfo` merges field by field. */
export type BeneficialOwnerChanges = {
  roles?: string[];
  ownershipPercentage?: number;
  personalInfo?: Partial<BeneficialOwnerPersonalInfo>;
};

/** The fields that changed; `kycStatus` is set when the change sent the owner's KYC back to UNVERIFIED. */
export type BeneficialOwnerUpdated = {
  type: 'BeneficialOwnerUpdated';
  data: {
    customerId: string;
    platformId: string;
    beneficialOwnerId: string;
    changes: BeneficialOwnerChanges;
    kycStatus?: KycStatus;
    updatedAt: string;
  };
};

export type CustomerEvent =
  | CustomerCreated
  | CustomerUpdated
  | CustomerDeleted
  | CustomerInternalAccountsOpened
  | CustomerKycStatusChanged
  | CustomerKybStatusChanged
  | DocumentUploaded
  | DocumentReplaced
  | DocumentDeleted
  | VerificationSubmitted
  | CustomerPersonalDataErased
  | BeneficialOwnerAdded
  | BeneficialOwnerUpdated
  | ContactVerificationEvent
  | KycLinkEvent;

export const CUSTOMER_EVENT_TYPES: CustomerEvent['type'][] = [
  'CustomerCreated',
  'CustomerUpdated',
  'CustomerDeleted',
  'CustomerInternalAccountsOpened',
  'CustomerKycStatusChanged',
  'CustomerKybStatusChanged',
  'DocumentUploaded',
  'DocumentReplaced',
  'DocumentDeleted',
  'VerificationSubmitted',
  'CustomerPersonalDataErased',
  'BeneficialOwnerAdded',
  'BeneficialOwnerUpdated',
  ...CONTACT_VERIFICATION_EVENT_TYPES,
  ...KYC_LINK_EVENT_TYPES,
];
