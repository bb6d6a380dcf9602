import { Decider } from '../../infra/domain/decider';
import { DomainError } from '../../infra/domain/domain-error';
import { DecidedVia, IncomingPaymentEvent, IncomingPaymentTerms, IncomingRefund } from './incoming-payment.events';

export type IncomingPaymentStatus = 'AWAITING_APPROVAL' | 'APPROVED' | 'COMPLETED' | 'REJECTED' | 'FAILED';

export type IncomingPaymentState =
  | { status: 'none' }
  | (IncomingPaymentTerms & {
      status: IncomingPaymentStatus;
      /** Which approval request is the current one (1 for the first webhook). */
      round: number;
      approvalDeadline: string;
      refund: IncomingRefund | null;
    });

export type IncomingPaymentCommand =
  | { type: 'ReceivePayment'; terms: IncomingPaymentTerms; approvalDeadline: string; now: string }
  /** Answers to approval request `round` (older rounds' answers change nothing). */
  | { type: 'DeferApproval'; round: number; approvalDeadline: string; now: string }
  | {
      type: 'RequestCounterpartyInformation';
      round: number;
      requiredFields: string[];
      /** What the payer's VASP supplies for `requiredFields`; null when it cannot supply them all. */
      provided: Record<string, unknown> | null;
      approvalDeadline: string;
      now: string;
    }
  | { type: 'FailApproval'; round: number; failureReason: string; now: string }
  /** `round` for a webhook answer; absent for the platform's API call. */
  | { type: 'ApprovePayment'; round?: number; receiverCustomerInfo: Record<string, unknown> | null; via: DecidedVia; now: string }
  | { type: 'RejectPayment'; round?: number; reason: string | null; via: DecidedVia; now: string }
  | { type: 'ExpireApproval'; now: string }
  | { type: 'SettlePayment'; now: string }
  | { type: 'CompleteRefund'; now: string };

/** Approval requests per payment: the first, and two more after the platform asked for payer data. */
export const MAX_APPROVAL_ROUNDS = 3;

type Known = Exclude<IncomingPaymentState, { status: 'none' }>;

function notPending(state: Known): DomainError {
  return new DomainError('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL', 'The transaction is not waiting for platform approval', {
    status: state.status === 'AWAITING_APPROVAL' ? 'PENDING' : state.status,
  });
}

function ref(state: Known) {
  return { transactionId: state.transactionId, platformId: state.platformId };
}

function failed(state: Known, failureReason: string, now: string, refund: IncomingRefund | null = null): IncomingPaymentEvent[] {
  return [{ type: 'IncomingPaymentFailed', data: { ...ref(state), failureReason, refund, failedAt: now } }];
}

/** A webhook answer counts only while its round is the current request and nothing was decided. */
function answersCurrentRound(state: IncomingPaymentState, round: number | undefined): state is Known {
  return state.status === 'AWAITING_APPROVAL' && (round === undefined || round === state.round);
}

/** The mandatory receiver fields the payer's VASP asked for that `info` lacks. */
export function missingReceiverFields(state: Known, info: Record<string, unknown> | null): string[] {
  return state.requestedReceiverCustomerInfoFields
    .filter((field) => field.mandatory)
    .map((field) => field.name)
    .filter((name) => info === null || info[name] === undefined || info[name] === null || info[name] === '');
}

function decideApproval(state: IncomingPaymentState, command: Extract<IncomingPaymentCommand, { type: 'ApprovePayment' }>): IncomingPaymentEvent[] {
  if (state.status === 'none') throw new DomainError('TRANSACTION_NOT_FOUND', 'Transaction not found');
  if (!answersCurrentRound(state, command.round)) {
    if (command.via === 'WEBHOOK') return [];
    throw notPending(state);
  }
  const missing = missingReceiverFields(state, command.receiverCustomerInfo);
  if (missing.length > 0) {
    // A webhook answer cannot be corrected in time; an API call can be repeated before the deadline.
    if (command.via === 'WEBHOOK') return failed(state, 'MISSING_MANDATORY_PAYEE_DATA', command.now);
    throw new DomainError('INVALID_INPUT', 'receiverCustomerInfo lacks fields the payer requires', {
      errors: missing.map((name) => ({ field: `receiverCustomerInfo.${name}`, constraint: {}, message: `receiverCustomerInfo.${name} is required by the payer` })),
    });
  }
  return [{ type: 'IncomingPaymentApproved', data: { ...ref(state), receiverCustomerInfo: command.receiverCustomerInfo, via: command.via, approvedAt: command.now } }];
}

/**
 * An incoming UMA payment. AWAITING_APPROVAL (one approval request per round) -> APPROVED
 * (webhook 200 or POST approve) -> COMPLETED (credited) or FAILED (compliance, refund to the
 * payer); AWAITING_APPROVAL -> REJECTED (403 or POST reject) or FAILED (deadline, endpoint error,
 * payer data that cannot be supplied, missing receiver data). 202 moves the deadline; 422 starts
 * the next round. A decision taken is final: later answers and repeated steps change nothing, and
 * a second API decision is 409 TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL.
 */
