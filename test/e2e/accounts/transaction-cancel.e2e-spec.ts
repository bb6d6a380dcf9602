import { CommandBus } from '@nestjs/cqrs';
import { SettleTransfer } from '../../../src/accounts/commands/settle-transfer';
import { runWithContext } from '../../../src/infra/request-context';
import { SettleQuoteStep } from '../../../src/quotes/commands/settle-quote-step';
import { createUsdExternalAccount } from '../../support/customer-fixtures';
import { FundedCustomer, assertLedgerInvariant, balances, fundedCustomer, quoteToSuffix, transactionWithStatus } from '../../support/quote-fixtures';
import { TestApp, eventually, startTestApp } from '../../support/test-app';
import { WebhookReceiver } from '../../support/webhook-receiver';

/** A cancelled payment as the reference shows it: FAILED (no cancelled status), refunded with USER_CANCELLATION. */
const cancelledShape = (transactionId: string) => ({
  status: 'FAILED',
  failureReason: 'QUOTE_EXECUTION_FAILED',
  refund: { reference: `${transactionId}:refund`, initiatedAt: expect.any(String), settledAt: expect.any(String), status: 'COMPLETED', reason: 'USER_CANCELLATION' },
  updatedAt: expect.any(String),
});

/** The payment as the cancellation's first event left it: FAILED, its refund started (PENDING, not settled). */
const refundStarted = (cancelled: any) => {
  const { settledAt: _settledAt, ...refund } = cancelled.refund;
  return { ...cancelled, refund: { ...refund, status: 'PENDING' } };
};

const REFUND_WEBHOOKS = ['OUTGOING_PAYMENT.FAILED', 'OUTGOING_PAYMENT.REFUND_PENDING', 'OUTGOING_PAYMENT.REFUND_COMPLETED'];

/**
 * `POST /transactions/{id}/cancel` (a bank transfer before it settles) and `/confirm` (receipt
 * delivery). Settlement never runs on its own here (one-minute sandbox delays): each test sends
 * the settlement command itself, before, after or at the same time as the cancel. A cancellation
 * starts and completes its refund in one commit: FAILED, REFUND_PENDING and REFUND_COMPLETED, in
 * that order (one delivery slot per platform here).
 */
