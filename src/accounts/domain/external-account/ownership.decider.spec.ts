import { deciderSpec } from '../../../../test/support/decider-spec';
import { ExternalAccountCommand, externalAccountDecider } from './external-account.decider';
import { ExternalAccountCreated, ExternalAccountEvent } from './external-account.events';
import { AccountHolder, counterpartyDeclarationErrors, ownershipMessage, verificationRequiredRefusal } from './ownership-rules';

const NOW = '2025-10-13T12:00:00.000Z';
const LATER = '2025-10-13T12:05:00.000Z';
const TOO_LATE = '2025-10-13T12:15:00.000Z';
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const ref = { externalAccountId: 'ExternalAccount:e', platformId: 'Platform:p' };
const wallet: ExternalAccountCreated['data'] = {
  ...ref,
  customerId: null,
  currency: 'USDC',
  platformAccountId: null,
  ownershipType: 'FIRST_PARTY',
  accountInfo: { accountType: 'BASE_WALLET', identifiers: { address: ADDRESS }, paymentRails: ['BASE'], beneficiary: null },
  primaryIdentifier: ADDRESS,
  beneficiaryVerification: null,
  accountStatus: 'PENDING_OWNERSHIP_VERIFICATION',
  createdAt: NOW,
};
const created: ExternalAccountEvent = { type: 'ExternalAccountCreated', data: wallet };
const message = ownershipMessage({ externalAccountId: ref.externalAccountId, address: ADDRESS, nonce: 'n1', expiresAt: '2025-10-13T12:15:00.000Z' });
const signatureChallenge: ExternalAccountEvent = {
  type: 'OwnershipChallengeIssued',
  data: { ...ref, method: 'WALLET_SIGNATURE', nonce: 'n1', messageToSign: message, expiresAt: '2025-10-13T12:15:00.000Z', issuedAt: NOW },
};
const livenessChallenge: ExternalAccountEvent = {
  type: 'OwnershipChallengeIssued',
  data: { ...ref, method: 'LIVENESS', nonce: 'n2', verificationLink: 'https://sandbox.liveness.invalid/sessions/n2', expiresAt: '2025-10-13T13:00:00.000Z', issuedAt: NOW },
};
const statusChanged = (previousStatus: string, status: string, reason: string, changedAt: string) =>
  ({ type: 'ExternalAccountStatusChanged', data: { ...ref, previousStatus, status, reason, changedAt } }) as ExternalAccountEvent;
const answer = (signatureValid: boolean, now = LATER): ExternalAccountCommand => ({ type: 'AnswerOwnershipChallenge', signature: '0xabc', signatureValid, now });
const failedSignature: ExternalAccountEvent[] = [
  { type: 'OwnershipVerificationFailed', data: { ...ref, method: 'WALLET_SIGNATURE', nonce: 'n1', signature: '0xabc', reason: 'INVALID_SIGNATURE', failedAt: LATER } },
  statusChanged('PENDING_OWNERSHIP_VERIFICATION', 'UNVERIFIED', 'OWNERSHIP_VERIFICATION_FAILED', LATER),
];

const spec = deciderSpec(externalAccountDecider);

