import { StoredExternalAccountType } from './account-identifiers';

/** Events of an external account stream (`externalAccount-<uuid>`). */
export type BeneficiaryVerificationStatus =
  | 'MATCHED'
  | 'PARTIAL_MATCH'
  | 'NOT_MATCHED'
  | 'UNSUPPORTED'
  | 'CHECKED_BY_RECEIVING_FI'
  | 'PENDING';

export type BeneficiaryAddress = {
  line1: string;
  line2?: string | null;
  city?: string | null;
  state?: string | null;
  postalCode: string;
  country: string;
};

/**
 * The beneficiary as given (only the fields given are stored). INDIVIDUAL carries `fullName`,
 * BUSINESS `legalName`; events stored before the reference's shapes carry `fullName` for both and
 * nulls for absent fields (read models map them).
 */
export type Beneficiary = {
  beneficiaryType: 'INDIVIDUAL' | 'BUSINESS';
  fullName?: string;
  legalName?: string;
  birthDate?: string | null;
  nationality?: string | null;
  email?: string | null;
  phoneNumber?: string;
  countryOfResidence?: string;
  registrationNumber?: string;
  taxId?: string;
  documentType?: string;
  documentNumber?: string;
  address?: BeneficiaryAddress | null;
};

/** The beneficiary's name whatever its type (INDIVIDUAL `fullName`, BUSINESS `legalName`). */
export function beneficiaryName(beneficiary: Beneficiary | null | undefined): string | null {
  if (!beneficiary) return null;
  return beneficiary.legalName ?? beneficiary.fullName ?? null;
}

export type AccountInfo = {
  accountType: StoredExternalAccountType;
  /**
   * The identifier fields of the account type (accountNumber, iban, clabeNumber, address, ...).
   * Older events may carry legacy names (MXN `clabe`, USD `accountCategory`): see wireIdentifiers.
   */
  identifiers: Record<string, string>;
  paymentRails: string[];
  beneficiary: Beneficiary | null;
};

export type TrustAction = 'TRUST' | 'UNTRUST';

/**
 * Status of an external account: UNDER_REVIEW while its beneficiary name check is pending, then
 * ACTIVE; a self-custody wallet whose ownership must be proven is PENDING_OWNERSHIP_VERIFICATION,
 * UNVERIFIED after a failed attempt, ACTIVE once proven. PENDING and INACTIVE do not occur.
 */
export type ExternalAccountStatus = 'PENDING' | 'ACTIVE' | 'PENDING_OWNERSHIP_VERIFICATION' | 'UNVERIFIED' | 'UNDER_REVIEW' | 'INACTIVE';

/** Why an external account's status changed. */
export type ExternalAccountStatusReason =
  | 'BENEFICIARY_CHECK_RESOLVED'
  /** A new ownership challenge took an UNVERIFIED account back to PENDING_OWNERSHIP_VERIFICATION. */
  | 'OWNERSHIP_CHALLENGE_ISSUED'
  | 'OWNERSHIP_VERIFIED'
  | 'OWNERSHIP_VERIFICATION_FAILED';

/** The reference's OwnershipVerificationMethod. */
export type OwnershipVerificationMethod = 'WALLET_SIGNATURE' | 'LIVENESS';

/** The reference's Bitcoin message-signing formats (Spark wallets sign as Bitcoin does). */
export type SignatureScheme = 'bip137' | 'electrum';

/** Why an ownership attempt failed. */
export type OwnershipFailureReason = 'INVALID_SIGNATURE' | 'CHALLENGE_EXPIRED' | 'LIVENESS_FAILED';

export type ExternalAccountCreated = {
  type: 'ExternalAccountCreated';
  data: {
    externalAccountId: string;
    platformId: string;
    /** Null: the platform's own account (`/platform/external-accounts`). */
    customerId: string | null;
    currency: string;
    platformAccountId: string | null;
    accountInfo: AccountInfo;
    primaryIdentifier: string;
    beneficiaryVerification: { status: BeneficiaryVerificationStatus; verifiedFullName: string | null } | null;
    /** FIRST_PARTY or THIRD_PARTY when the platform said (absent from older events). */
    ownershipType?: 'FIRST_PARTY' | 'THIRD_PARTY';
    /** Whether UMA payments to the customer land here (absent from older events: false). */
    defaultUmaDepositAccount?: boolean;
    /** The status it was created with (absent from older events: ACTIVE, as they were shown). */
    accountStatus?: ExternalAccountStatus;
    createdAt: string;
  };
};

