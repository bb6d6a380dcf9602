import { beneficiaryCheck } from './beneficiary-checks';
import { beneficialOwnerKycStatus, businessVerificationScenario, initialIndividualKycStatus } from './kyc-scenarios';
import { lastThree } from './suffix';
import { transferScenario } from './transfer-scenarios';

describe('sandbox magic values (DECISIONS.md section 5)', () => {
  it('reads the suffix before the @ of domain identifiers', () => {
    expect(lastThree('alice.002@example.com')).toBe('002');
    expect(lastThree('123456004')).toBe('004');
    expect(lastThree('ab')).toBeNull();
  });

  it.each([
    ['Jane Doe001', 'PENDING'],
    ['Jane Doe002', 'REJECTED'],
    ['Jane Doe003', 'UNVERIFIED'],
    ['Jane Doe004', 'HOLD'],
    ['Jane Doe', 'APPROVED'],
  ])('individual %s starts %s', (fullName, status) => {
    expect(initialIndividualKycStatus(fullName)).toBe(status);
  });

  it('business registration numbers and beneficial owners', () => {
    expect(['R-001', 'R-002', 'R-003', 'R-004', 'R-999'].map(businessVerificationScenario)).toEqual([
      'CHECK_REQUIREMENTS', 'REJECT', 'CHECK_REQUIREMENTS', 'HOLD', 'APPROVE',
    ]);
    expect(['Smith001', 'Smith002', 'Smith'].map(beneficialOwnerKycStatus)).toEqual(['PENDING', 'REJECTED', 'APPROVED']);
  });

  it('transfer outcomes', () => {
    expect(['002', '003', '004', '005', '789', '102', null].map((suffix) => [transferScenario(suffix).outcome, transferScenario(suffix).timing])).toEqual([
      ['FAILED', 'IMMEDIATE'], ['FAILED', 'IMMEDIATE'], ['FAILED', 'IMMEDIATE'], ['FAILED', 'SLOW_FAILURE'],
      ['COMPLETED', 'SETTLEMENT'], ['COMPLETED', 'SETTLEMENT'], ['COMPLETED', 'SETTLEMENT'],
    ]);
  });

  it('beneficiary name checks', () => {
    const statuses = ['102', '103', '104', '106', '107', '101'].map((suffix) => {
      const check = beneficiaryCheck(`123456${suffix}`, 'Jane Q Public');
      return check.kind === 'RESULT' ? [check.status, check.verifiedFullName] : check.kind;
    });
    expect(statuses).toEqual([
      ['NOT_MATCHED', null], ['PARTIAL_MATCH', 'J. Public'], ['PENDING', null], ['UNSUPPORTED', null],
      ['CHECKED_BY_RECEIVING_FI', null], ['MATCHED', 'Jane Q Public'],
    ]);
    expect(beneficiaryCheck('123456105', 'x').kind).toBe('INVALID_ACCOUNT');
  });
});
