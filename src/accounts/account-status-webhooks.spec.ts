import { RecordedEvent } from '../infra/event-store/event-store.port';
import { AccountStatusWebhookMapper, accountStatusWebhooks } from './account-status-webhooks';
import { accountWebhooks } from './account-webhooks';

const ACCOUNT = 'InternalAccount:0190a5a0-0000-7000-8000-000000000001';
const EXTERNAL = 'ExternalAccount:0190a5a0-0000-7000-8000-0000000000e1';
const PLATFORM = 'Platform:0190a5a0-0000-7000-8000-0000000000f1';
const USD = { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 };

function recorded(streamName: string, revision: number, type: string, data: Record<string, unknown>): RecordedEvent {
  return {
    id: `e${revision}`,
    type,
    data: { platformId: PLATFORM, ...data },
    metadata: {} as RecordedEvent['metadata'],
    streamName,
    revision,
    position: { commit: BigInt(revision + 1), prepare: BigInt(revision + 1) },
    createdAt: new Date('2026-01-01T00:00:00Z'),
  };
}

const ref = { accountId: ACCOUNT, currency: 'USD' };
const ledger = (revision: number, type: string, data: Record<string, unknown>) =>
  recorded('internalAccount-0190a5a0-0000-7000-8000-000000000001', revision, type, { ...ref, ...data });
const internalStream = (accountType = 'INTERNAL_FIAT') => [
  ledger(0, 'InternalAccountOpened', { customerId: 'Customer:c1', accountType, openedAt: '2026-01-01T00:00:00.000Z' }),
  ledger(1, 'FundsCredited', { available: 1000, held: 0, movementId: 'm1', amount: 1000, reason: 'X', reference: null, creditedAt: '2026-01-01T00:00:01.000Z' }),
  ledger(2, 'FundsHeld', { available: 600, held: 400, holdId: 'h1', amount: 400, reference: null, heldAt: '2026-01-01T00:00:02.000Z' }),
  ledger(3, 'InternalAccountStatusChanged', { previousStatus: 'ACTIVE', status: 'CLOSED', reason: 'CUSTOMER_DELETED', changedAt: '2026-01-01T00:00:03.000Z' }),
  ledger(4, 'HoldSettled', { available: 600, held: 0, holdId: 'h1', amount: 400, accountStatus: 'CLOSED', settledAt: '2026-01-01T00:00:04.000Z' }),
];

const external = (revision: number, type: string, data: Record<string, unknown>) =>
  recorded('externalAccount-0190a5a0-0000-7000-8000-0000000000e1', revision, type, { externalAccountId: EXTERNAL, ...data });
const externalStream = [
  external(0, 'ExternalAccountCreated', {
    customerId: 'Customer:c1',
    currency: 'USD',
    platformAccountId: null,
    accountInfo: { accountType: 'USD_ACCOUNT', identifiers: { accountNumber: '123456104', routingNumber: '021000021' }, paymentRails: ['ACH'], beneficiary: null },
    primaryIdentifier: '123456104',
    beneficiaryVerification: { status: 'PENDING', verifiedFullName: null },
    accountStatus: 'UNDER_REVIEW',
    createdAt: '2026-01-01T00:00:00.000Z',
  }),
  external(1, 'BeneficiaryVerificationResolved', { status: 'MATCHED', verifiedFullName: 'Jane Doe', resolvedAt: '2026-01-01T00:00:05.000Z' }),
  external(2, 'ExternalAccountStatusChanged', {
    previousStatus: 'UNDER_REVIEW', status: 'ACTIVE', reason: 'BENEFICIARY_CHECK_RESOLVED', changedAt: '2026-01-01T00:00:05.000Z',
  }),
];

describe('account status webhooks', () => {
  it('INTERNAL_ACCOUNT.STATUS_UPDATED carries the account as of the change, to the account\'s platform', () => {
    const stream = internalStream();
    expect(accountStatusWebhooks(stream[3], stream.slice(0, 4))).toEqual([
      {
        type: 'INTERNAL_ACCOUNT.STATUS_UPDATED',
        platformId: PLATFORM,
        data: {
          id: ACCOUNT,
          customerId: 'Customer:c1',
          type: 'INTERNAL_FIAT',
          status: 'CLOSED',
          balance: { amount: 600, currency: USD },
          totalBalance: { amount: 1000, currency: USD },
          fundingPaymentInstructions: expect.any(Array),
          createdAt: '2026-01-01T00:00:00.000Z',
          updatedAt: '2026-01-01T00:00:03.000Z',
        },
      },
    ]);
  });

  it('a movement after the closing shows CLOSED in its balance webhook from the opening and the movement alone', () => {
    const stream = internalStream();
    const [balance] = accountWebhooks(stream[4], [stream[0], stream[4]]);
    expect(balance.data).toMatchObject({ status: 'CLOSED', balance: { amount: 600 }, totalBalance: { amount: 600 }, updatedAt: '2026-01-01T00:00:04.000Z' });
    expect(balance.data).toEqual(accountWebhooks(stream[4], stream)[0].data);
  });

  it('EXTERNAL_ACCOUNT.STATUS_UPDATED carries the external account as of the change', () => {
    const [webhook] = accountStatusWebhooks(externalStream[2], externalStream);
    expect(webhook).toMatchObject({
      type: 'EXTERNAL_ACCOUNT.STATUS_UPDATED',
      platformId: PLATFORM,
      data: { id: EXTERNAL, status: 'ACTIVE', beneficiaryVerificationStatus: 'MATCHED', updatedAt: '2026-01-01T00:00:05.000Z' },
    });
  });

  it('the mapper reads the stream up to the event, and an embedded wallet\'s privacy from the read model', async () => {
    const stream = internalStream('EMBEDDED_WALLET');
    const asked: string[] = [];
    const mapper = new AccountStatusWebhookMapper(
      async (event) => stream.slice(0, event.revision + 1),
      async (platformId, accountId) => {
        asked.push(`${platformId} ${accountId}`);
        return true;
      },
    );
    expect(mapper.platformOf(stream[3])).toBe(PLATFORM);
    const [webhook] = await mapper.toWebhooks(stream[3]);
    expect(webhook.data).toMatchObject({ type: 'EMBEDDED_WALLET', status: 'CLOSED', privateEnabled: true });
    expect(asked).toEqual([`${PLATFORM} ${ACCOUNT}`]);
    const plain = new AccountStatusWebhookMapper(async () => externalStream, async () => {
      throw new Error('no privacy for an external account');
    });
    expect((await plain.toWebhooks(externalStream[2]))[0].type).toBe('EXTERNAL_ACCOUNT.STATUS_UPDATED');
  });
});
