import { RecordedEvent } from '../infra/event-store/event-store.port';
import { AccountWebhookMapper, accountWebhooks } from './account-webhooks';
import { transactionOnWire } from './queries/transaction-wire';
import { transferTransactionViewFromEvents } from './queries/transfer-transaction.reducers';

const ref = { accountId: 'InternalAccount:0190a5a0-0000-7000-8000-000000000001', platformId: 'Platform:p1', currency: 'USD' };
const streamName = 'internalAccount-0190a5a0-0000-7000-8000-000000000001';

function recorded(revision: number, type: string, data: Record<string, unknown>): RecordedEvent {
  return {
    id: `e${revision}`,
    type,
    data: { ...ref, ...data },
    metadata: {} as RecordedEvent['metadata'],
    streamName,
    revision,
    position: { commit: BigInt(revision + 1), prepare: BigInt(revision + 1) },
    createdAt: new Date('2026-01-01T00:00:00Z'),
  };
}

const stream = [
  recorded(0, 'InternalAccountOpened', { customerId: 'Customer:c1', accountType: 'INTERNAL_FIAT', openedAt: '2026-01-01T00:00:00.000Z' }),
  recorded(1, 'FundsCredited', { available: 1000, held: 0, movementId: 'm1', amount: 1000, reason: 'X', reference: null, creditedAt: '2026-01-01T00:00:01.000Z' }),
  recorded(2, 'FundsHeld', { available: 600, held: 400, holdId: 'h1', amount: 400, reference: null, heldAt: '2026-01-01T00:00:02.000Z' }),
  recorded(3, 'HoldVoided', { holdId: 'h2', reason: 'R', voidedAt: '2026-01-01T00:00:03.000Z' }),
  recorded(4, 'HoldReleased', { available: 1000, held: 0, holdId: 'h1', amount: 400, reason: 'R', releasedAt: '2026-01-01T00:00:04.000Z' }),
  recorded(5, 'FundsHeld', { available: 900, held: 100, holdId: 'h3', amount: 100, reference: null, heldAt: '2026-01-01T00:00:05.000Z' }),
  recorded(6, 'HoldSettled', { available: 900, held: 0, holdId: 'h3', amount: 100, settledAt: '2026-01-01T00:00:06.000Z' }),
  recorded(7, 'FundsHeld', { available: 600, held: 300, holdId: 'h4', amount: 300, reference: null, heldAt: '2026-01-01T00:00:07.000Z' }),
  recorded(8, 'HoldAdjusted', { available: 500, held: 400, holdId: 'h4', adjustmentId: 'a1', previousRemaining: 300, remaining: 400, adjustedAt: '2026-01-01T00:00:08.000Z' }),
  recorded(9, 'HoldCaptured', { available: 500, held: 150, holdId: 'h4', captureId: 'c1', amount: 250, remaining: 150, capturedAt: '2026-01-01T00:00:09.000Z' }),
  recorded(10, 'FundsDebited', { available: 450, held: 150, movementId: 'd1', amount: 50, reason: 'X', reference: null, debitedAt: '2026-01-01T00:00:10.000Z' }),
  recorded(11, 'InternalAccountStatusChanged', { previousStatus: 'ACTIVE', status: 'CLOSED', reason: 'CUSTOMER_DELETED', changedAt: '2026-01-01T00:00:11.000Z' }),
  recorded(12, 'HoldCaptured', { available: 450, held: 0, holdId: 'h4', captureId: 'c2', amount: 150, remaining: 0, accountStatus: 'CLOSED', capturedAt: '2026-01-01T00:00:12.000Z' }),
];