describe('external account decider: ownership verification', () => {
  describe('the status an account starts with', () => {
    const { accountStatus: _status, ...input } = wallet;
    const statusOf = (overrides: Partial<typeof input>, holder: AccountHolder) => {
      const [event] = spec.given([]).when({ type: 'CreateExternalAccount', created: { ...input, ...overrides }, holder }).events;
      return (event as ExternalAccountCreated).data.accountStatus;
    };
    const eu: AccountHolder = { kind: 'CUSTOMER', region: 'DE' };
    const norway: AccountHolder = { kind: 'CUSTOMER', region: 'no' };
    const us: AccountHolder = { kind: 'CUSTOMER', region: 'US' };
    const platform: AccountHolder = { kind: 'PLATFORM' };

    it('PENDING_OWNERSHIP_VERIFICATION: a FIRST_PARTY self-custody wallet of the platform or of a customer under the travel rule', () => {
      expect([statusOf({}, platform), statusOf({}, eu), statusOf({}, norway)]).toEqual(Array(3).fill('PENDING_OWNERSHIP_VERIFICATION'));
    });

    it('ACTIVE otherwise: elsewhere, no region, custodial (vaspName), THIRD_PARTY or undeclared, not a keyed wallet', () => {
      const custodial = { accountInfo: { ...input.accountInfo, identifiers: { address: ADDRESS, vaspName: 'Kraken' } } };
      const lightning = { accountInfo: { accountType: 'LIGHTNING' as const, identifiers: { lightningAddress: 'a@b.co' }, paymentRails: ['LIGHTNING'], beneficiary: null } };
      expect([
        statusOf({}, us),
        statusOf({}, { kind: 'CUSTOMER', region: null }),
        statusOf(custodial, platform),
        statusOf({ ownershipType: 'THIRD_PARTY' }, eu),
        statusOf({ ownershipType: undefined }, platform),
        statusOf(lightning, eu),
      ]).toEqual(Array(6).fill('ACTIVE'));
    });
  });

  describe('challenge', () => {
    it('issues a WALLET_SIGNATURE challenge: the message names wallet, account, nonce and deadline (15 minutes)', () => {
      const expiresAt = '2025-10-13T12:15:00.000Z';
      spec.given([created]).when({ type: 'IssueOwnershipChallenge', method: 'WALLET_SIGNATURE', nonce: 'n1', now: NOW }).then([signatureChallenge]);
      expect(message).toContain(ADDRESS);
      expect(message).toContain(ref.externalAccountId);
      expect(message).toContain('Nonce: n1');
      expect(message).toContain(`Expires: ${expiresAt}`);
    });

    it('issues a LIVENESS challenge with the hosted link (an hour)', () => {
      spec
        .given([created])
        .when({ type: 'IssueOwnershipChallenge', method: 'LIVENESS', nonce: 'n2', verificationLink: 'https://sandbox.liveness.invalid/sessions/n2', now: NOW })
        .then([livenessChallenge]);
    });

    it('an UNVERIFIED account is PENDING_OWNERSHIP_VERIFICATION again with a new challenge, which replaces the old one', () => {
      const unverified = [created, signatureChallenge, ...failedSignature];
      const again = spec.given(unverified).when({ type: 'IssueOwnershipChallenge', method: 'LIVENESS', nonce: 'n2', verificationLink: 'https://sandbox.liveness.invalid/sessions/n2', now: NOW });
      again.then([livenessChallenge, statusChanged('UNVERIFIED', 'PENDING_OWNERSHIP_VERIFICATION', 'OWNERSHIP_CHALLENGE_ISSUED', NOW)]);
      // The signature challenge was replaced: answering it is a conflict.
      spec.given([created, signatureChallenge, livenessChallenge]).when(answer(true)).thenError('CONFLICT');
    });

    it('409 for an account with nothing to prove: not a self-custody wallet, not FIRST_PARTY, or already ACTIVE; 404 once deleted', () => {
      const issue: ExternalAccountCommand = { type: 'IssueOwnershipChallenge', method: 'WALLET_SIGNATURE', nonce: 'n', now: NOW };
      const withData = (data: Partial<ExternalAccountCreated['data']>): ExternalAccountEvent => ({ type: 'ExternalAccountCreated', data: { ...wallet, ...data } });
      const bank = { accountType: 'USD_ACCOUNT' as const, identifiers: { accountNumber: '123456789', routingNumber: '021000021' }, paymentRails: ['ACH'], beneficiary: null };
      const refusalOf = (event: ExternalAccountEvent) => {
        try {
          externalAccountDecider.decide(issue, spec.given([event]).state);
          return null;
        } catch (error) {
          const { code, details } = error as { code: string; details?: { reason?: string } };
          return `${code} ${details?.reason}`;
        }
      };
      expect(
        [
          withData({ accountInfo: bank }),
          withData({ accountInfo: { ...wallet.accountInfo, identifiers: { address: ADDRESS, vaspName: 'Kraken' } } }),
          withData({ ownershipType: 'THIRD_PARTY' }),
          withData({ accountStatus: 'ACTIVE' }),
        ].map(refusalOf),
      ).toEqual(['CONFLICT NOT_SELF_CUSTODY_WALLET', 'CONFLICT NOT_SELF_CUSTODY_WALLET', 'CONFLICT NOT_FIRST_PARTY', 'CONFLICT OWNERSHIP_NOT_PENDING']);
      spec.given([created, { type: 'ExternalAccountDeleted', data: { ...ref, deletedAt: NOW } }]).when(issue).thenError('REFERENCE_NOT_FOUND');
    });
  });

  describe('signature answer', () => {
    it('a valid signature in time: verified (the signature kept), ACTIVE, the challenge used up', () => {
      const outcome = spec.given([created, signatureChallenge]).when(answer(true));
      outcome.then([
        { type: 'OwnershipVerified', data: { ...ref, method: 'WALLET_SIGNATURE', nonce: 'n1', signature: '0xabc', verifiedAt: LATER } },
        statusChanged('PENDING_OWNERSHIP_VERIFICATION', 'ACTIVE', 'OWNERSHIP_VERIFIED', LATER),
      ]);
      const after = spec.given([created, signatureChallenge, ...outcome.events]);
      expect(after.state).toMatchObject({ accountStatus: 'ACTIVE', ownershipChallenge: null, updatedAt: LATER });
      after.when(answer(true)).thenError('CONFLICT');
    });

    it('a wrong signature: failed, UNVERIFIED, and the challenge cannot be answered again', () => {
      spec.given([created, signatureChallenge]).when(answer(false)).then(failedSignature);
      spec.given([created, signatureChallenge, ...failedSignature]).when(answer(true)).thenError('CONFLICT');
    });

    it('a signature after the deadline fails as CHALLENGE_EXPIRED, even a valid one', () => {
      spec.given([created, signatureChallenge]).when(answer(true, TOO_LATE)).then([
        { type: 'OwnershipVerificationFailed', data: { ...ref, method: 'WALLET_SIGNATURE', nonce: 'n1', signature: '0xabc', reason: 'CHALLENGE_EXPIRED', failedAt: TOO_LATE } },
        statusChanged('PENDING_OWNERSHIP_VERIFICATION', 'UNVERIFIED', 'OWNERSHIP_VERIFICATION_FAILED', TOO_LATE),
      ]);
    });

    it('409 with no challenge, or with a LIVENESS one outstanding (it never uses this answer)', () => {
      spec.given([created]).when(answer(true)).thenError('CONFLICT');
      spec.given([created, livenessChallenge]).when(answer(true)).thenError('CONFLICT');
    });
  });

  describe('liveness outcome', () => {
    const resolve = (passed: boolean, nonce = 'n2', now = LATER): ExternalAccountCommand => ({ type: 'ResolveLivenessCheck', nonce, passed, now });

    it('passed: ACTIVE; failed: UNVERIFIED', () => {
      spec.given([created, livenessChallenge]).when(resolve(true)).then([
        { type: 'OwnershipVerified', data: { ...ref, method: 'LIVENESS', nonce: 'n2', verifiedAt: LATER } },
        statusChanged('PENDING_OWNERSHIP_VERIFICATION', 'ACTIVE', 'OWNERSHIP_VERIFIED', LATER),
      ]);
      spec.given([created, livenessChallenge]).when(resolve(false)).then([
        { type: 'OwnershipVerificationFailed', data: { ...ref, method: 'LIVENESS', nonce: 'n2', reason: 'LIVENESS_FAILED', failedAt: LATER } },
        statusChanged('PENDING_OWNERSHIP_VERIFICATION', 'UNVERIFIED', 'OWNERSHIP_VERIFICATION_FAILED', LATER),
      ]);
    });

    it('changes nothing for a challenge no longer outstanding (replaced, answered, expired) or an account gone', () => {
      spec.given([created, livenessChallenge]).when(resolve(true, 'n1')).then([]);
      spec.given([created, livenessChallenge, signatureChallenge]).when(resolve(true)).then([]);
      spec.given([created, livenessChallenge]).when(resolve(true, 'n2', '2025-10-13T13:00:00.000Z')).then([]);
      spec.given([created, livenessChallenge, { type: 'ExternalAccountDeleted', data: { ...ref, deletedAt: NOW } }]).when(resolve(true)).thenError('REFERENCE_NOT_FOUND');
    });
  });
});

