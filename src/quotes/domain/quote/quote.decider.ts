import { Decider } from '../../../infra/domain/decider';
import { DomainError, FieldError, ValidationError } from '../../../infra/domain/domain-error';
import {
  AuthorizationCommand,
  AuthorizationRequest,
  PendingAuthorization,
  authorizationRequested,
  decideAuthorizationStep,
  pendingAuthorizationConflict,
} from './quote-authorization';
import { CancellationCommand, decideCancellation } from './quote-cancellation';
import { RefundCommand, decideRefund, endedRefund, pendingRefund } from './quote-refund';
import { QuoteEvent, QuoteRefund, QuoteTerms } from './quote.events';

/**
 * A quote and the outgoing transaction behind it (SPEC.md "States and transitions", DECISIONS.md
 * section 2):
 *
 *   PENDING --execute--> EXECUTING --funds held--> PROCESSING --settlement--> COMPLETED | FAILED
 *      ^                     |                                                  COMPLETED --return--> FAILED
 *      +----hold refused-----+
 *   PENDING --expiresAt--> EXPIRED          PENDING --sandbox send (REALTIME_FUNDING)--> PROCESSING
 *   PENDING --execute (SCA region)--> PENDING_AUTHORIZATION --challenges--> EXECUTING | PENDING | FAILED
 *   PROCESSING (bank rail, before settlement) --cancel--> FAILED (refunded; quote-cancellation.ts)
 *   FAILED (refund PENDING) --refund settled--> FAILED (refund COMPLETED | FAILED; quote-refund.ts)
 *
 * EXECUTING is internal (shown as PENDING): execute has won the quote but the funds are not held
 * yet. Expiry never touches an EXECUTING quote, so an execute that was accepted before expiresAt
 * always finishes, and expiry can never release a hold that execute is about to place.
 *
 * PENDING_AUTHORIZATION (customers in SCA regions, quote-authorization.ts) sits between PENDING
 * and EXECUTING: nothing is held until the last challenge is satisfied, and an expired challenge
 * fails the quote with nothing moved. A REALTIME_FUNDING quote of such a customer starts there.
 */
export interface ExecutionAttempt {
  attempt: number;
  holdId: string;
}

interface QuoteBase extends QuoteTerms {
  /** Execute attempts so far; each places its own hold id. */
  attempts: number;
  updatedAt: string;
}

interface Settlement {
  /** The attempt whose hold pays (null for REALTIME_FUNDING quotes, which hold nothing). */
  execution: ExecutionAttempt | null;
  /** Settlement steps applied so far (quote-scenarios.ts). */
  stepsApplied: number;
  /** Null for a quote that failed before it was processing (SCA not completed). */
  processingAt: string | null;
  completedAt: string | null;
}

export type PendingQuote = QuoteBase & { status: 'PENDING'; lastRejection: (ExecutionAttempt & { reason: string }) | null };
export type AuthorizingQuote = QuoteBase & { status: 'PENDING_AUTHORIZATION'; authorization: PendingAuthorization };
export type ExecutingQuote = QuoteBase & { status: 'EXECUTING'; execution: ExecutionAttempt };
export type ProcessingQuote = QuoteBase & Settlement & { status: 'PROCESSING' };
export type CompletedQuote = QuoteBase & Settlement & { status: 'COMPLETED'; completedAt: string };
export type FailedQuote = QuoteBase & Settlement & { status: 'FAILED'; failureReason: string; refund: QuoteRefund | null; failedAt: string };
export type ExpiredQuote = QuoteBase & { status: 'EXPIRED'; expiredAt: string };

export type ExistingQuote = PendingQuote | AuthorizingQuote | ExecutingQuote | ProcessingQuote | CompletedQuote | FailedQuote | ExpiredQuote;
export type QuoteState = { status: 'none' } | ExistingQuote;

/** The six statuses of SPEC.md, as the Quote resource and its transaction show them. */
export type PublicQuoteStatus = 'PENDING' | 'PENDING_AUTHORIZATION' | 'PROCESSING' | 'COMPLETED' | 'FAILED' | 'EXPIRED';

export interface SettlementOutcome {
  status: 'COMPLETED' | 'FAILED';
  failureReason: string | null;
  /** The refund a failure starts (PENDING; SettleRefund ends it). */
  refund: { reason: string } | null;
}

