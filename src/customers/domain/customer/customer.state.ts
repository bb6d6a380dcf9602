import { ContactChannel, ContactVerificationCommand, ContactVerificationState } from './contact-verification';
import { BeneficialOwnerCommand } from './beneficial-owners';
import { CustomerProfile, CustomerType, DocumentRecord, KybStatus, KycStatus, VerificationError, VerificationStatus } from './customer.events';
import { DocumentCommand } from './documents';
import { KycLinkRecord } from './kyc-link.events';

/** The customer decider's state and commands (customer.decider.ts), apart so its parts can share them. */

export interface VerificationRecord {
  verificationId: string;
  verificationStatus: VerificationStatus;
  errors: VerificationError[];
  submittedAt: string;
}

export interface CustomerRecord {
  customerId: string;
  platformId: string;
  customerType: CustomerType;
  platformCustomerId: string;
  umaAddress: string;
  profile: CustomerProfile;
  kycStatus: KycStatus | null;
  kybStatus: KybStatus | null;
  documents: DocumentRecord[];
  verifications: VerificationRecord[];
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
  /** Internal accounts opened through this stream (absent before the first; see CustomerInternalAccountsOpened). */
  internalAccountIds?: string[];
  /** Data keys erased so far, oldest first (absent before the first erasure). */
  erasedPersonalDataKeyIds?: string[];
  /** The channels the provider requires and their progress (absent when none is required). */
  contactVerification?: ContactVerificationState;
  /** Hosted KYC/KYB links issued, oldest first (absent before the first; kyc-links.ts). */
  kycLinks?: KycLinkRecord[];
}

/** JSON-serialisable (the read model keeps it), a discriminated union on `status`. */
export type CustomerState = { status: 'none' } | ({ status: 'active' | 'deleted' } & CustomerRecord);

/**
 * How the sandbox resolves a verification (src/sandbox/kyc-scenarios.ts decides it from the
 * magic suffixes; the decider stays free of sandbox knowledge).
 */
export interface VerificationScenario {
  individual: 'CHECK_REQUIREMENTS' | 'POOR_QUALITY_DOCUMENT';
  business: 'CHECK_REQUIREMENTS' | 'APPROVE' | 'REJECT' | 'HOLD';
  /** Each beneficial owner's status if the business resolves terminally now. */
  beneficialOwnerKycStatuses: KycStatus[];
}

export type CustomerCommand =
  | {
      type: 'CreateCustomer';
      customerId: string;
      platformId: string;
      customerType: CustomerType;
      platformCustomerId: string;
      umaAddress: string;
      profile: CustomerProfile;
      /** Individuals only: the sandbox status fixed at creation. */
      initialKycStatus: KycStatus;
      /** The channels the customer's provider requires verified (src/customers/contact-verification-providers.ts). */
      contactChannels?: ContactChannel[];
      now: string;
    }
  | {
      type: 'UpdateCustomer';
      changes: Partial<CustomerProfile>;
      /** A new UMA address whose key the service has already claimed. */
      umaAddress?: string;
      now: string;
    }
  | { type: 'DeleteCustomer'; now: string }
  | {
      type: 'OpenInternalAccounts';
      /** Accounts the ledger has not opened yet (ids derived from customer and currency). */
      accounts: Array<{ accountId: string; currency: string }>;
      now: string;
    }
  | { type: 'UploadDocument'; document: DocumentRecord }
  | { type: 'SubmitVerification'; verificationId: string; scenario: VerificationScenario; now: string }
  | {
      type: 'ErasePersonalData';
      /** Whether the vault still holds the customer's current data key (values may be sealed with it). */
      currentKeyExists: boolean;
      erasedBy: string;
      reason: string;
      now: string;
    }
  | { type: 'IssueKycLink'; linkId: string; tokenHash: string; redirectUri: string | null; expiresAt: string; now: string }
  /** The link's person submitted it (single use); SubmitVerification follows (kyc-links.ts). */
  | { type: 'CompleteKycLink'; tokenHash: string; now: string }
  | BeneficialOwnerCommand
  | ContactVerificationCommand
  | DocumentCommand;
