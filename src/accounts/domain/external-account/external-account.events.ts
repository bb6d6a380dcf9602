import { ExternalAccountType } from './account-identifiers';

/** Events of an external account stream (`externalAccount-<uuid>`). */
export type BeneficiaryVerificationStatus =
  | 'MATCHED'
  | 'PARTIAL_MATCH'
  | 'NOT_MATCHED'
  | 'UNSUPPORTED'
  | 'CHECKED_BY_RECEIVING_FI'
  | 'PENDING';

export type Beneficiary = {
  beneficiaryType: 'INDIVIDUAL' | 'BUSINESS';
  fullName: string;
  birthDate: string | null;
  nationality: string | null;
  email: string | null;
  address: {
    line1: string;
    line2: string | null;
    city: string;
    state: string | null;
    postalCode: string;
    country: string;
  } | null;
};

export type AccountInfo = {
  accountType: ExternalAccountType;
  /** The identifier fields of the account type (accountNumber, iban, address, ...). */
  identifiers: Record<string, string>;
  paymentRails: string[];
  beneficiary: Beneficiary | null;
};

export type TrustAction = 'TRUST' | 'UNTRUST';

export type ExternalAccountCreated = {
  type: 'ExternalAccountCreated';
  data: {
    externalAccountId: string;
    platformId: string;
    customerId: string;
    currency: string;
    platformAccountId: string | null;
    accountInfo: AccountInfo;
    primaryIdentifier: string;
    beneficiaryVerification: { status: BeneficiaryVerificationStatus; verifiedFullName: string | null } | null;
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

export type ExternalAccountEvent =
  | ExternalAccountCreated
  | BeneficiaryVerificationResolved
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
];