export type QuoteCommand =
  /** `authorization`: a REALTIME_FUNDING quote of a customer in an SCA region starts PENDING_AUTHORIZATION. */
  | { type: 'CreateQuote'; terms: QuoteTerms; authorization?: AuthorizationRequest }
  | { type: 'RequestExecution'; holdId: string; scaFactor: string | null; now: string }
  | { type: 'RecordFundsHeld'; attempt: number; now: string }
  | { type: 'RejectExecution'; attempt: number; reason: string; now: string }
  | { type: 'RecordFunding'; currencyCode: string; amount: number | null; now: string }
  | { type: 'Expire'; now: string }
  | { type: 'ApplySettlementStep'; step: number; outcome: SettlementOutcome; now: string }
  | AuthorizationCommand
  | CancellationCommand
  | RefundCommand;

export function publicStatus(state: ExistingQuote): PublicQuoteStatus {
  return state.status === 'EXECUTING' ? 'PENDING' : state.status;
}

export function isExpiredAt(state: ExistingQuote, now: string): boolean {
  return Date.parse(now) >= Date.parse(state.expiresAt);
}

export function quoteNotFound(): DomainError {
  return new DomainError('QUOTE_NOT_FOUND', 'Quote not found');
}

export function quoteExpiredConflict(state: ExistingQuote): DomainError {
  return new DomainError('CONFLICT', 'The quote has expired and can no longer be executed', {
    reason: 'QUOTE_EXPIRED',
    status: 'EXPIRED',
    expiresAt: state.expiresAt,
  });
}

function alreadyExecuted(state: ExistingQuote, what: string): DomainError {
  return new DomainError('CONFLICT', `The quote was already ${what}`, {
    reason: what === 'funded' ? 'QUOTE_ALREADY_FUNDED' : 'QUOTE_ALREADY_EXECUTED',
    status: publicStatus(state),
  });
}

function invalid(state: QuoteState, action: string): DomainError {
  return new DomainError('INVALID_STATE_TRANSITION', `Cannot ${action} a quote in state ${state.status}`);
}

function ref(state: ExistingQuote) {
  return { quoteId: state.quoteId, transactionId: state.transactionId, platformId: state.platformId };
}

function expired(state: ExistingQuote, now: string): QuoteEvent[] {
  return [{ type: 'QuoteExpired', data: { ...ref(state), expiredAt: now } }];
}

/**
 * What stops execute (and its SCA variant): throws the refusal, or answers the expiry to record
 * when the clock passed `expiresAt` before the expiry task ran; null when execute may go on.
 */
function executionRefusal(state: ExistingQuote, now: string): QuoteEvent[] | null {
  if (state.source.sourceType === 'REALTIME_FUNDING') {
    throw new ValidationError(
      [{ field: 'quoteId', constraint: {}, message: 'A REALTIME_FUNDING quote is funded by its payment instructions, not executed' }],
      'INVALID_INPUT',
      'A REALTIME_FUNDING quote cannot be executed: pay its paymentInstructions (in the sandbox, POST /sandbox/send)',
    );
  }
  if (state.status === 'EXPIRED') throw quoteExpiredConflict(state);
  if (state.status === 'PENDING_AUTHORIZATION') throw pendingAuthorizationConflict();
  if (state.status !== 'PENDING') throw alreadyExecuted(state, 'executed');
  // The clock decides even before the expiry task has run; the caller answers 409 after
  // recording the expiry, so every view agrees with that answer.
  if (isExpiredAt(state, now)) return expired(state, now);
  if (state.funding.sourceAccountId === null) throw invalid(state, 'execute');
  return null;
}

