import { ExternalAccountEvent, externalAccountView } from '../../src/accounts';
import { externalAccountDecider } from '../../src/accounts/domain/external-account/external-account.decider';
import { ExternalAccountRecord, evolveExternalAccountRecord } from './external-account-record';

const ref = { externalAccountId: 'ExternalAccount:0199a000-0000-7000-8000-0000000000e1', platformId: 'Platform:0199a000-0000-7000-8000-0000000000f1' };
const CHALLENGE = 'ScaChallenge:0199a000-0000-7000-8000-0000000000c1';
const stream: ExternalAccountEvent[] = [
  {
    type: 'ExternalAccountCreated',
    data: {
      ...ref,
      customerId: 'Customer:0199a000-0000-7000-8000-000000000001',
      currency: 'MXN',
      platformAccountId: null,
      // Stored before the reference's names: the view maps them.
      accountInfo: { accountType: 'MXN_ACCOUNT', identifiers: { clabe: '032180000118359719' }, paymentRails: ['SPEI'], beneficiary: { beneficiaryType: 'BUSINESS', fullName: 'Acme SA' } },
      primaryIdentifier: '032180000118359719',
      beneficiaryVerification: { status: 'PENDING', verifiedFullName: null },
      accountStatus: 'UNDER_REVIEW',
      createdAt: '2025-10-13T12:00:00.000Z',
    },
  },
  { type: 'BeneficiaryVerificationResolved', data: { ...ref, status: 'PARTIAL_MATCH', verifiedFullName: 'ACME S.A.', resolvedAt: '2025-10-13T12:00:05.000Z' } },
  {
    type: 'ExternalAccountStatusChanged',
    data: { ...ref, previousStatus: 'UNDER_REVIEW', status: 'ACTIVE', reason: 'BENEFICIARY_CHECK_RESOLVED', changedAt: '2025-10-13T12:00:05.000Z' },
  },
  {
    type: 'BeneficiaryTrustChallengeIssued',
    data: { ...ref, action: 'TRUST', challengeId: CHALLENGE, factor: 'SMS_OTP', expiresAt: '2025-10-13T12:10:00.000Z', issuedAt: '2025-10-13T12:01:00.000Z' },
  },
  { type: 'BeneficiaryTrusted', data: { ...ref, challengeId: CHALLENGE, trustedAt: '2025-10-13T12:02:00.000Z' } },
  {
    type: 'BeneficiaryTrustChallengeIssued',
    data: { ...ref, action: 'UNTRUST', challengeId: CHALLENGE, factor: 'SMS_OTP', expiresAt: '2025-10-13T12:13:00.000Z', issuedAt: '2025-10-13T12:03:00.000Z' },
  },
  { type: 'BeneficiaryUntrusted', data: { ...ref, challengeId: CHALLENGE, untrustedAt: '2025-10-13T12:04:00.000Z' } },
  { type: 'ExternalAccountDeleted', data: { ...ref, deletedAt: '2025-10-13T12:05:00.000Z' } },
];

function fold(events: ExternalAccountEvent[]): ExternalAccountRecord | null {
  return events.reduce<ExternalAccountRecord | null>(evolveExternalAccountRecord, null);
}