describe('transactions: cancel and confirm', () => {
  let testApp: TestApp;
  let receiver: WebhookReceiver;
  let commandBus: CommandBus;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { SANDBOX_SETTLEMENT_DELAY_MS: '60000', SANDBOX_SLOW_FAILURE_DELAY_MS: '60000', WEBHOOK_PLATFORM_CONCURRENCY: '1' } });
    receiver = await WebhookReceiver.forPlatform(testApp.platform.api);
    commandBus = testApp.app.get(CommandBus);
  });

  afterAll(async () => {
    await testApp?.close();
    await receiver?.close();
  });

  const api = () => testApp.platform.api;

  /** The settlement task's command, run as the task runner runs it (the platform in context). */
  const settle = (command: SettleTransfer | SettleQuoteStep) =>
    runWithContext(
      { requestId: 'test-settlement', correlationId: 'test-settlement', causationId: 'test-settlement', platformId: testApp.platform.platformId, actor: 'system:test', idempotencyKey: null, lastPosition: null },
      () => commandBus.execute(command),
    );

  /** A PENDING ACH transfer-out of 4,000 from a USD account funded with 10,000 (to a failing account with suffix 005). */
  async function pendingTransferOut(suffix = '789'): Promise<{ owner: FundedCustomer; transaction: any }> {
    const owner = await fundedCustomer(api(), 10_000);
    const external = await createUsdExternalAccount(api(), owner.customer.id, suffix);
    const transaction = (await api().post('/transfer-out').send({ source: { accountId: owner.usd.id }, destination: { accountId: external.id, paymentRail: 'ACH' }, amount: 4_000 }).expect(201)).body;
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 6_000, total: 10_000 });
    return { owner, transaction };
  }

  /** A PROCESSING ACH payment of 4,000 behind a quote, from a USD account funded with 10,000 (a failing payout with suffix 002). */
  async function processingQuotePayment(suffix = '789'): Promise<{ owner: FundedCustomer; quote: any }> {
    const owner = await fundedCustomer(api(), 10_000);
    const quote = await quoteToSuffix(api(), owner, suffix, 4_000);
    expect((await api().post(`/quotes/${quote.id}/execute`).expect(200)).body.status).toBe('PROCESSING');
    return { owner, quote };
  }

  const history = async (resourceId: string) =>
    (await api().get('/audit/events').query({ resourceId }).expect(200)).body.data.map((entry: { type: string }) => entry.type);

  /** The payment's webhooks once `count` arrived, in arrival order (signatures checked). */
  const webhooksOf = async (transactionId: string, count: number) => {
    const mine = () => receiver.received.filter((entry) => entry.body.data?.id === transactionId);
    await eventually(async () => mine().length >= count);
    for (const entry of mine()) expect(entry.signatureValid).toBe(true);
    return mine().map((entry) => ({ type: entry.body.type, data: entry.body.data }));
  };

  it('cancels a pending ACH transfer-out: FAILED with its refund completed, the balance restored exactly, the webhooks and the audit events', async () => {
    const { owner, transaction } = await pendingTransferOut();
    const cancelled = await api().post(`/transactions/${transaction.id}/cancel`).send({ reason: 'REQUESTED_AFTER_HOURS' }).expect(200);
    expect(cancelled.body).toEqual({ ...transaction, ...cancelledShape(transaction.id) });
    expect(cancelled.body.refund.settledAt).toBe(cancelled.body.refund.initiatedAt);
    expect((await api().get(`/transactions/${transaction.id}`).expect(200)).body).toEqual(cancelled.body);
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 10_000, total: 10_000 });
    const started = refundStarted(cancelled.body);
    expect(await webhooksOf(transaction.id, 4)).toEqual([
      { type: 'OUTGOING_PAYMENT.PENDING', data: transaction },
      { type: 'OUTGOING_PAYMENT.FAILED', data: started },
      { type: 'OUTGOING_PAYMENT.REFUND_PENDING', data: started },
      { type: 'OUTGOING_PAYMENT.REFUND_COMPLETED', data: cancelled.body },
    ]);
    expect(await history(transaction.id)).toEqual(['TransferOutRequested', 'TransferOutFundsHeld', 'TransferOutCancelled', 'TransferOutRefundCompleted']);

    // The settlement that was scheduled finds it cancelled; a repeated cancel answers it as it is.
    await settle(new SettleTransfer(transaction.id));
    expect((await api().post(`/transactions/${transaction.id}/cancel`).expect(200)).body).toEqual(cancelled.body);
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 10_000, total: 10_000 });
    expect(await history(transaction.id)).toHaveLength(4);
    await assertLedgerInvariant(testApp.databaseUrl, api(), [owner.usd.id]);
  });

  it('cancels a PROCESSING ACH payment behind a quote: the quote FAILED, the hold released, OUTGOING_PAYMENT.FAILED', async () => {
    const { owner, quote } = await processingQuotePayment();
    const before = (await api().get(`/transactions/${quote.transactionId}`).expect(200)).body;
    const cancelled = await api().post(`/transactions/${quote.transactionId}/cancel`).expect(200);
    expect(cancelled.body).toEqual({ ...before, ...cancelledShape(quote.transactionId) });
    expect((await api().get(`/transactions/${quote.transactionId}`).expect(200)).body).toEqual(cancelled.body);
    expect((await api().get(`/quotes/${quote.id}`).expect(200)).body.status).toBe('FAILED');
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 10_000, total: 10_000 });
    const started = refundStarted(cancelled.body);
    expect((await webhooksOf(quote.transactionId, 5)).slice(2)).toEqual([
      { type: 'OUTGOING_PAYMENT.FAILED', data: started },
      { type: 'OUTGOING_PAYMENT.REFUND_PENDING', data: started },
      { type: 'OUTGOING_PAYMENT.REFUND_COMPLETED', data: cancelled.body },
    ]);
    expect(await history(quote.id)).toEqual(['QuoteCreated', 'QuoteExecutionRequested', 'QuoteFundsHeld', 'QuoteFailed', 'QuoteRefundCompleted']);

    await settle(new SettleQuoteStep(quote.id, 0));
    expect((await api().get(`/transactions/${quote.transactionId}`).expect(200)).body).toEqual(cancelled.body);
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 10_000, total: 10_000 });
  });

  it('409 TRANSACTION_NOT_CANCELLABLE once settled (transfer and quote payment); nothing changes', async () => {
    const { owner, transaction } = await pendingTransferOut();
    await settle(new SettleTransfer(transaction.id));
    const refused = await api().post(`/transactions/${transaction.id}/cancel`).expect(409);
    expect(refused.body).toEqual({
      status: 409,
      code: 'TRANSACTION_NOT_CANCELLABLE',
      message: 'The transfer is past the point where it can be cancelled',
      details: { reason: 'NOT_PENDING', status: 'COMPLETED' },
    });
    expect((await api().get(`/transactions/${transaction.id}`).expect(200)).body.status).toBe('COMPLETED');
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 6_000, total: 6_000 });

    const paid = await processingQuotePayment();
    await settle(new SettleQuoteStep(paid.quote.id, 0));
    const quoteRefused = await api().post(`/transactions/${paid.quote.transactionId}/cancel`).expect(409);
    expect(quoteRefused.body).toMatchObject({ code: 'TRANSACTION_NOT_CANCELLABLE', details: { reason: 'NOT_PENDING', status: 'COMPLETED' } });
  });

  it('409 TRANSACTION_NOT_CANCELLABLE for what is no bank transfer: an UMA payment, an incoming funding (instant rails: the decider spec)', async () => {
    const owner = await fundedCustomer(api(), 10_000);
    const uma = (await api().post('/quotes').send({
      source: { sourceType: 'ACCOUNT', accountId: owner.usd.id },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$pending.long.usd@sandbox.uma.money' },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    }).expect(201)).body;
    await api().post(`/quotes/${uma.id}/execute`).expect(200);
    const refused = await api().post(`/transactions/${uma.transactionId}/cancel`).expect(409);
    expect(refused.body).toEqual({
      status: 409,
      code: 'TRANSACTION_NOT_CANCELLABLE',
      message: 'Only a pending bank transfer (ACH, wire, SEPA, ...) funded from an account can be cancelled',
      details: { reason: 'NOT_A_CANCELLABLE_BANK_TRANSFER', paymentRail: 'UMA' },
    });

    const funding = (await api().get('/transactions').query({ accountId: owner.usd.id, type: 'INCOMING' }).expect(200)).body.data[0];
    const incoming = await api().post(`/transactions/${funding.id}/cancel`).expect(409);
    expect(incoming.body).toMatchObject({ code: 'TRANSACTION_NOT_CANCELLABLE', details: { reason: 'NOT_A_CANCELLABLE_BANK_TRANSFER' } });
  });

  // The settlement starts 0 to 80 ms after the cancel request, so either may reach the ledger first.
  const later = (delayMs: number, work: () => Promise<unknown>) => new Promise((resolve) => setTimeout(resolve, delayMs)).then(work);

  it.each([0, 5, 10, 20, 30, 40, 60, 80])('a cancel racing the settlement (settlement %i ms later): exactly one outcome, the money consistent', async (delayMs) => {
    const { owner, transaction } = await pendingTransferOut();
    const [cancel] = await Promise.all([
      api().post(`/transactions/${transaction.id}/cancel`),
      later(delayMs, () => settle(new SettleTransfer(transaction.id))),
    ]);
    await expectOneOutcome(cancel, transaction.id, owner);
    // One outcome announced: PENDING, then COMPLETED or FAILED with its refund, never both.
    const outcome = cancel.status === 200 ? REFUND_WEBHOOKS : ['OUTGOING_PAYMENT.COMPLETED'];
    await receiver.waitFor((entry) => entry.body.type === outcome[outcome.length - 1] && entry.body.data.id === transaction.id);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const announced = receiver.received.filter((entry) => entry.body.data?.id === transaction.id).map((entry) => entry.body.type);
    expect(announced).toEqual(['OUTGOING_PAYMENT.PENDING', ...outcome]);

    const paid = await processingQuotePayment();
    const [quoteCancel] = await Promise.all([
      api().post(`/transactions/${paid.quote.transactionId}/cancel`),
      later(delayMs, () => settle(new SettleQuoteStep(paid.quote.id, 0))),
    ]);
    await expectOneOutcome(quoteCancel, paid.quote.transactionId, paid.owner);
  });

  /** A PENDING ACH transfer-in (a pull) of 4,000 into a USD account funded with 10,000. */
  async function pendingTransferIn(): Promise<{ owner: FundedCustomer; transaction: any }> {
    const owner = await fundedCustomer(api(), 10_000);
    const external = await createUsdExternalAccount(api(), owner.customer.id, '789');
    const transaction = (await api().post('/transfer-in').send({ source: { accountId: external.id }, destination: { accountId: owner.usd.id }, amount: 4_000 }).expect(201)).body;
    expect(transaction.destination.paymentRail).toBe('ACH');
    return { owner, transaction };
  }

  it('cancels a pending ACH transfer-in (a pull): FAILED, nothing credited even when the settlement runs after, INCOMING_PAYMENT.FAILED', async () => {
    const { owner, transaction } = await pendingTransferIn();
    const cancelled = (await api().post(`/transactions/${transaction.id}/cancel`).send({ reason: 'REQUESTED_AFTER_HOURS' }).expect(200)).body;
    expect(cancelled).toEqual({ ...transaction, status: 'FAILED', failureReason: 'COLLECTION_FAILED', updatedAt: expect.any(String) });
    await settle(new SettleTransfer(transaction.id));
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 10_000, total: 10_000 });
    expect((await api().post(`/transactions/${transaction.id}/cancel`).expect(200)).body).toEqual(cancelled);
    expect(await history(transaction.id)).toEqual(['TransferInRequested', 'TransferInCancelled']);
    await receiver.waitFor((entry) => entry.body.type === 'INCOMING_PAYMENT.FAILED' && entry.body.data.id === transaction.id);
  });

  it.each([0, 10, 30])('a pull\'s cancel racing its settlement (settlement %i ms later): cancelled and never credited, or completed and credited once', async (delayMs) => {
    const { owner, transaction } = await pendingTransferIn();
    const [cancel] = await Promise.all([
      api().post(`/transactions/${transaction.id}/cancel`),
      later(delayMs, () => settle(new SettleTransfer(transaction.id))),
    ]);
    // The settlement is sent in-process, not over HTTP: the read model follows it a moment later,
    // so the final status is awaited rather than read once (a single read saw PENDING).
    if (cancel.status === 200) {
      expect((await transactionWithStatus(api(), transaction.id, 'FAILED')).status).toBe('FAILED');
      expect(await balances(api(), owner.usd.id)).toEqual({ available: 10_000, total: 10_000 });
    } else {
      expect(cancel.status).toBe(409);
      expect(cancel.body).toMatchObject({ code: 'TRANSACTION_NOT_CANCELLABLE', details: { reason: 'NOT_PENDING', status: 'COMPLETED' } });
      expect((await transactionWithStatus(api(), transaction.id, 'COMPLETED')).status).toBe('COMPLETED');
      await eventually(async () => (await balances(api(), owner.usd.id)).total === 14_000);
    }
  });

  it('409 TRANSACTION_NOT_CANCELLABLE once failed (transfer and quote payment): the failure\'s own refund gives the hold back', async () => {
    const { owner, transaction } = await pendingTransferOut('005');
    await settle(new SettleTransfer(transaction.id));
    await expectOneRefund(await api().post(`/transactions/${transaction.id}/cancel`).expect(409), transaction.id, owner);

    const paid = await processingQuotePayment('002');
    await settle(new SettleQuoteStep(paid.quote.id, 0));
    await expectOneRefund(await api().post(`/transactions/${paid.quote.transactionId}/cancel`).expect(409), paid.quote.transactionId, paid.owner);
  });

  it.each([0, 10, 30, 60])('a cancel racing a failing settlement (settlement %i ms later): one refund, the hold back once', async (delayMs) => {
    const { owner, transaction } = await pendingTransferOut('005');
    const [cancel] = await Promise.all([
      api().post(`/transactions/${transaction.id}/cancel`),
      later(delayMs, () => settle(new SettleTransfer(transaction.id))),
    ]);
    await expectOneRefund(cancel, transaction.id, owner);

    const paid = await processingQuotePayment('002');
    const [quoteCancel] = await Promise.all([
      api().post(`/transactions/${paid.quote.transactionId}/cancel`),
      later(delayMs, () => settle(new SettleQuoteStep(paid.quote.id, 0))),
    ]);
    await expectOneRefund(quoteCancel, paid.quote.transactionId, paid.owner);
  });

  /**
   * A cancel that won has its refund completed at once. One that lost (409) lost to the failure,
   * which keeps the hold until its own refund completes (SANDBOX_REFUND_DELAY_MS later). Either
   * way the hold comes back exactly once.
   */
  async function expectOneRefund(cancel: { status: number; body: any }, transactionId: string, owner: FundedCustomer): Promise<void> {
    if (cancel.status === 200) {
      expect(cancel.body.refund).toMatchObject({ status: 'COMPLETED', reason: 'USER_CANCELLATION' });
    } else {
      expect(cancel.body).toEqual({
        status: 409, code: 'TRANSACTION_NOT_CANCELLABLE', message: expect.any(String), details: { reason: 'NOT_PENDING', status: 'FAILED' },
      });
      const refunded = await eventually(async () => {
        const response = await api().get(`/transactions/${transactionId}`).expect(200);
        return response.body.refund?.status === 'COMPLETED' && response.body;
      });
      expect(refunded.refund.reason).not.toBe('USER_CANCELLATION');
    }
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 10_000, total: 10_000 });
    await assertLedgerInvariant(testApp.databaseUrl, api(), [owner.usd.id]);
  }

  /**
   * A cancel that won shows at once, refunded, the balance whole. One that lost (409) lost to a
   * settlement that moved the money first: its record follows (COMPLETED), the money gone.
   */
  async function expectOneOutcome(cancel: { status: number; body: any }, transactionId: string, owner: FundedCustomer): Promise<void> {
    if (cancel.status === 200) {
      expect((await api().get(`/transactions/${transactionId}`).expect(200)).body).toEqual(cancel.body);
      expect(cancel.body.refund.reason).toBe('USER_CANCELLATION');
      expect(await balances(api(), owner.usd.id)).toEqual({ available: 10_000, total: 10_000 });
    } else {
      expect(cancel.status).toBe(409);
      expect(cancel.body.code).toBe('TRANSACTION_NOT_CANCELLABLE');
      await transactionWithStatus(api(), transactionId, 'COMPLETED');
      await eventually(async () => {
        const now = await balances(api(), owner.usd.id);
        return now.available === 6_000 && now.total === 6_000;
      });
    }
    await assertLedgerInvariant(testApp.databaseUrl, api(), [owner.usd.id]);
  }

  it('confirm: records receiptDeliveryConfirmedAt (given, then now), again replaces it; a quote payment too', async () => {
    const { transaction } = await pendingTransferOut();
    const first = await api().post(`/transactions/${transaction.id}/confirm`).send({ receiptDeliveryConfirmedAt: '2025-08-15T14:31:00Z' }).expect(200);
    expect(first.body).toEqual({ ...transaction, receiptDeliveryConfirmedAt: '2025-08-15T14:31:00.000Z', updatedAt: expect.any(String) });
    const startedAt = Date.now();
    const again = await api().post(`/transactions/${transaction.id}/confirm`).expect(200);
    expect(Date.parse(again.body.receiptDeliveryConfirmedAt)).toBeGreaterThanOrEqual(startedAt - 1_000);
    expect((await api().get(`/transactions/${transaction.id}`).expect(200)).body).toEqual(again.body);
    expect(await history(transaction.id)).toEqual(['TransferOutRequested', 'TransferOutFundsHeld', 'TransferReceiptConfirmed', 'TransferReceiptConfirmed']);

    const { quote } = await processingQuotePayment();
    const confirmed = await api().post(`/transactions/${quote.transactionId}/confirm`).send({ receiptDeliveryConfirmedAt: '2025-08-15T14:31:00.000Z' }).expect(200);
    expect(confirmed.body).toMatchObject({ id: quote.transactionId, status: 'PROCESSING', receiptDeliveryConfirmedAt: '2025-08-15T14:31:00.000Z' });
    expect((await api().get(`/transactions/${quote.transactionId}`).expect(200)).body).toEqual(confirmed.body);

    const invalid = await api().post(`/transactions/${transaction.id}/confirm`).send({ receiptDeliveryConfirmedAt: 'yesterday', extra: 1 }).expect(400);
    expect(invalid.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['extra', 'receiptDeliveryConfirmedAt']);
  });

  it('404 for another platform\'s transaction and an unknown one; 400 for a malformed id or body', async () => {
    const { transaction } = await pendingTransferOut();
    const other = await testApp.createPlatform();
    const unknown = { status: 404, code: 'TRANSACTION_NOT_FOUND', message: 'Transaction not found' };
    for (const action of ['cancel', 'confirm']) {
      expect((await other.api.post(`/transactions/${transaction.id}/${action}`).expect(404)).body).toEqual(unknown);
      expect((await api().post(`/transactions/Transaction:01900000-0000-7000-8000-000000000000/${action}`).expect(404)).body).toEqual(unknown);
      await api().post(`/transactions/nope/${action}`).expect(400);
    }
    const badReason = await api().post(`/transactions/${transaction.id}/cancel`).send({ reason: 7 }).expect(400);
    expect(badReason.body.details.errors).toEqual([expect.objectContaining({ field: 'reason' })]);
    expect((await api().get(`/transactions/${transaction.id}`).expect(200)).body.status).toBe('PENDING');
  });
});