export const quoteDecider: Decider<QuoteCommand, QuoteState, QuoteEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    if (command.type === 'CreateQuote') {
      if (state.status !== 'none') return [];
      const created: QuoteEvent = { type: 'QuoteCreated', data: command.terms };
      if (!command.authorization) return [created];
      const initial = { ...command.terms, status: 'PENDING', attempts: 0 };
      return [created, authorizationRequested(initial, command.authorization, command.terms.createdAt)];
    }
    if (state.status === 'none') throw quoteNotFound();

    switch (command.type) {
      case 'RequestAuthorization':
        return executionRefusal(state, command.now) ?? [authorizationRequested(state, command, command.now)];

      case 'RecordScaChallenge':
      case 'ReleaseAuthorized':
      case 'FailAuthorization':
        return decideAuthorizationStep(command, state);

      case 'RequestExecution': {
        const refused = executionRefusal(state, command.now);
        if (refused) return refused;
        return [
          {
            type: 'QuoteExecutionRequested',
            data: {
              ...ref(state),
              attempt: state.attempts + 1,
              holdId: command.holdId,
              sourceAccountId: state.funding.sourceAccountId!,
              amount: state.totalSendingAmount,
              scaFactor: command.scaFactor,
              requestedAt: command.now,
            },
          },
        ];
      }

      case 'RecordFundsHeld': {
        if (state.status === 'EXECUTING' && state.execution.attempt === command.attempt) {
          return [{ type: 'QuoteFundsHeld', data: { ...ref(state), attempt: command.attempt, holdId: state.execution.holdId, heldAt: command.now } }];
        }
        const settled = state.status === 'PROCESSING' || state.status === 'COMPLETED' || state.status === 'FAILED';
        if (settled && state.execution?.attempt === command.attempt) return [];
        // The attempt lost (rejected meanwhile): its hold must be voided by the caller.
        throw invalid(state, `record the hold of attempt ${command.attempt} on`);
      }

      case 'RejectExecution': {
        if (state.status === 'EXECUTING' && state.execution.attempt === command.attempt) {
          return [
            {
              type: 'QuoteExecutionRejected',
              data: { ...ref(state), attempt: command.attempt, holdId: state.execution.holdId, reason: command.reason, rejectedAt: command.now },
            },
          ];
        }
        if (state.status === 'PENDING' && state.lastRejection?.attempt === command.attempt) return [];
        throw invalid(state, `reject attempt ${command.attempt} of`);
      }

      case 'RecordFunding': {
        if (state.source.sourceType !== 'REALTIME_FUNDING') {
          throw new ValidationError([
            { field: 'quoteId', constraint: {}, message: 'Only REALTIME_FUNDING quotes are funded by a sandbox send; execute this quote instead' },
          ]);
        }
        const errors: FieldError[] = [];
        if (command.currencyCode !== state.sendingCurrency) {
          errors.push({ field: 'currencyCode', constraint: { enum: [state.sendingCurrency] }, message: `The quote is funded in ${state.sendingCurrency}, not ${command.currencyCode}` });
        }
        if (command.amount !== null && command.amount !== state.totalSendingAmount) {
          errors.push({ field: 'currencyAmount', constraint: {}, message: `The quote needs exactly ${state.totalSendingAmount} (minor units of ${state.sendingCurrency})` });
        }
        if (errors.length > 0) throw new ValidationError(errors);
        if (state.status === 'EXPIRED') throw quoteExpiredConflict(state);
        if (state.status === 'PENDING_AUTHORIZATION') throw pendingAuthorizationConflict();
        if (state.status !== 'PENDING') throw alreadyExecuted(state, 'funded');
        if (isExpiredAt(state, command.now)) return expired(state, command.now);
        return [{ type: 'QuoteFunded', data: { ...ref(state), currencyCode: command.currencyCode, amount: state.totalSendingAmount, fundedAt: command.now } }];
      }

      case 'Expire':
        return state.status === 'PENDING' && isExpiredAt(state, command.now) ? expired(state, command.now) : [];

      case 'Cancel':
      case 'ConfirmReceipt':
        return decideCancellation(command, state);

      case 'SettleRefund':
        return decideRefund(command, state);

      case 'ApplySettlementStep': {
        // A quote that failed before it was processing (SCA not completed) has nothing to settle.
        if ((state.status !== 'PROCESSING' && state.status !== 'COMPLETED' && state.status !== 'FAILED') || state.processingAt === null) {
          throw invalid(state, `apply settlement step ${command.step} to`);
        }
        if (state.stepsApplied > command.step) return [];
        if (state.stepsApplied < command.step) throw invalid(state, `apply settlement step ${command.step} (after ${state.stepsApplied}) to`);
        if (command.step > 0 && state.status !== 'COMPLETED') throw invalid(state, `apply settlement step ${command.step} to`);
        if (command.outcome.status === 'COMPLETED') {
          return [{ type: 'QuoteCompleted', data: { ...ref(state), step: command.step, completedAt: command.now } }];
        }
        const refund = command.outcome.refund ? pendingRefund(state.transactionId, command.outcome.refund.reason, command.now) : null;
        return [
          {
            type: 'QuoteFailed',
            data: { ...ref(state), step: command.step, failureReason: command.outcome.failureReason ?? 'QUOTE_EXECUTION_FAILED', refund, failedAt: command.now },
          },
        ];
      }
    }
  },

  evolve(state, event) {
    if (event.type === 'QuoteCreated') {
      return { ...event.data, status: 'PENDING', attempts: 0, updatedAt: event.data.createdAt, lastRejection: null };
    }
    if (state.status === 'none') return state;
    const common = baseOf(state);
    switch (event.type) {
      case 'QuoteAuthorizationRequested': {
        const { sequenceId, scaFactor, scaChallenge } = event.data;
        return { ...common, status: 'PENDING_AUTHORIZATION', updatedAt: event.data.requestedAt, authorization: { sequenceId, scaFactor, scaChallenge } };
      }
      case 'QuoteScaChallengeIssued':
        if (state.status !== 'PENDING_AUTHORIZATION') return state;
        return { ...state, updatedAt: event.data.issuedAt, authorization: { ...state.authorization, scaChallenge: event.data.scaChallenge } };
      case 'QuoteAuthorized':
        return { ...common, status: 'PENDING', updatedAt: event.data.authorizedAt, lastRejection: null };
      case 'QuoteAuthorizationFailed':
        return {
          ...common,
          status: 'FAILED',
          updatedAt: event.data.failedAt,
          execution: null,
          stepsApplied: 0,
          processingAt: null,
          completedAt: null,
          failureReason: event.data.failureReason,
          refund: null,
          failedAt: event.data.failedAt,
        };
      case 'QuoteExecutionRequested':
        return {
          ...common,
          status: 'EXECUTING',
          attempts: event.data.attempt,
          updatedAt: event.data.requestedAt,
          execution: { attempt: event.data.attempt, holdId: event.data.holdId },
        };
      case 'QuoteExecutionRejected':
        return {
          ...common,
          status: 'PENDING',
          updatedAt: event.data.rejectedAt,
          lastRejection: { attempt: event.data.attempt, holdId: event.data.holdId, reason: event.data.reason },
        };
      case 'QuoteFundsHeld':
        return {
          ...common,
          status: 'PROCESSING',
          updatedAt: event.data.heldAt,
          execution: { attempt: event.data.attempt, holdId: event.data.holdId },
          stepsApplied: 0,
          processingAt: event.data.heldAt,
          completedAt: null,
        };
      case 'QuoteFunded':
        return {
          ...common,
          status: 'PROCESSING',
          updatedAt: event.data.fundedAt,
          execution: null,
          stepsApplied: 0,
          processingAt: event.data.fundedAt,
          completedAt: null,
        };
      case 'QuoteExpired':
        return { ...common, status: 'EXPIRED', updatedAt: event.data.expiredAt, expiredAt: event.data.expiredAt };
      case 'QuoteCompleted': {
        if (state.status !== 'PROCESSING') return state;
        return {
          ...common,
          ...settlementOf(state),
          status: 'COMPLETED',
          updatedAt: event.data.completedAt,
          stepsApplied: event.data.step + 1,
          completedAt: event.data.completedAt,
        };
      }
      case 'QuoteReceiptConfirmed':
        return state;
      case 'QuoteRefundCompleted':
      case 'QuoteRefundFailed': {
        if (state.status !== 'FAILED' || !state.refund) return state;
        const updatedAt = event.type === 'QuoteRefundCompleted' ? event.data.settledAt : event.data.failedAt;
        return { ...state, refund: endedRefund(state.refund, event), updatedAt };
      }
      case 'QuoteFailed': {
        if (state.status !== 'PROCESSING' && state.status !== 'COMPLETED') return state;
        return {
          ...common,
          ...settlementOf(state),
          status: 'FAILED',
          updatedAt: event.data.failedAt,
          stepsApplied: event.data.step + 1,
          failureReason: event.data.failureReason,
          refund: event.data.refund,
          failedAt: event.data.failedAt,
        };
      }
    }
  },
};

/** The terms and counters of a quote, without its status and status-specific fields. */
function baseOf(state: ExistingQuote): QuoteBase {
  const {
    status: _status, lastRejection: _lastRejection, execution: _execution, stepsApplied: _stepsApplied, processingAt: _processingAt,
    completedAt: _completedAt, failureReason: _failureReason, refund: _refund, failedAt: _failedAt, expiredAt: _expiredAt,
    authorization: _authorization,
    ...base
  } = state as unknown as Record<string, unknown>;
  return base as unknown as QuoteBase;
}

function settlementOf(state: ProcessingQuote | CompletedQuote): Settlement {
  return { execution: state.execution, stepsApplied: state.stepsApplied, processingAt: state.processingAt, completedAt: state.completedAt };
}
