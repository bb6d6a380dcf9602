import { projectionSpec, ProjectionSpec } from '../../test/support/projection-spec';
import { externalAccountsProjection } from './external-accounts.projection';

const PLATFORM = 'Platform:0199a000-0000-7000-8000-0000000000f1';
const OTHER_PLATFORM = 'Platform:0199a000-0000-7000-8000-0000000000f2';
const CUSTOMER = 'Customer:0199a000-0000-7000-8000-000000000001';
const ACCOUNT = 'ExternalAccount:0199a000-0000-7000-8000-0000000000e1';
const CREATED_AT = '2025-10-13T12:00:00.000Z';
const CHALLENGE = 'ScaChallenge:0199a000-0000-7000-8000-0000000000c1';

const ref = (platformId = PLATFORM) => ({ externalAccountId: ACCOUNT, platformId });
const stream = (platformId = PLATFORM) => `externalAccount-0199a000-0000-7000-8000-0000000000e1-${platformId}`;
const createdData = (platformId = PLATFORM) => ({
  ...ref(platformId),
  customerId: CUSTOMER,
  currency: 'USD',
  platformAccountId: 'bank-1',
  accountInfo: {
    accountType: 'USD_ACCOUNT',
    identifiers: { accountNumber: '123456789', routingNumber: '021000021' },
    paymentRails: ['ACH'],
    beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane Doe' },
  },
  primaryIdentifier: '123456789',
  beneficiaryVerification: { status: 'PENDING', verifiedFullName: null },
  ownershipType: 'THIRD_PARTY',
  defaultUmaDepositAccount: false,
  createdAt: CREATED_AT,
});
const created = (platformId = PLATFORM) => ({ stream: stream(platformId), type: 'ExternalAccountCreated', data: createdData(platformId) });
const challenge = (action: 'TRUST' | 'UNTRUST', issuedAt: string, platformId = PLATFORM) => ({
  stream: stream(platformId),
  type: 'BeneficiaryTrustChallengeIssued',
  data: { ...ref(platformId), action, challengeId: CHALLENGE, factor: 'SMS_OTP', expiresAt: '2025-10-13T13:00:00.000Z', issuedAt },
});
const trusted = (trustedAt: string) => ({ stream: stream(), type: 'BeneficiaryTrusted', data: { ...ref(), challengeId: CHALLENGE, trustedAt } });
const untrusted = (untrustedAt: string) => ({ stream: stream(), type: 'BeneficiaryUntrusted', data: { ...ref(), challengeId: CHALLENGE, untrustedAt } });
const deleted = (deletedAt: string, platformId = PLATFORM) => ({ stream: stream(platformId), type: 'ExternalAccountDeleted', data: { ...ref(platformId), deletedAt } });
const resolved = (resolvedAt: string) => ({
  stream: stream(),
  type: 'BeneficiaryVerificationResolved',
  data: { ...ref(), status: 'MATCHED', verifiedFullName: 'JANE DOE', resolvedAt },
});

const underReview = () => ({ ...created(), data: { ...createdData(), accountStatus: 'UNDER_REVIEW' } });
const statusChanged = (changedAt: string) => ({
  stream: stream(),
  type: 'ExternalAccountStatusChanged',
  data: { ...ref(), previousStatus: 'UNDER_REVIEW', status: 'ACTIVE', reason: 'BENEFICIARY_CHECK_RESOLVED', changedAt },
});
const COLUMNS = 'platform_id, external_account_id, customer_id, currency, account_type, is_deleted, state::json AS state, primary_identifier, created_at, updated_at';

