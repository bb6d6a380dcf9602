import { deciderSpec } from '../../../test/support/decider-spec';
import { IncomingPaymentCommand, MAX_APPROVAL_ROUNDS, incomingPaymentDecider } from './incoming-payment.decider';
import { IncomingPaymentEvent, IncomingPaymentTerms } from './incoming-payment.events';
import { readApprovalAnswer } from './approval-answer';

const NOW = '2026-11-27T12:00:00.000Z';
const DEADLINE = '2026-11-27T12:00:15.000Z';
const AFTER = '2026-11-27T12:00:20.000Z';
const ref = { transactionId: 'Transaction:019ac000-0000-7000-8000-000000000001', platformId: 'platform-a' };
const terms: IncomingPaymentTerms = {
  ...ref,
  customerId: 'Customer:019ac000-0000-7000-8000-000000000002',
  platformCustomerId: 'c-1',
  accountId: 'InternalAccount:019ac000-0000-7000-8000-000000000003',
  senderUmaAddress: '$success.usd@sandbox.uma.money',
  receiverUmaAddress: '$jane@pay.example.com',
  sentAmount: { amount: 1010, currency: 'USD' },
  receivedAmount: { amount: 1000, currency: 'USD' },
  exchangeRate: '1',
  fees: 10,
  counterpartyInformation: { FULL_NAME: 'Sandbox Payer' },
  requestedReceiverCustomerInfoFields: [{ name: 'NATIONALITY', mandatory: true }],
  reference: 'UMA-1',
  senderBehaviour: 'SUCCESS',
};
const received: IncomingPaymentEvent = { type: 'IncomingPaymentReceived', data: { ...terms, approvalDeadline: DEADLINE, receivedAt: NOW } };
const approved: IncomingPaymentEvent = { type: 'IncomingPaymentApproved', data: { ...ref, receiverCustomerInfo: { NATIONALITY: 'US' }, via: 'API', approvedAt: NOW } };
const spec = deciderSpec(incomingPaymentDecider);
const approve = (extra: Partial<Extract<IncomingPaymentCommand, { type: 'ApprovePayment' }>> = {}): IncomingPaymentCommand => ({
  type: 'ApprovePayment', receiverCustomerInfo: { NATIONALITY: 'US' }, via: 'API', now: NOW, ...extra,
});

