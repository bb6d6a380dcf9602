import { ExternalAccountEvent, ExternalAccountStatus } from '../../src/accounts';

type Created = Extract<ExternalAccountEvent, { type: 'ExternalAccountCreated' }>['data'];

/**
 * The `external-accounts` read model's own state of one account: the account as created, whether
 * it is trusted, its name check, its status (`accountStatus`, the reference's; ACTIVE for accounts
 * created before statuses were recorded), and whether it was deleted, folded from its events. A
 * pending trust or ownership challenge is the write side's business (no view shows it), so it is
 * not kept here. `customerId` is null for the platform's own accounts.
 */
export type ExternalAccountRecord = Omit<Created, 'accountStatus'> & {
  status: 'active' | 'deleted';
  accountStatus: ExternalAccountStatus;
  trusted: boolean;
  updatedAt: string;
};

/** Folds one event into the account's record; null while the account was never created. */
export function evolveExternalAccountRecord(record: ExternalAccountRecord | null, event: ExternalAccountEvent): ExternalAccountRecord | null {
  if (event.type === 'ExternalAccountCreated') {
    return { status: 'active', ...event.data, accountStatus: event.data.accountStatus ?? 'ACTIVE', trusted: false, updatedAt: event.data.createdAt };
  }
  if (record === null) return null;
  switch (event.type) {
    case 'ExternalAccountDeleted':
      return { ...record, status: 'deleted', updatedAt: event.data.deletedAt };
    case 'BeneficiaryTrustChallengeIssued':
      // Shown nowhere until the challenge is answered (BeneficiaryTrusted, BeneficiaryUntrusted).
      return record;
    case 'BeneficiaryTrusted':
      return { ...record, trusted: true, updatedAt: event.data.trustedAt };
    case 'BeneficiaryUntrusted':
      return { ...record, trusted: false, updatedAt: event.data.untrustedAt };
    case 'BeneficiaryVerificationResolved':
      return {
        ...record,
        beneficiaryVerification: { status: event.data.status, verifiedFullName: event.data.verifiedFullName },
        updatedAt: event.data.resolvedAt,
      };
    case 'ExternalAccountStatusChanged':
      return { ...record, accountStatus: event.data.status, updatedAt: event.data.changedAt };
    case 'OwnershipChallengeIssued':
    case 'OwnershipVerified':
    case 'OwnershipVerificationFailed':
      // The challenge is the write side's business; the status change decided with it shows here.
      return record;
  }
}
