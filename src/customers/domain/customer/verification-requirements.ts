import { beneficialOwnerId } from './beneficial-owner-id';
import { BeneficialOwner, CustomerProfile, DocumentRecord, VerificationError } from './customer.events';

/**
 * What a verification needs (SPEC.md "Customer creation request"): for an individual, full
 * name, birth date, nationality, identification type and number (`idType`, `identifier`),
 * address and an identity document; for a business, legal name, country of incorporation,
 * registration number, incorporation date, tax id, address (the reference's BusinessInfo
 * requires these), at least one beneficial owner with full personal details, and a
 * legal-presence document. One error per missing item; an owner's errors name the owner.
 */
export const IDENTITY_DOCUMENT_TYPES = ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'];
export const LEGAL_PRESENCE_DOCUMENT_TYPES = [
  'CERTIFICATE_OF_INCORPORATION',
  'ARTICLES_OF_INCORPORATION',
  'ARTICLES_OF_ASSOCIATION',
  'STATE_REGISTRY_EXCERPT',
];

export function individualRequirementErrors(customerId: string, profile: CustomerProfile, documents: DocumentRecord[]): VerificationError[] {
  const errors: VerificationError[] = [];
  const missing = (field: string, reason: string) => errors.push({ resourceId: customerId, type: 'MISSING_FIELD', field, reason });
  if (!profile.fullName) missing('fullName', 'Full name is required');
  if (!profile.birthDate) missing('birthDate', 'Date of birth is required');
  if (!profile.nationality) missing('nationality', 'Nationality is required');
  if (!profile.taxIdType) missing('idType', 'Identification type is required');
  if (!profile.taxIdentifier) missing('identifier', 'Identification number is required');
  if (!profile.address) missing('address', 'Residential address is required');
  if (!documents.some((document) => IDENTITY_DOCUMENT_TYPES.includes(document.documentType))) {
    errors.push({
      resourceId: customerId,
      type: 'MISSING_IDENTITY_DOCUMENT',
      acceptedDocumentTypes: IDENTITY_DOCUMENT_TYPES,
      reason: 'An identity document is required',
    });
  }
  return errors;
}

export function businessRequirementErrors(customerId: string, profile: CustomerProfile, documents: DocumentRecord[]): VerificationError[] {
  const errors: VerificationError[] = [];
  const missing = (field: string, reason: string) => errors.push({ resourceId: customerId, type: 'MISSING_FIELD', field, reason });
  const info = profile.businessInfo;
  if (!info?.legalName) missing('businessInfo.legalName', 'Legal name of the business is required');
  if (!info?.country) missing('businessInfo.country', 'Country of incorporation is required');
  if (!info?.registrationNumber) missing('businessInfo.registrationNumber', 'Business registration number is required');
  if (!info?.incorporationDate) missing('businessInfo.incorporatedOn', 'Date of incorporation is required');
  if (!info?.taxId) missing('businessInfo.taxId', 'Business tax identification number is required');
  if (!profile.address) missing('address', 'Business address is required');
  if (profile.beneficialOwners.length === 0) {
    errors.push({ resourceId: customerId, type: 'MISSING_BENEFICIAL_OWNER', reason: 'At least one beneficial owner is required' });
  }
  profile.beneficialOwners.forEach((owner, index) => errors.push(...ownerErrors(customerId, owner, index)));
  // The business's own documents: an owner's (`holderId`) are the owner's.
  if (!documents.some((document) => document.holderId === undefined && LEGAL_PRESENCE_DOCUMENT_TYPES.includes(document.documentType))) {
    errors.push({
      resourceId: customerId,
      type: 'MISSING_LEGAL_PRESENCE_DOCUMENT',
      acceptedDocumentTypes: LEGAL_PRESENCE_DOCUMENT_TYPES,
      reason: 'A document proving the legal existence of the business is required',
    });
  }
  return errors;
}

/** Owners added since the reference's shapes always have these; older ones may not. */
function ownerErrors(customerId: string, owner: BeneficialOwner, index: number): VerificationError[] {
  const errors: VerificationError[] = [];
  const resourceId = beneficialOwnerId(customerId, owner, index);
  const info = owner.personalInfo;
  const required: Array<[keyof typeof info, string]> = [
    ['firstName', 'First name is required for beneficial owners'],
    ['birthDate', 'Date of birth is required for beneficial owners'],
    ['nationality', 'Nationality is required for beneficial owners'],
    ['address', 'Address is required for beneficial owners'],
    ['idType', 'Identification type is required for beneficial owners'],
    ['identifier', 'Identification number is required for beneficial owners'],
  ];
  for (const [field, reason] of required) {
    if (!info[field]) errors.push({ resourceId, type: 'MISSING_FIELD', field: `personalInfo.${field}`, reason });
  }
  if (owner.ownershipPercentage === null) {
    errors.push({ resourceId, type: 'MISSING_FIELD', field: 'ownershipPercentage', reason: 'Ownership percentage is required for beneficial owners' });
  }
  return errors;
}