describe('incoming payment decider', () => {
  it('approves once; a second API decision is TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL, a late webhook answer nothing', () => {
    spec.given([received]).when(approve()).then([approved]);
    spec.given([received, approved]).when(approve()).thenError('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL');
    spec.given([received, approved]).when({ type: 'RejectPayment', reason: null, via: 'API', now: NOW }).thenError('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL');
    spec.given([received, approved]).when(approve({ via: 'WEBHOOK', round: 1 })).then([]);
  });

  it('requires the payer\'s mandatory receiver fields: 400 by API, MISSING_MANDATORY_PAYEE_DATA by webhook', () => {
    spec.given([received]).when(approve({ receiverCustomerInfo: {} })).thenError('INVALID_INPUT');
    spec.given([received]).when(approve({ receiverCustomerInfo: null, via: 'WEBHOOK', round: 1 })).then([
      { type: 'IncomingPaymentFailed', data: { ...ref, failureReason: 'MISSING_MANDATORY_PAYEE_DATA', refund: null, failedAt: NOW } },
    ]);
  });

  it('times out only at the deadline, and only while waiting', () => {
    spec.given([received]).when({ type: 'ExpireApproval', now: NOW }).then([]);
    spec.given([received]).when({ type: 'ExpireApproval', now: AFTER }).then([
      { type: 'IncomingPaymentFailed', data: { ...ref, failureReason: 'PAYMENT_APPROVAL_TIMED_OUT', refund: null, failedAt: AFTER } },
    ]);
    spec.given([received, approved]).when({ type: 'ExpireApproval', now: AFTER }).then([]);
  });

  it('opens a new round with the payer\'s data, up to MAX_APPROVAL_ROUNDS; answers to old rounds change nothing', () => {
    const more = (round: number): IncomingPaymentCommand => ({ type: 'RequestCounterpartyInformation', round, requiredFields: ['EMAIL'], provided: { EMAIL: 'p@x' }, approvalDeadline: DEADLINE, now: NOW });
    const { events } = spec.given([received]).when(more(1));
    expect(events).toEqual([{ type: 'IncomingPaymentCounterpartyInformationProvided', data: expect.objectContaining({ round: 2, counterpartyInformation: { FULL_NAME: 'Sandbox Payer', EMAIL: 'p@x' } }) }]);
    spec.given([received, ...events]).when(more(1)).then([]);
    const rounds: IncomingPaymentEvent[] = [received];
    for (let round = 1; round < MAX_APPROVAL_ROUNDS; round++) rounds.push(...spec.given(rounds).when(more(round)).events);
    spec.given(rounds).when(more(MAX_APPROVAL_ROUNDS)).then([
      { type: 'IncomingPaymentFailed', data: { ...ref, failureReason: 'PAY_REQUEST_FAILED', refund: null, failedAt: NOW } },
    ]);
  });

  it('settles an approved payment: completed, or refused by compliance with the payer\'s refund pending, then refunded', () => {
    spec.given([received, approved]).when({ type: 'SettlePayment', now: AFTER }).then([{ type: 'IncomingPaymentCompleted', data: { ...ref, completedAt: AFTER } }]);
    const compliance: IncomingPaymentEvent = { type: 'IncomingPaymentReceived', data: { ...terms, senderBehaviour: 'FAIL_COMPLIANCE', approvalDeadline: DEADLINE, receivedAt: NOW } };
    const { events } = spec.given([compliance, approved]).when({ type: 'SettlePayment', now: AFTER });
    expect(events).toEqual([
      { type: 'IncomingPaymentFailed', data: { ...ref, failureReason: 'COMPLIANCE_REJECTED', refund: { reference: 'UMA-1-REFUND', initiatedAt: AFTER, settledAt: null, status: 'PENDING', reason: 'TRANSACTION_FAILED' }, failedAt: AFTER } },
    ]);
    spec.given([compliance, approved, ...events]).when({ type: 'CompleteRefund', now: AFTER }).then([{ type: 'IncomingPaymentRefundCompleted', data: { ...ref, settledAt: AFTER } }]);
    spec.given([received]).when({ type: 'SettlePayment', now: AFTER }).then([]);
  });
});

describe('approval answers', () => {
  it('reads 200, 202, 403, 422 and errors as the reference describes them', () => {
    expect(readApprovalAnswer(200, '{"receiverCustomerInfo":{"NATIONALITY":"US"}}', null)).toEqual({ kind: 'APPROVE', receiverCustomerInfo: { NATIONALITY: 'US' } });
    expect(readApprovalAnswer(204, '', null)).toEqual({ kind: 'APPROVE', receiverCustomerInfo: null });
    expect(readApprovalAnswer(202, '', null)).toEqual({ kind: 'DEFER' });
    expect(readApprovalAnswer(403, '{"reason":"RESTRICTED_JURISDICTION"}', null)).toEqual({ kind: 'REJECT', reason: 'RESTRICTED_JURISDICTION' });
    expect(readApprovalAnswer(403, 'nope', null)).toEqual({ kind: 'REJECT', reason: null });
    expect(readApprovalAnswer(422, '{"requiredFields":["TAX_ID","TAX_ID"]}', null)).toEqual({ kind: 'MORE_INFORMATION', requiredFields: ['TAX_ID'] });
    expect(readApprovalAnswer(422, '{}', null).kind).toBe('ERROR');
    expect(readApprovalAnswer(500, '', null)).toEqual({ kind: 'ERROR', detail: 'the endpoint answered 500' });
    expect(readApprovalAnswer(null, '', 'connection refused')).toEqual({ kind: 'ERROR', detail: 'connection refused' });
  });
});
