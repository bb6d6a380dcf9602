import {
  BeneficialOwner,
  ContactVerificationStatus,
  CustomerEvent,
  CustomerProfile,
  CustomerType,
  DocumentRecord,
  evolveBeneficialOwners,
  KybStatus,
  KycStatus,
} from '../../src/customers';

/**
 * The `customers` read model's own state of one customer: what its GET view and the list filters
 * show, and its documents (their views are rewritten when the personal data is erased), folded
 * from the customer's events. The write-only tax identifier is never kept, and neither is what
 * only the write side decides on (verifications, opened accounts, erased data keys).
 */
export interface CustomerRecord {
  status: 'active' | 'deleted';
  customerId: string;
  platformId: string;
  customerType: CustomerType;
  platformCustomerId: string;
  umaAddress: string;
  profile: ShownProfile;
  kycStatus: KycStatus | null;
  kybStatus: KybStatus | null;
  documents: ShownDocument[];
  /** The status of each channel the provider requires (absent when none is). */
  contactVerification?: { email?: { status: ContactVerificationStatus }; phone?: { status: ContactVerificationStatus } };
  createdAt: string;
  updatedAt: string;
}

/** The profile without the write-only tax identifier. */
export type ShownProfile = Omit<CustomerProfile, 'taxIdentifier'>;

/** A document without the file's digest, which no view shows, nor the write side's count of verifications. */
export type ShownDocument = Omit<DocumentRecord, 'sha256' | 'verificationsBefore'>;

type Created = Extract<CustomerEvent, { type: 'CustomerCreated' }>['data'];

/** Folds one event into the customer's record; null while the customer was never created. */
export function evolveCustomerRecord(record: CustomerRecord | null, event: CustomerEvent): CustomerRecord | null {
  if (event.type === 'CustomerCreated') return createdCustomer(event.data);
  if (record === null) return null;
  switch (event.type) {
    case 'CustomerUpdated': {
      const { taxIdentifier: _writeOnly, ...changes } = event.data.changes;
      const umaAddress = event.data.umaAddress ?? record.umaAddress;
      return { ...record, umaAddress, profile: { ...record.profile, ...changes }, updatedAt: event.data.updatedAt };
    }
    case 'CustomerDeleted':
      return { ...record, status: 'deleted', updatedAt: event.data.deletedAt };
    case 'CustomerKycStatusChanged':
      return { ...record, kycStatus: event.data.kycStatus, updatedAt: event.data.changedAt };
    case 'CustomerKybStatusChanged': {
      const beneficialOwners = ownersResolved(record.profile.beneficialOwners, event.data.beneficialOwnerKycStatuses, event.data.changedAt);
      return { ...record, kybStatus: event.data.kybStatus, profile: { ...record.profile, beneficialOwners }, updatedAt: event.data.changedAt };
    }
    case 'DocumentUploaded': {
      const { customerId: _customerId, platformId: _platformId, sha256: _sha256, ...document } = event.data;
      return { ...record, documents: [...record.documents, document] };
    }
    case 'DocumentReplaced': {
      const { customerId: _customerId, platformId: _platformId, sha256: _sha256, replacedAt, ...revision } = event.data;
      const documents = record.documents.map((document) =>
        document.documentId === revision.documentId
          ? { ...revision, ...(document.holderId === undefined ? {} : { holderId: document.holderId }), uploadedAt: document.uploadedAt, updatedAt: replacedAt }
          : document,
      );
      return { ...record, documents };
    }
    case 'DocumentDeleted':
      return { ...record, documents: record.documents.filter((document) => document.documentId !== event.data.documentId) };
    case 'CustomerPersonalDataErased':
      return { ...record, ...withoutPersonalSecrets(record), updatedAt: event.data.erasedAt };
    case 'BeneficialOwnerAdded':
    case 'BeneficialOwnerUpdated':
      return evolveBeneficialOwners(record, event);
    case 'ContactVerificationRequirementSet': {
      const { email, phone } = event.data.channels;
      const contactVerification = { ...(email ? { email: { status: email } } : {}), ...(phone ? { phone: { status: phone } } : {}) };
      return { ...record, contactVerification, updatedAt: event.data.setAt };
    }
    case 'ContactVerified': {
      const key = event.data.channel === 'EMAIL' ? 'email' : 'phone';
      return { ...record, contactVerification: { ...record.contactVerification, [key]: { status: 'VERIFIED' } }, updatedAt: event.data.verifiedAt };
    }
    case 'ContactVerificationCodeSent':
    case 'ContactVerificationCodeRejected':
      // Codes and wrong attempts are the write side's: the shown status does not change.
    case 'KycLinkIssued':
    case 'KycLinkCompleted':
      // Links are the write side's (the verification a link runs has its own events).
    case 'VerificationSubmitted':
    case 'CustomerInternalAccountsOpened':
      // Neither changes the customer as shown (a verification has a row and a view of its own).
      return record;
  }
}

function createdCustomer(data: Created): CustomerRecord {
  const { taxIdentifier: _writeOnly, ...profile } = data.profile;
  return {
    status: 'active',
    customerId: data.customerId,
    platformId: data.platformId,
    customerType: data.customerType,
    platformCustomerId: data.platformCustomerId,
    umaAddress: data.umaAddress,
    profile,
    kycStatus: null,
    kybStatus: null,
    documents: [],
    createdAt: data.createdAt,
    updatedAt: data.createdAt,
  };
}

/** Each owner takes its status of the KYB change (by position); an owner whose status moved is updated then. */
function ownersResolved(owners: BeneficialOwner[], statuses: KycStatus[], changedAt: string): BeneficialOwner[] {
  return owners.map((owner, index) => {
    const kycStatus = statuses[index] ?? owner.kycStatus;
    return kycStatus === owner.kycStatus ? owner : { ...owner, kycStatus, updatedAt: changedAt };
  });
}

/**
 * After an erasure the values sealed until then cannot be opened, and plain values from older
 * events are no longer shown: owners' identifiers show as erased, document numbers are dropped.
 */
function withoutPersonalSecrets(record: CustomerRecord): Pick<CustomerRecord, 'profile' | 'documents'> {
  const beneficialOwners = record.profile.beneficialOwners.map((owner) =>
    owner.personalInfo.identifier === null ? owner : { ...owner, identifierErased: true, personalInfo: { ...owner.personalInfo, identifier: null } },
  );
  return {
    profile: { ...record.profile, beneficialOwners },
    documents: record.documents.map((document) => (document.documentNumber === null ? document : { ...document, documentNumber: null })),
  };
}
