import { lastThree } from './suffix';

/**
 * Sandbox beneficiary name verification (DECISIONS.md section 5): the `1xx` suffixes of the
 * primary identifier drive the result: `102` NOT_MATCHED, `103` PARTIAL_MATCH, `104` PENDING,
 * `105` the account is refused (400 INVALID_BANK_ACCOUNT), `106` UNSUPPORTED, `107`
 * CHECKED_BY_RECEIVING_FI, anything else MATCHED. A `104` check does not stay PENDING forever:
 * the receiving institution answers later (`pendingCheckOutcome`), as a real one would.
 */
export type BeneficiaryVerificationStatus =
  | 'MATCHED'
  | 'PARTIAL_MATCH'
  | 'NOT_MATCHED'
  | 'UNSUPPORTED'
  | 'CHECKED_BY_RECEIVING_FI'
  | 'PENDING';

export type BeneficiaryCheck =
  | { kind: 'INVALID_ACCOUNT' }
  | { kind: 'RESULT'; status: BeneficiaryVerificationStatus; verifiedFullName: string | null };

export function beneficiaryCheck(primaryIdentifier: string, beneficiaryName: string | null): BeneficiaryCheck {
  const suffix = lastThree(primaryIdentifier);
  switch (suffix) {
    case '102':
      return { kind: 'RESULT', status: 'NOT_MATCHED', verifiedFullName: null };
    case '103':
      return { kind: 'RESULT', status: 'PARTIAL_MATCH', verifiedFullName: beneficiaryName ? partialName(beneficiaryName) : null };
    case '104':
      return { kind: 'RESULT', status: 'PENDING', verifiedFullName: null };
    case '105':
      return { kind: 'INVALID_ACCOUNT' };
    case '106':
      return { kind: 'RESULT', status: 'UNSUPPORTED', verifiedFullName: null };
    case '107':
      return { kind: 'RESULT', status: 'CHECKED_BY_RECEIVING_FI', verifiedFullName: null };
    default:
      return { kind: 'RESULT', status: 'MATCHED', verifiedFullName: beneficiaryName };
  }
}

/**
 * What a PENDING (`104`) check resolves to once the sandbox's receiving institution answers:
 * MATCHED with the name given, the outcome a platform testing the pending path expects next.
 */
export function pendingCheckOutcome(beneficiaryName: string | null): { status: 'MATCHED'; verifiedFullName: string | null } {
  return { status: 'MATCHED', verifiedFullName: beneficiaryName };
}

/** "Jane Q Public" -> "J. Public": the kind of near miss a bank's name check reports. */
function partialName(fullName: string): string {
  const parts = fullName.trim().split(/\s+/);
  if (parts.length < 2) return `${fullName.trim().charAt(0)}.`;
  return `${parts[0].charAt(0)}. ${parts[parts.length - 1]}`;
}
