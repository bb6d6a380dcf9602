import { projectionSpec, ProjectionSpec } from '../../test/support/projection-spec';
import { internalAccountsProjection } from './internal-accounts.projection';

const PLATFORM = 'Platform:0199a000-0000-7000-8000-0000000000f1';
const OTHER_PLATFORM = 'Platform:0199a000-0000-7000-8000-0000000000f2';
const CUSTOMER = 'Customer:0199a000-0000-7000-8000-000000000001';
const ACCOUNT = 'InternalAccount:0199a000-0000-7000-8000-0000000000a1';
const WALLET = 'InternalAccount:0199a000-0000-7000-8000-0000000000a2';
const OPENED_AT = '2025-10-13T12:00:00.000Z';

const stream = (accountId: string, platformId: string) => `internalAccount-${accountId.split(':')[1]}-${platformId}`;
const opened = (accountId: string, options: { platformId?: string; customerId?: string | null; accountType?: string; currency?: string; openedAt?: string } = {}) => {
  const platformId = options.platformId ?? PLATFORM;
  return {
    stream: stream(accountId, platformId),
    type: 'InternalAccountOpened',
    data: {
      accountId,
      platformId,
      currency: options.currency ?? 'USD',
      customerId: options.customerId === undefined ? CUSTOMER : options.customerId,
      accountType: options.accountType ?? 'INTERNAL_FIAT',
      openedAt: options.openedAt ?? OPENED_AT,
    },
  };
};
const ref = (accountId = ACCOUNT, platformId = PLATFORM) => ({ accountId, platformId, currency: 'USD' });
const credited = (amount: number, available: number, held: number, creditedAt: string, accountId = ACCOUNT, platformId = PLATFORM) => ({
  stream: stream(accountId, platformId),
  type: 'FundsCredited',
  data: { ...ref(accountId, platformId), movementId: `m-${creditedAt}`, amount, reason: 'SANDBOX_FUNDING', reference: null, available, held, creditedAt },
});
const held = (amount: number, available: number, heldMinor: number, heldAt: string) => ({
  stream: stream(ACCOUNT, PLATFORM),
  type: 'FundsHeld',
  data: { ...ref(), holdId: `h-${heldAt}`, amount, reference: 'Transaction:t', available, held: heldMinor, heldAt },
});
const settled = (amount: number, available: number, heldMinor: number, settledAt: string) => ({
  stream: stream(ACCOUNT, PLATFORM),
  type: 'HoldSettled',
  data: { ...ref(), holdId: 'h-1', amount, available, held: heldMinor, settledAt },
});
const released = (amount: number, available: number, heldMinor: number, releasedAt: string) => ({
  stream: stream(ACCOUNT, PLATFORM),
  type: 'HoldReleased',
  data: { ...ref(), holdId: 'h-2', amount, reason: 'REFUND', available, held: heldMinor, releasedAt },
});
const privacy = (privateEnabled: boolean, accountId = WALLET, platformId = PLATFORM) => ({
  stream: `walletAuth-${accountId.split(':')[1]}-${platformId}`,
  type: 'WalletPrivacyUpdated',
  data: { platformId, accountId, privateEnabled, requestId: 'Request:r', updatedAt: '2025-10-13T15:00:00.000Z' },
});

const closed = (changedAt: string, accountId = ACCOUNT, platformId = PLATFORM) => ({
  stream: stream(accountId, platformId),
  type: 'InternalAccountStatusChanged',
  data: { ...ref(accountId, platformId), previousStatus: 'ACTIVE', status: 'CLOSED', reason: 'CUSTOMER_DELETED', changedAt },
});

const COLUMNS = 'platform_id, account_id, customer_id, account_type, currency, status, available_minor, held_minor, private_enabled, created_at, updated_at';