describe('ownership rules', () => {
  const account = (status: 'PENDING_OWNERSHIP_VERIFICATION' | 'UNVERIFIED' | 'ACTIVE', currency = 'USDC') => ({ id: 'ExternalAccount:e', status, currency });

  it('an unproven wallet receives up to the EUR 1,000 allowance (1,000 USDC, 0.01 BTC); more is EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED', () => {
    expect(verificationRequiredRefusal(account('PENDING_OWNERSHIP_VERIFICATION'), 1_000_000_000)).toBeNull();
    expect(verificationRequiredRefusal(account('UNVERIFIED', 'BTC'), 1_000_000)).toBeNull();
    const refusal = verificationRequiredRefusal(account('UNVERIFIED'), 1_000_000_001);
    expect([refusal?.code, refusal?.details]).toEqual([
      'EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED',
      { externalAccountId: 'ExternalAccount:e', accountStatus: 'UNVERIFIED', currency: 'USDC', allowance: 1_000_000_000, amount: 1_000_000_001 },
    ]);
    expect(verificationRequiredRefusal(account('PENDING_OWNERSHIP_VERIFICATION', 'BTC'), 1_000_001)?.code).toBe('EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED');
    expect(verificationRequiredRefusal(account('ACTIVE'), 10 ** 15)).toBeNull();
  });

  it('a customer under the travel rule declares a self-custody wallet\'s ownership, and a third party wallet\'s owner', () => {
    const claim = { accountType: 'SOLANA_WALLET' as const, identifiers: { address: 'x' }, beneficiary: null };
    const eu: AccountHolder = { kind: 'CUSTOMER', region: 'FR' };
    expect(counterpartyDeclarationErrors(claim, eu).map((error) => error.field)).toEqual(['ownershipType']);
    expect(counterpartyDeclarationErrors({ ...claim, ownershipType: 'THIRD_PARTY' }, eu).map((error) => error.field)).toEqual(['accountInfo.beneficiary']);
    // A custodial wallet needs no ownership declaration, but another person's still names its owner.
    const custodial = { ...claim, identifiers: { address: 'x', vaspName: 'Kraken' } };
    expect(counterpartyDeclarationErrors(custodial, eu)).toEqual([]);
    expect(counterpartyDeclarationErrors({ ...custodial, ownershipType: 'THIRD_PARTY' }, eu).map((error) => error.field)).toEqual(['accountInfo.beneficiary']);
    expect(counterpartyDeclarationErrors({ ...claim, ownershipType: 'FIRST_PARTY' }, eu)).toEqual([]);
    expect(counterpartyDeclarationErrors(claim, { kind: 'CUSTOMER', region: 'US' })).toEqual([]);
    expect(counterpartyDeclarationErrors(claim, { kind: 'PLATFORM' })).toEqual([]);
  });
});