describe('external-accounts projection', () => {
  let spec: ProjectionSpec;
  beforeEach(async () => {
    spec = await projectionSpec(externalAccountsProjection);
  });
  afterEach(async () => {
    await spec.close();
  });

  it('a created account is one row: list columns, the read model record (untrusted) and the primary identifier', async () => {
    await spec.given([created()]);
    expect(await spec.rows(`SELECT ${COLUMNS} FROM external_accounts`)).toEqual([
      {
        platform_id: PLATFORM,
        external_account_id: ACCOUNT,
        customer_id: CUSTOMER,
        currency: 'USD',
        account_type: 'USD_ACCOUNT',
        is_deleted: false,
        // An older creation (no accountStatus) reads ACTIVE, as it was shown.
        state: { status: 'active', ...createdData(), accountStatus: 'ACTIVE', trusted: false, updatedAt: CREATED_AT },
        primary_identifier: '123456789',
        created_at: new Date(CREATED_AT),
        updated_at: new Date(CREATED_AT),
      },
    ]);
  });

  it('keeps the GET view, identifiers and beneficiary under their wire names', async () => {
    await spec.given([created()]);
    expect(await spec.rows('SELECT view::json AS view FROM external_accounts')).toEqual([
      {
        view: {
          id: ACCOUNT,
          customerId: CUSTOMER,
          status: 'ACTIVE',
          platformAccountId: 'bank-1',
          currency: 'USD',
          defaultUmaDepositAccount: false,
          trusted: false,
          accountInfo: {
            accountType: 'USD_ACCOUNT',
            accountNumber: '123456789',
            routingNumber: '021000021',
            paymentRails: ['ACH'],
            beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane Doe' },
          },
          createdAt: CREATED_AT,
          updatedAt: CREATED_AT,
          ownershipType: 'THIRD_PARTY',
          beneficiaryVerificationStatus: 'PENDING',
        },
      },
    ]);
  });

  it('a trust challenge changes nothing the read model keeps; trusting and untrusting move trusted and updated_at', async () => {
    await spec.given([created()]);
    const row = () => spec.rows('SELECT state::json AS state, view::json ->> \'trusted\' AS view_trusted, updated_at FROM external_accounts');
    const asCreated = await row();
    await spec.given([challenge('TRUST', '2025-10-13T12:01:00.000Z')]);
    expect(await row()).toEqual(asCreated);
    expect(asCreated[0].state).not.toHaveProperty('pendingChallenge');
    await spec.given([trusted('2025-10-13T12:02:00.000Z')]);
    expect(await row()).toEqual([
      {
        state: expect.objectContaining({ trusted: true, updatedAt: '2025-10-13T12:02:00.000Z' }),
        view_trusted: 'true',
        updated_at: new Date('2025-10-13T12:02:00.000Z'),
      },
    ]);
    await spec.given([challenge('UNTRUST', '2025-10-13T12:03:00.000Z'), untrusted('2025-10-13T12:04:00.000Z')]);
    expect(await row()).toEqual([
      {
        state: expect.objectContaining({ trusted: false, updatedAt: '2025-10-13T12:04:00.000Z' }),
        view_trusted: 'false',
        updated_at: new Date('2025-10-13T12:04:00.000Z'),
      },
    ]);
  });

  it('a resolved name check replaces the pending one in the record and the view', async () => {
    await spec.given([created(), resolved('2025-10-13T12:00:05.000Z')]);
    expect(await spec.rows('SELECT state::json AS state, view::json AS view, updated_at FROM external_accounts')).toEqual([
      {
        state: expect.objectContaining({ beneficiaryVerification: { status: 'MATCHED', verifiedFullName: 'JANE DOE' }, updatedAt: '2025-10-13T12:00:05.000Z' }),
        view: expect.objectContaining({
          beneficiaryVerificationStatus: 'MATCHED', beneficiaryVerifiedData: { fullName: 'JANE DOE' }, updatedAt: '2025-10-13T12:00:05.000Z',
        }),
        updated_at: new Date('2025-10-13T12:00:05.000Z'),
      },
    ]);
  });

  it('the status it was created with, then each status change, in the record and the view, moving updated_at', async () => {
    await spec.given([underReview()]);
    const row = () => spec.rows("SELECT state::json ->> 'accountStatus' AS state_status, view::json ->> 'status' AS view_status, updated_at FROM external_accounts");
    expect(await row()).toEqual([{ state_status: 'UNDER_REVIEW', view_status: 'UNDER_REVIEW', updated_at: new Date(CREATED_AT) }]);
    await spec.given([resolved('2025-10-13T12:00:05.000Z'), statusChanged('2025-10-13T12:00:05.000Z')]);
    expect(await row()).toEqual([{ state_status: 'ACTIVE', view_status: 'ACTIVE', updated_at: new Date('2025-10-13T12:00:05.000Z') }]);
  });

  it('a deleted account keeps its row, marked deleted, with its details and creation time', async () => {
    await spec.given([created(), deleted('2025-10-13T12:30:00.000Z')]);
    expect(await spec.rows(`SELECT ${COLUMNS} FROM external_accounts`)).toEqual([
      {
        platform_id: PLATFORM,
        external_account_id: ACCOUNT,
        customer_id: CUSTOMER,
        currency: 'USD',
        account_type: 'USD_ACCOUNT',
        is_deleted: true,
        state: { status: 'deleted', ...createdData(), accountStatus: 'ACTIVE', trusted: false, updatedAt: '2025-10-13T12:30:00.000Z' },
        primary_identifier: '123456789',
        created_at: new Date(CREATED_AT),
        updated_at: new Date('2025-10-13T12:30:00.000Z'),
      },
    ]);
  });

  it('an event for an account it never saw created writes no row', async () => {
    await spec.given([
      challenge('TRUST', '2025-10-13T12:01:00.000Z'),
      trusted('2025-10-13T12:02:00.000Z'),
      resolved('2025-10-13T12:03:00.000Z'),
      statusChanged('2025-10-13T12:03:00.000Z'),
      deleted('2025-10-13T12:04:00.000Z'),
    ]);
    expect(await spec.rows('SELECT external_account_id FROM external_accounts')).toEqual([]);
  });

  it("the platform's own account: customer_id null, no customerId in the view; ownership events change only through the status", async () => {
    const own = { ...created(), data: { ...createdData(), customerId: null, accountStatus: 'PENDING_OWNERSHIP_VERIFICATION' } };
    await spec.given([own]);
    const row = () => spec.rows("SELECT customer_id, view::json AS view, updated_at FROM external_accounts");
    const [first] = await row();
    expect(first.customer_id).toBeNull();
    expect(first.view).not.toHaveProperty('customerId');
    expect(first.view.status).toBe('PENDING_OWNERSHIP_VERIFICATION');
    await spec.given([
      { stream: stream(), type: 'OwnershipChallengeIssued', data: { ...ref(), method: 'LIVENESS', nonce: 'n', verificationLink: 'https://x.invalid/n', expiresAt: '2025-10-13T13:00:00.000Z', issuedAt: '2025-10-13T12:01:00.000Z' } },
    ]);
    expect(await row()).toEqual([first]);
    await spec.given([
      { stream: stream(), type: 'OwnershipVerified', data: { ...ref(), method: 'LIVENESS', nonce: 'n', verifiedAt: '2025-10-13T12:02:00.000Z' } },
      { stream: stream(), type: 'ExternalAccountStatusChanged', data: { ...ref(), previousStatus: 'PENDING_OWNERSHIP_VERIFICATION', status: 'ACTIVE', reason: 'OWNERSHIP_VERIFIED', changedAt: '2025-10-13T12:02:00.000Z' } },
    ]);
    expect(await row()).toEqual([{ ...first, view: { ...first.view, status: 'ACTIVE', updatedAt: '2025-10-13T12:02:00.000Z' }, updated_at: new Date('2025-10-13T12:02:00.000Z') }]);
  });

  it('the same account id on two platforms: deleting one leaves the other', async () => {
    await spec.given([created(), created(OTHER_PLATFORM), deleted('2025-10-13T12:30:00.000Z', OTHER_PLATFORM)]);
    expect(await spec.rows('SELECT platform_id, is_deleted, state::json ->> \'status\' AS status, updated_at FROM external_accounts ORDER BY platform_id')).toEqual([
      { platform_id: PLATFORM, is_deleted: false, status: 'active', updated_at: new Date(CREATED_AT) },
      { platform_id: OTHER_PLATFORM, is_deleted: true, status: 'deleted', updated_at: new Date('2025-10-13T12:30:00.000Z') },
    ]);
  });
});
