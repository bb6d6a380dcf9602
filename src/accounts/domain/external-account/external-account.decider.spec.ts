import { deciderSpec } from '../../../../test/support/decider-spec';
import { ExternalAccountCommand, externalAccountDecider } from './external-account.decider';
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

const spec = deciderSpec(externalAccountDecider);

describe('external account decider', () => {
  it('deletes an untrusted account; a deleted account is not found', () => {
    spec.given([created]).when({ type: 'DeleteExternalAccount', now: NOW }).then([{ type: 'ExternalAccountDeleted', data: { ...ref, deletedAt: NOW } }]);
    const deleted = spec.given([created, { type: 'ExternalAccountDeleted', data: { ...ref, deletedAt: NOW } }]);
    deleted.when({ type: 'DeleteExternalAccount', now: NOW }).thenError('REFERENCE_NOT_FOUND');
  });

  it('refuses to delete a trusted beneficiary: BENEFICIARY_TRUSTED', () => {
    spec.given([created, issued('TRUST'), trusted]).when({ type: 'DeleteExternalAccount', now: NOW }).thenError('BENEFICIARY_TRUSTED');
  });

  it('trusts only after a start and a valid, timely proof', () => {
    const confirm: ExternalAccountCommand = { type: 'ConfirmTrustChange', action: 'TRUST', proofAccepted: true, now: NOW };
    spec.given([created]).when(confirm).thenError('CONFLICT');
    const challenged = spec.given([created, issued('TRUST')]);
    challenged.when({ ...confirm, proofAccepted: false }).thenError('INVALID_INPUT');
    challenged.when({ ...confirm, now: LATER }).thenError('CONFLICT');
    challenged.when(confirm).then([trusted]);
  });

  it('untrusts a trusted beneficiary, which can then be deleted', () => {
    const start: ExternalAccountCommand = { type: 'StartTrustChange', action: 'UNTRUST', challengeId: 'ScaChallenge:u', expiresAt: LATER, now: NOW };
    spec.given([created]).when(start).thenError('CONFLICT');
    const untrusting: ExternalAccountEvent[] = [created, issued('TRUST'), trusted, issued('UNTRUST')];
    const untrusted = spec.given(untrusting).when({ type: 'ConfirmTrustChange', action: 'UNTRUST', proofAccepted: true, now: NOW }).events;
    expect(untrusted[0].type).toBe('BeneficiaryUntrusted');
    expect(spec.given([...untrusting, ...untrusted]).when({ type: 'DeleteExternalAccount', now: NOW }).events).toHaveLength(1);
  });

  it('resolves a PENDING name check once; anything else (no check, resolved, deleted) is a no-op', () => {
    const pending: ExternalAccountEvent = {
      ...created,
      data: { ...(created as any).data, beneficiaryVerification: { status: 'PENDING', verifiedFullName: null } },
    } as ExternalAccountEvent;
    const resolve: ExternalAccountCommand = { type: 'ResolveBeneficiaryVerification', status: 'MATCHED', verifiedFullName: 'Jane Doe', now: LATER };
    const resolution = spec.given([pending]).when(resolve);
    resolution.then([
      { type: 'BeneficiaryVerificationResolved', data: { ...ref, status: 'MATCHED', verifiedFullName: 'Jane Doe', resolvedAt: LATER } },
    ]);
    const resolved = spec.given([pending, ...resolution.events]);
    const after = resolved.state;
    expect(after.status === 'active' && after.beneficiaryVerification).toEqual({ status: 'MATCHED', verifiedFullName: 'Jane Doe' });
    expect(after.status === 'active' && after.updatedAt).toBe(LATER);
    resolved.when(resolve).then([]);
    spec.given([created]).when(resolve).then([]);
    spec.given([pending, { type: 'ExternalAccountDeleted', data: { ...ref, deletedAt: NOW } }]).when(resolve).then([]);
    spec.given([]).when(resolve).then([]);
  });

  describe('status', () => {
    const pendingCheck = { status: 'PENDING' as const, verifiedFullName: null };
    const input = (created as Extract<ExternalAccountEvent, { type: 'ExternalAccountCreated' }>).data;
    const underReview: ExternalAccountEvent = { type: 'ExternalAccountCreated', data: { ...input, beneficiaryVerification: pendingCheck, accountStatus: 'UNDER_REVIEW' } };
    const resolve: ExternalAccountCommand = { type: 'ResolveBeneficiaryVerification', status: 'NOT_MATCHED', verifiedFullName: null, now: LATER };

    it('is UNDER_REVIEW from the creation while the name check is PENDING, else ACTIVE', () => {
      const holder = { kind: 'CUSTOMER' as const, region: 'US' };
      spec.given([]).when({ type: 'CreateExternalAccount', created: { ...input, beneficiaryVerification: pendingCheck }, holder }).then([underReview]);
      spec.given([]).when({ type: 'CreateExternalAccount', created: input, holder }).then([{ type: 'ExternalAccountCreated', data: { ...input, accountStatus: 'ACTIVE' } }]);
      expect(spec.given([underReview]).state).toMatchObject({ accountStatus: 'UNDER_REVIEW' });
    });

    it('becomes ACTIVE with the name check\'s answer, whatever it is, in the same decision', () => {
      const resolution = spec.given([underReview]).when(resolve);
      resolution.then([
        { type: 'BeneficiaryVerificationResolved', data: { ...ref, status: 'NOT_MATCHED', verifiedFullName: null, resolvedAt: LATER } },
        { type: 'ExternalAccountStatusChanged', data: { ...ref, previousStatus: 'UNDER_REVIEW', status: 'ACTIVE', reason: 'BENEFICIARY_CHECK_RESOLVED', changedAt: LATER } },
      ]);
      expect(spec.given([underReview, ...resolution.events]).state).toMatchObject({ accountStatus: 'ACTIVE', updatedAt: LATER });
    });

    it('an account created before statuses were recorded is ACTIVE: its check resolves without a status change', () => {
      const older: ExternalAccountEvent = { type: 'ExternalAccountCreated', data: { ...input, beneficiaryVerification: pendingCheck } };
      expect(spec.given([older]).state).toMatchObject({ accountStatus: 'ACTIVE' });
      expect(spec.given([older]).when(resolve).events.map((event) => event.type)).toEqual(['BeneficiaryVerificationResolved']);
    });
  });
});
