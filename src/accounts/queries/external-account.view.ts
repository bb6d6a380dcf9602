import { ExternalAccountRecord } from '../domain/external-account/external-account.decider';
import { Beneficiary, BeneficiaryVerificationStatus } from '../domain/external-account/external-account.events';

/** An external account exactly as `GET /customers/external-accounts/{id}` returns it. */
export interface ExternalAccountView {
  id: string;
  customerId: string;
  status: 'ACTIVE';
  platformAccountId: string | null;
  currency: string;
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
  /** accountNumber / iban / clabe / pixKey / address / invoice / lightningAddress. */
  primaryIdentifier: string;
  supportedRails: string[];
  /** The rail used when a request names none (the first supported one). */
  defaultPaymentRail: string;
}

export function externalAccountView(record: ExternalAccountRecord): ExternalAccountView {
  const accountInfo: ExternalAccountView['accountInfo'] = {
    accountType: record.accountInfo.accountType,
    ...record.accountInfo.identifiers,
    paymentRails: record.accountInfo.paymentRails,
  };
  if (record.accountInfo.beneficiary) accountInfo.beneficiary = record.accountInfo.beneficiary;
  const view: ExternalAccountView = {
    id: record.externalAccountId,
    customerId: record.customerId,
    status: 'ACTIVE',
    platformAccountId: record.platformAccountId,
    currency: record.currency,
    trusted: record.trusted,
    accountInfo,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
  if (record.beneficiaryVerification) {
    view.beneficiaryVerificationStatus = record.beneficiaryVerification.status;
    if (record.beneficiaryVerification.verifiedFullName) {
      view.beneficiaryVerifiedData = { fullName: record.beneficiaryVerification.verifiedFullName };
    }
  }
  return view;
}

export function externalAccountDetails(record: ExternalAccountRecord): ExternalAccountDetails {
  return {
    ...externalAccountView(record),
    accountType: record.accountInfo.accountType,
    primaryIdentifier: record.primaryIdentifier,
    supportedRails: record.accountInfo.paymentRails,
    defaultPaymentRail: record.accountInfo.paymentRails[0],
  };
}