export type ExternalAccountDeleted = {
  type: 'ExternalAccountDeleted';
  data: { externalAccountId: string; platformId: string; deletedAt: string };
};

/** A trust or untrust ceremony started: the SCA challenge the customer must satisfy. */
export type BeneficiaryTrustChallengeIssued = {
  type: 'BeneficiaryTrustChallengeIssued';
  data: {
    externalAccountId: string;
    platformId: string;
    action: TrustAction;
    challengeId: string;
    factor: 'SMS_OTP';
    expiresAt: string;
    issuedAt: string;
  };
};

export type BeneficiaryTrusted = {
  type: 'BeneficiaryTrusted';
  data: { externalAccountId: string; platformId: string; challengeId: string; trustedAt: string };
};

export type BeneficiaryUntrusted = {
  type: 'BeneficiaryUntrusted';
  data: { externalAccountId: string; platformId: string; challengeId: string; untrustedAt: string };
};

/**
 * A name check that answered PENDING at creation came back (sandbox: after
 * `SANDBOX_BENEFICIARY_CHECK_DELAY_MS`). Only a PENDING check is ever resolved.
 */
export type BeneficiaryVerificationResolved = {
  type: 'BeneficiaryVerificationResolved';
  data: {
    externalAccountId: string;
    platformId: string;
    status: Exclude<BeneficiaryVerificationStatus, 'PENDING'>;
    verifiedFullName: string | null;
    resolvedAt: string;
  };
};

/**
 * The account's status changed (`EXTERNAL_ACCOUNT.STATUS_UPDATED`), appended by the decision that
 * changes it with its other events; moves `updatedAt`.
 */
export type ExternalAccountStatusChanged = {
  type: 'ExternalAccountStatusChanged';
  data: {
    externalAccountId: string;
    platformId: string;
    previousStatus: ExternalAccountStatus;
    status: ExternalAccountStatus;
    reason: ExternalAccountStatusReason;
    changedAt: string;
  };
};

/**
 * An ownership challenge was issued (`POST .../{id}/challenge`); it replaces any earlier one. A
 * WALLET_SIGNATURE challenge carries the exact message to sign, a LIVENESS one the hosted link.
 */
export type OwnershipChallengeIssued = {
  type: 'OwnershipChallengeIssued';
  data: {
    externalAccountId: string;
    platformId: string;
    method: OwnershipVerificationMethod;
    /** Unique per challenge: in the message to sign, and the liveness session's id. */
    nonce: string;
    messageToSign?: string;
    verificationLink?: string;
    expiresAt: string;
    issuedAt: string;
  };
};

/** The outstanding challenge was met: the wallet's signature (kept as evidence) or the liveness check. */
export type OwnershipVerified = {
  type: 'OwnershipVerified';
  data: {
    externalAccountId: string;
    platformId: string;
    method: OwnershipVerificationMethod;
    nonce: string;
    signature?: string;
    signatureScheme?: SignatureScheme;
    verifiedAt: string;
  };
};

/** The outstanding challenge was answered wrongly or too late; it is used up. */
export type OwnershipVerificationFailed = {
  type: 'OwnershipVerificationFailed';
  data: {
    externalAccountId: string;
    platformId: string;
    method: OwnershipVerificationMethod;
    nonce: string;
    reason: OwnershipFailureReason;
    signature?: string;
    signatureScheme?: SignatureScheme;
    failedAt: string;
  };
};

export type ExternalAccountEvent =
  | ExternalAccountCreated
  | OwnershipChallengeIssued
  | OwnershipVerified
  | OwnershipVerificationFailed
  | BeneficiaryVerificationResolved
  | ExternalAccountStatusChanged
  | ExternalAccountDeleted
  | BeneficiaryTrustChallengeIssued
  | BeneficiaryTrusted
  | BeneficiaryUntrusted;

export const EXTERNAL_ACCOUNT_EVENT_TYPES: ExternalAccountEvent['type'][] = [
  'ExternalAccountCreated',
  'ExternalAccountDeleted',
  'BeneficiaryTrustChallengeIssued',
  'BeneficiaryTrusted',
  'BeneficiaryUntrusted',
  'BeneficiaryVerificationResolved',
  'ExternalAccountStatusChanged',
  'OwnershipChallengeIssued',
  'OwnershipVerified',
  'OwnershipVerificationFailed',
];
