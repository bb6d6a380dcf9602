import { wireIdentifiers } from '../domain/external-account/account-identifiers';
import { ExternalAccountRecord } from '../domain/external-account/external-account.decider';
import { Beneficiary, BeneficiaryVerificationStatus, ExternalAccountStatus } from '../domain/external-account/external-account.events';

/**
 * An external account exactly as `GET /customers/external-accounts/{id}` returns it.
 * @example
 * {
 *   "id": "ExternalAccount:019a2a1c-0f3b-7e44-9a61-d27c5b80e3f9",
 *   "customerId": "Customer:019a2a17-5758-7d2e-8b1f-6c3e9a0d4f21",
 *   "status": "ACTIVE",
 *   "platformAccountId": "payee-77",
 *   "ownershipType": "THIRD_PARTY",
 *   "currency": "EUR",
 *   "defaultUmaDepositAccount": false,
 *   "beneficiaryVerificationStatus": "MATCHED",
 *   "beneficiaryVerifiedData": { "fullName": "Lukas Weber" },
 *   "trusted": false,
 *   "accountInfo": {
 *     "accountType": "EUR_ACCOUNT",
 *     "iban": "DE89370400440532013000",
 *     "swiftCode": "COBADEFFXXX",
 *     "paymentRails": ["SEPA_INSTANT", "SEPA"],
 *     "beneficiary": { "beneficiaryType": "INDIVIDUAL", "fullName": "Lukas Weber", "nationality": "DE", "countryOfResidence": "DE", "address": { "line1": "Friedrichstrasse 123", "city": "Berlin", "postalCode": "10117", "country": "DE" } }
 *   },
 *   "createdAt": "2025-10-28T09:31:52.406Z",
 *   "updatedAt": "2025-10-28T09:31:53.012Z"
 * }
 */
export interface ExternalAccountView {
  id: string;
  /** Absent for the platform's own accounts (`/platform/external-accounts`). */
  customerId?: string;
  /**
   * UNDER_REVIEW while the beneficiary name check is PENDING; PENDING_OWNERSHIP_VERIFICATION or
   * UNVERIFIED while a wallet's ownership is unproven; else ACTIVE (docs/accounts.md).
   */
  status: ExternalAccountStatus;
  platformAccountId: string | null;
  ownershipType?: 'FIRST_PARTY' | 'THIRD_PARTY';
  currency: string;
  defaultUmaDepositAccount: boolean;
  /** Present when a beneficiary was given: the result of the name check. */
  beneficiaryVerificationStatus?: BeneficiaryVerificationStatus;
  beneficiaryVerifiedData?: { fullName: string };
  /** A trusted beneficiary skips per-transaction SCA and cannot be deleted until untrusted. */
  trusted: boolean;
  accountInfo: Record<string, unknown> & { accountType: string; paymentRails: string[]; beneficiary?: Beneficiary };
  createdAt: string;
  updatedAt: string;
}

/** For other contexts: the view plus what a payment needs. */
export interface ExternalAccountDetails extends ExternalAccountView {
  accountType: string;
  /** accountNumber / iban / clabeNumber / pixKey / vpa / phoneNumber / address / invoice / bolt12 / lightningAddress. */
  primaryIdentifier: string;
  supportedRails: string[];
  /** The rail used when a request names none (the first supported one). */
  defaultPaymentRail: string;
}

/**
 * What an external account's view is made of. The write side's state and the read model's own
 * record (projections/external-accounts/external-account-record.ts) both carry it, so commands
 * and GETs answer the same view.
 */
export type ExternalAccountViewSource = Omit<ExternalAccountRecord, 'platformId' | 'pendingChallenge' | 'ownershipChallenge'>;

export function externalAccountView(record: ExternalAccountViewSource): ExternalAccountView {
  const accountInfo: ExternalAccountView['accountInfo'] = {
    accountType: record.accountInfo.accountType,
    ...wireIdentifiers(record.accountInfo.accountType, record.accountInfo.identifiers),
    paymentRails: record.accountInfo.paymentRails,
  };
  if (record.accountInfo.beneficiary) accountInfo.beneficiary = wireBeneficiary(record.accountInfo.beneficiary);
  const view: ExternalAccountView = {
    id: record.externalAccountId,
    ...(record.customerId !== null ? { customerId: record.customerId } : {}),
    status: record.accountStatus,
    platformAccountId: record.platformAccountId,
    currency: record.currency,
    defaultUmaDepositAccount: record.defaultUmaDepositAccount ?? false,
    trusted: record.trusted,
    accountInfo,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
  if (record.ownershipType) view.ownershipType = record.ownershipType;
  if (record.beneficiaryVerification) {
    view.beneficiaryVerificationStatus = record.beneficiaryVerification.status;
    if (record.beneficiaryVerification.verifiedFullName) {
      view.beneficiaryVerifiedData = { fullName: record.beneficiaryVerification.verifiedFullName };
    }
  }
  return view;
}

/**
 * The beneficiary under the reference's shapes: absent fields omitted (older events stored
 * nulls), and a BUSINESS beneficiary stored before `legalName` existed shows its name as one.
 */
function wireBeneficiary(stored: Beneficiary): Beneficiary {
  const wire: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(stored)) {
    if (value === null || value === undefined) continue;
    wire[name] = name === 'address' ? withoutNulls(value as Record<string, unknown>) : value;
  }
  if (stored.beneficiaryType === 'BUSINESS' && wire.legalName === undefined && wire.fullName !== undefined) {
    wire.legalName = wire.fullName;
    delete wire.fullName;
  }
  return wire as Beneficiary;
}

function withoutNulls(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== null && field !== undefined));
}

/** The details of an account from its view and its primary identifier (both kept by the read model). */
export function externalAccountDetails(view: ExternalAccountView, primaryIdentifier: string): ExternalAccountDetails {
  return {
    ...view,
    accountType: view.accountInfo.accountType,
    primaryIdentifier,
    supportedRails: view.accountInfo.paymentRails,
    defaultPaymentRail: view.accountInfo.paymentRails[0],
  };
}