export const incomingPaymentDecider: Decider<IncomingPaymentCommand, IncomingPaymentState, IncomingPaymentEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'ReceivePayment':
        if (state.status !== 'none') return [];
        return [{ type: 'IncomingPaymentReceived', data: { ...command.terms, approvalDeadline: command.approvalDeadline, receivedAt: command.now } }];

      case 'DeferApproval':
        if (!answersCurrentRound(state, command.round)) return [];
        return [{ type: 'IncomingPaymentApprovalDeferred', data: { ...ref(state), approvalDeadline: command.approvalDeadline, deferredAt: command.now } }];

      case 'RequestCounterpartyInformation': {
        if (!answersCurrentRound(state, command.round)) return [];
        if (command.provided === null || state.round >= MAX_APPROVAL_ROUNDS) return failed(state, 'PAY_REQUEST_FAILED', command.now);
        return [
          {
            type: 'IncomingPaymentCounterpartyInformationProvided',
            data: {
              ...ref(state),
              requiredFields: command.requiredFields,
              counterpartyInformation: { ...state.counterpartyInformation, ...command.provided },
              round: state.round + 1,
              approvalDeadline: command.approvalDeadline,
              providedAt: command.now,
            },
          },
        ];
      }

      case 'FailApproval':
        if (!answersCurrentRound(state, command.round)) return [];
        return failed(state, command.failureReason, command.now);

      case 'ApprovePayment':
        return decideApproval(state, command);

      case 'RejectPayment':
        if (state.status === 'none') throw new DomainError('TRANSACTION_NOT_FOUND', 'Transaction not found');
        if (!answersCurrentRound(state, command.round)) {
          if (command.via === 'WEBHOOK') return [];
          throw notPending(state);
        }
        return [{ type: 'IncomingPaymentRejected', data: { ...ref(state), reason: command.reason, via: command.via, rejectedAt: command.now } }];

      case 'ExpireApproval':
        if (state.status !== 'AWAITING_APPROVAL' || command.now < state.approvalDeadline) return [];
        return failed(state, 'PAYMENT_APPROVAL_TIMED_OUT', command.now);

      case 'SettlePayment':
        if (state.status !== 'APPROVED') return [];
        if (state.senderBehaviour === 'FAIL_COMPLIANCE') {
          // The payer's funds arrived and compliance refused them: they go back to the payer.
          return failed(state, 'COMPLIANCE_REJECTED', command.now, {
            reference: `${state.reference}-REFUND`,
            initiatedAt: command.now,
            settledAt: null,
            status: 'PENDING',
            reason: 'TRANSACTION_FAILED',
          });
        }
        return [{ type: 'IncomingPaymentCompleted', data: { ...ref(state), completedAt: command.now } }];

      case 'CompleteRefund':
        if (state.status === 'none' || state.refund?.status !== 'PENDING') return [];
        return [{ type: 'IncomingPaymentRefundCompleted', data: { ...ref(state), settledAt: command.now } }];
    }
  },

  evolve(state, event) {
    if (event.type === 'IncomingPaymentReceived') {
      const { approvalDeadline, receivedAt: _receivedAt, ...terms } = event.data;
      return { ...terms, status: 'AWAITING_APPROVAL', round: 1, approvalDeadline, refund: null };
    }
    if (state.status === 'none') return state;
    switch (event.type) {
      case 'IncomingPaymentApprovalDeferred':
        return { ...state, approvalDeadline: event.data.approvalDeadline };
      case 'IncomingPaymentCounterpartyInformationProvided':
        return { ...state, counterpartyInformation: event.data.counterpartyInformation, round: event.data.round, approvalDeadline: event.data.approvalDeadline };
      case 'IncomingPaymentApproved':
        return { ...state, status: 'APPROVED' };
      case 'IncomingPaymentRejected':
        return { ...state, status: 'REJECTED' };
      case 'IncomingPaymentCompleted':
        return { ...state, status: 'COMPLETED' };
      case 'IncomingPaymentFailed':
        return { ...state, status: 'FAILED', refund: event.data.refund };
      case 'IncomingPaymentRefundCompleted':
        return state.refund ? { ...state, refund: { ...state.refund, status: 'COMPLETED', settledAt: event.data.settledAt } } : state;
      default:
        return state;
    }
  },
};

/**
 * How long after approval the payer's funds settle: a successful sandbox payer's at once (the
 * approval answers COMPLETED), a long payment's after the long-payment delay, and a payment
 * compliance refuses after the usual settlement delay.
 */
export function settlementDelayMs(behaviour: IncomingPaymentTerms['senderBehaviour'], timing: { settlementDelayMs: number; longPaymentDelayMs: number }): number {
  if (behaviour === 'SUCCESS') return 0;
  return behaviour === 'PENDING_LONG' ? timing.longPaymentDelayMs : timing.settlementDelayMs;
}