describe('AccountWebhookMapper', () => {
  it('maps every balance event exactly like folding the stream up to it, reading only the opening once', async () => {
    const reads: string[] = [];
    const mapper = new AccountWebhookMapper(
      async (event) => {
        reads.push(`upTo:${event.revision}`);
        return stream.slice(0, event.revision + 1);
      },
      async () => {
        reads.push('opening');
        return stream[0];
      },
    );
    for (const event of stream.filter((candidate) => mapper.eventTypes.includes(candidate.type))) {
      expect(await mapper.toWebhooks(event)).toEqual(accountWebhooks(event, stream.slice(0, event.revision + 1)));
    }
    expect(reads).toEqual(['opening']);
  });

  it('a capture, an adjustment and a debit are each a BALANCE_UPDATED with the balances and time they carry', async () => {
    const balanceAfter = (revision: number) => accountWebhooks(stream[revision], stream.slice(0, revision + 1));
    expect(balanceAfter(8)).toEqual([
      { type: 'INTERNAL_ACCOUNT.BALANCE_UPDATED', data: expect.objectContaining({ status: 'ACTIVE', balance: expect.objectContaining({ amount: 500 }), totalBalance: expect.objectContaining({ amount: 900 }), updatedAt: '2026-01-01T00:00:08.000Z' }) },
    ]);
    expect(balanceAfter(9)[0].data).toMatchObject({ balance: { amount: 500 }, totalBalance: { amount: 650 }, updatedAt: '2026-01-01T00:00:09.000Z' });
    expect(balanceAfter(10)[0].data).toMatchObject({ balance: { amount: 450 }, totalBalance: { amount: 600 }, updatedAt: '2026-01-01T00:00:10.000Z' });
    // A capture of a payment under way when the account closed shows the account CLOSED.
    expect(balanceAfter(12)[0].data).toMatchObject({ status: 'CLOSED', balance: { amount: 450 }, totalBalance: { amount: 450 } });
  });
});

describe('transfer refund webhooks', () => {
  const transfer = { transactionId: 'Transaction:0190a5a0-0000-7000-8000-000000000002', platformId: 'Platform:p1' };
  const at = (second: number) => `2026-01-01T00:00:0${second}.000Z`;
  const event = (revision: number, type: string, data: Record<string, unknown>): RecordedEvent => ({
    ...recorded(revision, type, data), data: { ...transfer, ...data }, streamName: 'transaction-0190a5a0-0000-7000-8000-000000000002',
  });
  const refund = { reference: `${transfer.transactionId}:refund`, initiatedAt: at(3), settledAt: null, status: 'PENDING', reason: 'BANK_REJECTED' };
  const stream = [
    event(0, 'TransferOutRequested', {
      customerId: 'Customer:c1', platformCustomerId: 'c-1', sourceAccountId: ref.accountId, destinationAccountId: 'ExternalAccount:e1', paymentRail: 'ACH',
      currency: 'USD', amount: 400, counterpartySuffix: '004', requestedAt: at(1),
    }),
    event(1, 'TransferOutFundsHeld', { holdId: transfer.transactionId, heldAt: at(2) }),
    event(2, 'TransferOutFailed', { failureReason: 'BANK_REJECTED', refund, failedAt: at(3) }),
    event(3, 'TransferOutRefundCompleted', { settledAt: at(4) }),
  ];
  const wireAfter = (revision: number) => transactionOnWire(transferTransactionViewFromEvents(stream.slice(0, revision + 1))!, transfer.platformId);

  it('a failure is FAILED then REFUND_PENDING (the refund started, keyed by its reference); the refund\'s end is REFUND_COMPLETED', () => {
    const key = refund.reference;
    expect(accountWebhooks(stream[2], stream.slice(0, 3))).toEqual([
      { type: 'OUTGOING_PAYMENT.FAILED', data: wireAfter(2) },
      { type: 'OUTGOING_PAYMENT.REFUND_PENDING', data: wireAfter(2), key },
    ]);
    expect(wireAfter(2)).toMatchObject({ status: 'FAILED', refund: { status: 'PENDING', settledAt: null } });
    expect(accountWebhooks(stream[3], stream)).toEqual([{ type: 'OUTGOING_PAYMENT.REFUND_COMPLETED', data: wireAfter(3), key }]);
    expect(wireAfter(3)).toMatchObject({ status: 'FAILED', updatedAt: at(4), refund: { ...refund, status: 'COMPLETED', settledAt: at(4), reason: 'TRANSACTION_FAILED' } });
  });
});
