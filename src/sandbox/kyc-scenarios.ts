import { lastThree } from './suffix';

/**
 * Sandbox KYC/KYB magic values (SPEC.md sandbox rules 1-2, DECISIONS.md section 5).
 *
 * Individuals: the last three characters of `fullName` fix `kycStatus` at creation:
 * `001` PENDING, `002` REJECTED, `003` UNVERIFIED, `004` HOLD, anything else APPROVED.
 * Businesses start UNVERIFIED; the last three characters of `businessInfo.registrationNumber`
 * decide what `POST /verifications` does: `001`/`003` check the real requirements (no automatic
 * decision), `002` rejects, `004` puts the business on HOLD (the next submission checks the
 * requirements), anything else approves. Beneficial owners resolve with the business
 * by the last three characters of `personalInfo.lastName`: `001` PENDING, `002` REJECTED, other
 * APPROVED.
 */
export type SandboxKycStatus = 'UNVERIFIED' | 'PENDING' | 'APPROVED' | 'REJECTED' | 'HOLD';

export function initialIndividualKycStatus(fullName: string | null | undefined): SandboxKycStatus {
  switch (lastThree(fullName)) {
    case '001':
      return 'PENDING';
    case '002':
      return 'REJECTED';
    case '003':
      return 'UNVERIFIED';
    case '004':
      return 'HOLD';
    default:
      return 'APPROVED';
  }
}

/** What `POST /verifications` does for an individual, by the `fullName` suffix. */
export type IndividualVerificationScenario = 'CHECK_REQUIREMENTS' | 'POOR_QUALITY_DOCUMENT';

export function individualVerificationScenario(fullName: string | null | undefined): IndividualVerificationScenario {
  return lastThree(fullName) === '003' ? 'POOR_QUALITY_DOCUMENT' : 'CHECK_REQUIREMENTS';
}

/** What `POST /verifications` does for a business, by the `registrationNumber` suffix. */
export type BusinessVerificationScenario = 'CHECK_REQUIREMENTS' | 'APPROVE' | 'REJECT' | 'HOLD';

export function businessVerificationScenario(registrationNumber: string | null | undefined): BusinessVerificationScenario {
  switch (lastThree(registrationNumber)) {
    case '001':
    case '003':
      return 'CHECK_REQUIREMENTS';
    case '002':
      return 'REJECT';
    case '004':
      return 'HOLD';
    default:
      return 'APPROVE';
  }
}

/** A beneficial owner's KYC status when the business resolves terminally. */
export function beneficialOwnerKycStatus(lastName: string | null | undefined): SandboxKycStatus {
  switch (lastThree(lastName)) {
    case '001':
      return 'PENDING';
    case '002':
      return 'REJECTED';
    default:
      return 'APPROVED';
  }
}