describe('internal-accounts projection', () => {
  let spec: ProjectionSpec;
  beforeEach(async () => {
    spec = await projectionSpec(internalAccountsProjection);
  });
  afterEach(async () => {
    await spec.close();
  });

  it('an opened account is one ACTIVE row with zero balances; privacy is null except for an embedded wallet (false)', async () => {
    await spec.given([
      opened(ACCOUNT),
      opened(WALLET, { accountType: 'EMBEDDED_WALLET', currency: 'USDB' }),
      opened('InternalAccount:0199a000-0000-7000-8000-0000000000a3', { customerId: null, currency: 'USDC', accountType: 'INTERNAL_CRYPTO' }),
    ]);
    expect(await spec.rows(`SELECT ${COLUMNS} FROM internal_accounts ORDER BY account_id`)).toEqual([
      {
        platform_id: PLATFORM,
        account_id: ACCOUNT,
        customer_id: CUSTOMER,
        account_type: 'INTERNAL_FIAT',
        currency: 'USD',
        status: 'ACTIVE',
        available_minor: '0',
        held_minor: '0',
        private_enabled: null,
        created_at: new Date(OPENED_AT),
        updated_at: new Date(OPENED_AT),
      },
      {
        platform_id: PLATFORM,
        account_id: WALLET,
        customer_id: CUSTOMER,
        account_type: 'EMBEDDED_WALLET',
        currency: 'USDB',
        status: 'ACTIVE',
        available_minor: '0',
        held_minor: '0',
        private_enabled: false,
        created_at: new Date(OPENED_AT),
        updated_at: new Date(OPENED_AT),
      },
      {
        platform_id: PLATFORM,
        account_id: 'InternalAccount:0199a000-0000-7000-8000-0000000000a3',
        customer_id: null,
        account_type: 'INTERNAL_CRYPTO',
        currency: 'USDC',
        status: 'ACTIVE',
        available_minor: '0',
        held_minor: '0',
        private_enabled: null,
        created_at: new Date(OPENED_AT),
        updated_at: new Date(OPENED_AT),
      },
    ]);
  });

  it('every ledger event sets the balances it carries and its own time as updated_at', async () => {
    await spec.given([opened(ACCOUNT), credited(1000, 1000, 0, '2025-10-13T12:01:00.000Z')]);
    const balances = () => spec.rows('SELECT available_minor, held_minor, created_at, updated_at FROM internal_accounts');
    expect(await balances()).toEqual([
      { available_minor: '1000', held_minor: '0', created_at: new Date(OPENED_AT), updated_at: new Date('2025-10-13T12:01:00.000Z') },
    ]);
    await spec.given([held(300, 700, 300, '2025-10-13T12:02:00.000Z')]);
    expect(await balances()).toEqual([
      { available_minor: '700', held_minor: '300', created_at: new Date(OPENED_AT), updated_at: new Date('2025-10-13T12:02:00.000Z') },
    ]);
    await spec.given([settled(100, 700, 200, '2025-10-13T12:03:00.000Z')]);
    expect(await balances()).toEqual([
      { available_minor: '700', held_minor: '200', created_at: new Date(OPENED_AT), updated_at: new Date('2025-10-13T12:03:00.000Z') },
    ]);
    await spec.given([released(200, 900, 0, '2025-10-13T12:04:00.000Z')]);
    expect(await balances()).toEqual([
      { available_minor: '900', held_minor: '0', created_at: new Date(OPENED_AT), updated_at: new Date('2025-10-13T12:04:00.000Z') },
    ]);
  });

  it('a card\'s movements (adjustment, capture, debit) set the balances they carry and their own time', async () => {
    const movement = (type: string, data: Record<string, unknown>) => ({ stream: stream(ACCOUNT, PLATFORM), type, data: { ...ref(), ...data } });
    await spec.given([opened(ACCOUNT), credited(1000, 1000, 0, '2025-10-13T12:01:00.000Z'), held(300, 700, 300, '2025-10-13T12:02:00.000Z')]);
    const balances = () => spec.rows('SELECT available_minor, held_minor, updated_at FROM internal_accounts');
    await spec.given([
      movement('HoldAdjusted', { holdId: 'h', adjustmentId: 'a', previousRemaining: 300, remaining: 400, available: 600, held: 400, adjustedAt: '2025-10-13T12:03:00.000Z' }),
    ]);
    expect(await balances()).toEqual([{ available_minor: '600', held_minor: '400', updated_at: new Date('2025-10-13T12:03:00.000Z') }]);
    await spec.given([movement('HoldCaptured', { holdId: 'h', captureId: 'c', amount: 150, remaining: 250, available: 600, held: 250, capturedAt: '2025-10-13T12:04:00.000Z' })]);
    expect(await balances()).toEqual([{ available_minor: '600', held_minor: '250', updated_at: new Date('2025-10-13T12:04:00.000Z') }]);
    await spec.given([
      movement('FundsDebited', { movementId: 'd', amount: 100, reason: 'CARD', reference: null, available: 500, held: 250, debitedAt: '2025-10-13T12:05:00.000Z' }),
    ]);
    expect(await balances()).toEqual([{ available_minor: '500', held_minor: '250', updated_at: new Date('2025-10-13T12:05:00.000Z') }]);
  });

  it('a status change sets status and updated_at, keeping the balances; later movements move balances only', async () => {
    await spec.given([opened(ACCOUNT), credited(1000, 1000, 0, '2025-10-13T12:01:00.000Z'), held(300, 700, 300, '2025-10-13T12:02:00.000Z')]);
    await spec.given([closed('2025-10-13T13:00:00.000Z')]);
    const row = () => spec.rows('SELECT status, available_minor, held_minor, updated_at FROM internal_accounts');
    expect(await row()).toEqual([{ status: 'CLOSED', available_minor: '700', held_minor: '300', updated_at: new Date('2025-10-13T13:00:00.000Z') }]);
    // The payment under way when the account closed settles.
    const settlement = settled(300, 700, 0, '2025-10-13T13:01:00.000Z');
    await spec.given([{ ...settlement, data: { ...settlement.data, accountStatus: 'CLOSED' } }]);
    expect(await row()).toEqual([{ status: 'CLOSED', available_minor: '700', held_minor: '0', updated_at: new Date('2025-10-13T13:01:00.000Z') }]);
  });

  it('a status change of an account it never saw opened, or of another platform\'s, writes nothing', async () => {
    await spec.given([opened(ACCOUNT), closed('2025-10-13T13:00:00.000Z', ACCOUNT, OTHER_PLATFORM), closed('2025-10-13T13:00:00.000Z', WALLET)]);
    expect(await spec.rows('SELECT account_id, status, updated_at FROM internal_accounts')).toEqual([
      { account_id: ACCOUNT, status: 'ACTIVE', updated_at: new Date(OPENED_AT) },
    ]);
  });

  it('balances beyond 32 bits are kept exactly', async () => {
    await spec.given([opened(ACCOUNT), credited(9_000_000_000_000_000, 9_000_000_000_000_000, 0, '2025-10-13T12:01:00.000Z')]);
    expect(await spec.rows('SELECT available_minor FROM internal_accounts')).toEqual([{ available_minor: '9000000000000000' }]);
  });

  it('a voided hold and a second opening change nothing', async () => {
    await spec.given([
      opened(ACCOUNT),
      credited(1000, 1000, 0, '2025-10-13T12:01:00.000Z'),
      { stream: stream(ACCOUNT, PLATFORM), type: 'HoldVoided', data: { ...ref(), holdId: 'h-9', reason: 'EXPIRED', voidedAt: '2025-10-13T12:05:00.000Z' } },
      opened(ACCOUNT, { openedAt: '2025-10-13T12:06:00.000Z', customerId: null }),
    ]);
    expect(await spec.rows('SELECT customer_id, available_minor, held_minor, created_at, updated_at FROM internal_accounts')).toEqual([
      { customer_id: CUSTOMER, available_minor: '1000', held_minor: '0', created_at: new Date(OPENED_AT), updated_at: new Date('2025-10-13T12:01:00.000Z') },
    ]);
  });

  it("a wallet's privacy setting changes private_enabled only, leaving balances and updated_at alone", async () => {
    await spec.given([
      opened(WALLET, { accountType: 'EMBEDDED_WALLET', currency: 'USDB' }),
      credited(500, 500, 0, '2025-10-13T12:01:00.000Z', WALLET),
      privacy(true),
    ]);
    const row = () => spec.rows('SELECT private_enabled, available_minor, updated_at FROM internal_accounts');
    expect(await row()).toEqual([{ private_enabled: true, available_minor: '500', updated_at: new Date('2025-10-13T12:01:00.000Z') }]);
    await spec.given([privacy(false)]);
    expect(await row()).toEqual([{ private_enabled: false, available_minor: '500', updated_at: new Date('2025-10-13T12:01:00.000Z') }]);
  });

  it('a movement or privacy change of an account it never saw opened writes no row', async () => {
    await spec.given([credited(1000, 1000, 0, '2025-10-13T12:01:00.000Z'), privacy(true)]);
    expect(await spec.rows('SELECT account_id FROM internal_accounts')).toEqual([]);
  });

  it('the same account id on two platforms: each event moves only its own platform\'s row', async () => {
    await spec.given([
      opened(ACCOUNT),
      opened(ACCOUNT, { platformId: OTHER_PLATFORM, openedAt: '2025-10-13T12:00:30.000Z' }),
      opened(WALLET, { accountType: 'EMBEDDED_WALLET' }),
      opened(WALLET, { platformId: OTHER_PLATFORM, accountType: 'EMBEDDED_WALLET' }),
      credited(700, 700, 0, '2025-10-13T12:01:00.000Z', ACCOUNT, OTHER_PLATFORM),
      privacy(true, WALLET, OTHER_PLATFORM),
    ]);
    expect(
      await spec.rows('SELECT platform_id, account_id, available_minor, private_enabled, created_at, updated_at FROM internal_accounts ORDER BY platform_id, account_id'),
    ).toEqual([
      { platform_id: PLATFORM, account_id: ACCOUNT, available_minor: '0', private_enabled: null, created_at: new Date(OPENED_AT), updated_at: new Date(OPENED_AT) },
      { platform_id: PLATFORM, account_id: WALLET, available_minor: '0', private_enabled: false, created_at: new Date(OPENED_AT), updated_at: new Date(OPENED_AT) },
      {
        platform_id: OTHER_PLATFORM,
        account_id: ACCOUNT,
        available_minor: '700',
        private_enabled: null,
        created_at: new Date('2025-10-13T12:00:30.000Z'),
        updated_at: new Date('2025-10-13T12:01:00.000Z'),
      },
      { platform_id: OTHER_PLATFORM, account_id: WALLET, available_minor: '0', private_enabled: true, created_at: new Date(OPENED_AT), updated_at: new Date(OPENED_AT) },
    ]);
  });
});