describe('external account record (the external-accounts read model state)', () => {
  it('shows, after every event, the view the write side answers (same fields, same order)', () => {
    for (let length = 1; length <= stream.length; length += 1) {
      const events = stream.slice(0, length);
      const write = events.reduce(externalAccountDecider.evolve, externalAccountDecider.initialState());
      if (write.status === 'none') throw new Error('not created');
      const read = fold(events)!;
      expect({ length, status: read.status, view: JSON.stringify(externalAccountView(read)) }).toEqual({
        length,
        status: write.status,
        view: JSON.stringify(externalAccountView(write)),
      });
    }
  });

  it('a trust challenge leaves the record as it was: no view shows it', () => {
    const before = fold(stream.slice(0, 3));
    expect(evolveExternalAccountRecord(before, stream[3])).toBe(before);
  });

  it('the status is UNDER_REVIEW from the creation, ACTIVE from the status change; an older creation without one reads ACTIVE', () => {
    expect(fold(stream.slice(0, 2))!.accountStatus).toBe('UNDER_REVIEW');
    expect(fold(stream.slice(0, 3))).toMatchObject({ accountStatus: 'ACTIVE', updatedAt: '2025-10-13T12:00:05.000Z' });
    const { accountStatus: _status, ...older } = (stream[0] as Extract<ExternalAccountEvent, { type: 'ExternalAccountCreated' }>).data;
    const read = fold([{ type: 'ExternalAccountCreated', data: older }])!;
    const write = externalAccountDecider.evolve(externalAccountDecider.initialState(), { type: 'ExternalAccountCreated', data: older });
    expect([read.accountStatus, write.status !== 'none' && write.accountStatus]).toEqual(['ACTIVE', 'ACTIVE']);
  });

  it('a platform wallet proving its ownership: no customerId in the view; challenges leave the record, status changes move it', () => {
    const wallet = { ...ref, externalAccountId: 'ExternalAccount:0199a000-0000-7000-8000-0000000000e2' };
    const challenge = (nonce: string): ExternalAccountEvent => ({
      type: 'OwnershipChallengeIssued',
      data: { ...wallet, method: 'WALLET_SIGNATURE', nonce, messageToSign: `sign ${nonce}`, expiresAt: '2025-10-13T12:15:00.000Z', issuedAt: '2025-10-13T12:00:00.000Z' },
    });
    const changed = (previousStatus: 'PENDING_OWNERSHIP_VERIFICATION' | 'UNVERIFIED', status: 'UNVERIFIED' | 'ACTIVE' | 'PENDING_OWNERSHIP_VERIFICATION', at: string): ExternalAccountEvent => ({
      type: 'ExternalAccountStatusChanged',
      data: { ...wallet, previousStatus, status, reason: status === 'ACTIVE' ? 'OWNERSHIP_VERIFIED' : status === 'UNVERIFIED' ? 'OWNERSHIP_VERIFICATION_FAILED' : 'OWNERSHIP_CHALLENGE_ISSUED', changedAt: at },
    });
    const events: ExternalAccountEvent[] = [
      {
        type: 'ExternalAccountCreated',
        data: {
          ...wallet, customerId: null, currency: 'USDC', platformAccountId: null, ownershipType: 'FIRST_PARTY',
          accountInfo: { accountType: 'BASE_WALLET', identifiers: { address: '0x52908400098527886E0F7030069857D2E4169EE7' }, paymentRails: ['BASE'], beneficiary: null },
          primaryIdentifier: '0x52908400098527886E0F7030069857D2E4169EE7', beneficiaryVerification: null, accountStatus: 'PENDING_OWNERSHIP_VERIFICATION', createdAt: '2025-10-13T12:00:00.000Z',
        },
      },
      challenge('n1'),
      { type: 'OwnershipVerificationFailed', data: { ...wallet, method: 'WALLET_SIGNATURE', nonce: 'n1', signature: '0x00', reason: 'INVALID_SIGNATURE', failedAt: '2025-10-13T12:01:00.000Z' } },
      changed('PENDING_OWNERSHIP_VERIFICATION', 'UNVERIFIED', '2025-10-13T12:01:00.000Z'),
      challenge('n2'),
      changed('UNVERIFIED', 'PENDING_OWNERSHIP_VERIFICATION', '2025-10-13T12:02:00.000Z'),
      { type: 'OwnershipVerified', data: { ...wallet, method: 'WALLET_SIGNATURE', nonce: 'n2', signature: '0x01', verifiedAt: '2025-10-13T12:03:00.000Z' } },
      changed('PENDING_OWNERSHIP_VERIFICATION', 'ACTIVE', '2025-10-13T12:03:00.000Z'),
    ];
    for (let length = 1; length <= events.length; length += 1) {
      const write = events.slice(0, length).reduce(externalAccountDecider.evolve, externalAccountDecider.initialState());
      if (write.status === 'none') throw new Error('not created');
      expect(JSON.stringify(externalAccountView(fold(events.slice(0, length))!))).toBe(JSON.stringify(externalAccountView(write)));
    }
    const before = fold(events.slice(0, 1));
    expect(evolveExternalAccountRecord(before, events[1])).toBe(before);
    const view = externalAccountView(fold(events)!);
    expect(view).not.toHaveProperty('customerId');
    expect([view.status, view.updatedAt]).toEqual(['ACTIVE', '2025-10-13T12:03:00.000Z']);
  });

  it('events of an account never created fold to nothing', () => {
    expect(fold(stream.slice(1))).toBeNull();
  });
});
