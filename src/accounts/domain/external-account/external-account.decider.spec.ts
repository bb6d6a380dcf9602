import { DomainError } from '../../../infra/domain/domain-error';
import { ExternalAccountCommand, ExternalAccountState, externalAccountDecider } from './external-account.decider';
import { ExternalAccountEvent } from './external-account.events';

const NOW = '2025-10-13T12:00:00.000Z';
const LATER = '2025-10-13T12:10:00.000Z';
const ref = { externalAccountId: 'ExternalAccount:e', platformId: 'Platform:p' };
const created: ExternalAccountEvent = {
  type: 'ExternalAccountCreated',
  data: {
    ...ref, customerId: 'Customer:c', currency: 'USD', platformAccountId: null,
    accountInfo: { accountType: 'USD_ACCOUNT', identifiers: { accountNumber: '123456789', routingNumber: '021000021' }, paymentRails: ['ACH'], beneficiary: null },
    primaryIdentifier: '123456789', beneficiaryVerification: null, createdAt: NOW,
  },
};
const issued = (action: 'TRUST' | 'UNTRUST'): ExternalAccountEvent => ({
  type: 'BeneficiaryTrustChallengeIssued',
  data: { ...ref, action, challengeId: 'ScaChallenge:s', factor: 'SMS_OTP', expiresAt: '2025-10-13T12:05:00.000Z', issuedAt: NOW },
});
const trusted: ExternalAccountEvent = { type: 'BeneficiaryTrusted', data: { ...ref, challengeId: 'ScaChallenge:s', trustedAt: NOW } };

const given = (events: ExternalAccountEvent[]): ExternalAccountState => events.reduce(externalAccountDecider.evolve, externalAccountDecider.initialState());
const when = (state: ExternalAccountState, command: ExternalAccountCommand) => externalAccountDecider.decide(command, state);
function errorCode(work: () => unknown): string | undefined {
  try {
    work();
  } catch (error) {
    return (error as DomainError).code;
  }
  return undefined;
}

describe('external account decider', () => {
  it('deletes an untrusted account; a deleted account is not found', () => {
    expect(when(given([created]), { type: 'DeleteExternalAccount', now: NOW })).toEqual([{ type: 'ExternalAccountDeleted', data: { ...ref, deletedAt: NOW } }]);
    const deleted = given([created, { type: 'ExternalAccountDeleted', data: { ...ref, deletedAt: NOW } }]);
    expect(errorCode(() => when(deleted, { type: 'DeleteExternalAccount', now: NOW }))).toBe('REFERENCE_NOT_FOUND');
  });

  it('refuses to delete a trusted beneficiary: BENEFICIARY_TRUSTED', () => {
    expect(errorCode(() => when(given([created, issued('TRUST'), trusted]), { type: 'DeleteExternalAccount', now: NOW }))).toBe('BENEFICIARY_TRUSTED');
  });

  it('trusts only after a start and a valid, timely proof', () => {
    const confirm: ExternalAccountCommand = { type: 'ConfirmTrustChange', action: 'TRUST', proofAccepted: true, now: NOW };
    expect(errorCode(() => when(given([created]), confirm))).toBe('CONFLICT');
    expect(errorCode(() => when(given([created, issued('TRUST')]), { ...confirm, proofAccepted: false }))).toBe('INVALID_INPUT');
    expect(errorCode(() => when(given([created, issued('TRUST')]), { ...confirm, now: LATER }))).toBe('CONFLICT');
    expect(when(given([created, issued('TRUST')]), confirm)).toEqual([trusted]);
  });

  it('untrusts a trusted beneficiary, which can then be deleted', () => {
    const start: ExternalAccountCommand = { type: 'StartTrustChange', action: 'UNTRUST', challengeId: 'ScaChallenge:u', expiresAt: LATER, now: NOW };
    expect(errorCode(() => when(given([created]), start))).toBe('CONFLICT');
    const untrusting = given([created, issued('TRUST'), trusted, issued('UNTRUST')]);
    const untrusted = when(untrusting, { type: 'ConfirmTrustChange', action: 'UNTRUST', proofAccepted: true, now: NOW });
    expect(untrusted[0].type).toBe('BeneficiaryUntrusted');
    const state = given([created, issued('TRUST'), trusted, issued('UNTRUST'), ...untrusted]);
    expect(when(state, { type: 'DeleteExternalAccount', now: NOW })).toHaveLength(1);
  });

  it('resolves a PENDING name check once; anything else (no check, resolved, deleted) is a no-op', () => {
    const pending: ExternalAccountEvent = {
      ...created,
      data: { ...(created as any).data, beneficiaryVerification: { status: 'PENDING', verifiedFullName: null } },
    } as ExternalAccountEvent;
    const resolve: ExternalAccountCommand = { type: 'ResolveBeneficiaryVerification', status: 'MATCHED', verifiedFullName: 'Jane Doe', now: LATER };
    const resolved = when(given([pending]), resolve);
    expect(resolved).toEqual([
      { type: 'BeneficiaryVerificationResolved', data: { ...ref, status: 'MATCHED', verifiedFullName: 'Jane Doe', resolvedAt: LATER } },
    ]);
    const after = given([pending, ...resolved]);
    expect(after.status === 'active' && after.beneficiaryVerification).toEqual({ status: 'MATCHED', verifiedFullName: 'Jane Doe' });
    expect(after.status === 'active' && after.updatedAt).toBe(LATER);
    expect(when(after, resolve)).toEqual([]);
    expect(when(given([created]), resolve)).toEqual([]);
    expect(when(given([pending, { type: 'ExternalAccountDeleted', data: { ...ref, deletedAt: NOW } }]), resolve)).toEqual([]);
    expect(when(given([]), resolve)).toEqual([]);
  });
});
