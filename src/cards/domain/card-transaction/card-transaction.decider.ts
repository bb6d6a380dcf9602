import { Decider } from '../../../infra/domain/decider';
import { DomainError, FieldError } from '../../../infra/domain/domain-error';
import { currency } from '../../../shared/currencies';
import {
  CardAuthorizationDeclined,
  CardAuthorizationKind,
  CardBalanceInquiryAnswered,
  CardDeclineReason,
  CardPull,
  CardPullScenario,
  CardTransactionAuthorized,
  CardTransactionEvent,
  CardTransactionStatus,
} from './card-transaction.events';

/**
 * One card transaction's rules (docs/cards.md "Card transactions"): what each network message
 * may do in which status, and the amounts it moves. Handlers pass what the ledger said (a pull
 * the account could not cover) inside the command; the ledger movements follow from the events.
 */

/** A return credited to the account, and whether a RETURN_REVERSAL took it back since. */
export interface CardReturnRecord {
  returnId: string;
  amountCents: number;
  creditedUnits: number;
  reversed: boolean;
}

/** An approved transaction: what GET shows and what the next message is decided on. */
export interface OpenCardTransaction {
  status: CardTransactionStatus;
  transactionId: string;
  platformId: string;
  cardId: string;
  kind: CardAuthorizationKind;
  direction: 'DEBIT' | 'CREDIT';
  accountId: string;
  accountCurrency: string;
  holdId: string | null;
  /** The authorized total in cents (an AUTHORIZATION_ADVICE changes it). */
  authorizedCents: number;
  /** What the hold still holds, in the account's units. */
  heldUnits: number;
  clearedCents: number;
  /** Returned minus reversed, in cents. */
  refundedCents: number;
  returns: CardReturnRecord[];
  pull: CardPull | null;
  pullScenario: CardPullScenario;
}

/** A declined authorization and an answered balance inquiry show no CardTransaction: later messages naming them are 404. */
type ClosedRecord = { status: 'DECLINED' | 'INQUIRY'; transactionId: string; platformId: string; cardId: string };

export type CardTransactionState = { status: 'none' } | ClosedRecord | OpenCardTransaction;

/** Who asks about an existing transaction: another card's or platform's transaction is not found. */
type Owner = { platformId: string; cardId: string };

export type CardTransactionCommand =
  | { type: 'RecordDecline'; data: CardAuthorizationDeclined['data'] }
  | { type: 'AnswerBalanceInquiry'; data: CardBalanceInquiryAnswered['data'] }
  /** `clearingId` set: a single-message authorization, cleared in the same commit. */
  | { type: 'Authorize'; data: CardTransactionAuthorized['data']; clearingId: string | null }
  | (Owner & { type: 'ResolvePull'; now: string })
  | (Owner & { type: 'Resize'; adviceId: string; issuerTransactionToken: string; amountCents: number; now: string })
  /** `pullRefused`: the ledger could not cover the part past the hold (a post-hoc pull) on the last try. */
  | (Owner & { type: 'Clear'; clearingId: string; issuerTransactionToken: string; amountCents: number; pullRefused: boolean; now: string })
  | (Owner & { type: 'Return'; returnId: string; issuerTransactionToken: string; amountCents: number; now: string })
  | (Owner & { type: 'ReverseReturn'; reversalId: string; issuerTransactionToken: string; pullRefused: boolean; now: string });

/** Ledger units of one card cent: 1 for USD, 10,000 for a 6-decimal USD stablecoin. */
export function unitsPerCent(accountCurrency: string): number {
  return 10 ** (currency(accountCurrency).decimals - 2);
}

/** The first reason to decline, in the documented order; null: the funding sources decide. */
export function declineReason(input: {
  kind: CardAuthorizationKind;
  cardStatus: 'PROCESSING' | 'ACTIVE' | 'FROZEN' | 'CLOSED';
  amountCents: number;
  maxSpendPerTransaction: number | null;
  forced: 'INSUFFICIENT_FUNDS' | 'CARD_PAUSED' | null;
}): CardDeclineReason | null {
  const { kind, cardStatus, forced } = input;
  // An advice reports what the network already decided: a frozen card, or a 003 merchant, records it.
  const pausable = kind !== 'CREDIT_AUTHORIZATION_ADVICE';
  if (cardStatus === 'CLOSED') return 'CARD_CLOSED';
  if (pausable && (cardStatus === 'FROZEN' || forced === 'CARD_PAUSED')) return 'CARD_PAUSED';
  if (cardStatus === 'PROCESSING') return 'CARD_NOT_ACTIVE';
  if (isDebit(kind) && input.maxSpendPerTransaction !== null && input.amountCents > input.maxSpendPerTransaction) return 'SPEND_LIMIT_EXCEEDED';
  if (forced === 'INSUFFICIENT_FUNDS') return 'INSUFFICIENT_FUNDS';
  return null;
}

export function isDebit(kind: CardAuthorizationKind): boolean {
  return kind === 'AUTHORIZATION' || kind === 'FINANCIAL_AUTHORIZATION' || kind === 'BALANCE_INQUIRY';
}

export function cardTransactionNotFound(): DomainError {
  return new DomainError('REFERENCE_NOT_FOUND', 'Card transaction not found');
}

/** The simulate routes declare no 409: a message the transaction's status does not take is 400 on `cardTransactionId`. */
export function invalidCardTransactionState(state: OpenCardTransaction, message: string): DomainError {
  const errors: FieldError[] = [{ field: 'cardTransactionId', constraint: {}, message }];
  return new DomainError('INVALID_INPUT', message, { errors, reason: 'INVALID_STATE', status: state.status, cardTransactionId: state.transactionId });
}

function invalidAmount(message: string, details: Record<string, unknown>): DomainError {
  const errors: FieldError[] = [{ field: 'amount', constraint: {}, message }];
  return new DomainError('INVALID_INPUT', message, { errors, ...details });
}

/** Whether the state is an approved transaction (a CardTransaction GET shows). */
export function isOpen(state: CardTransactionState): state is OpenCardTransaction {
  return state.status !== 'none' && state.status !== 'DECLINED' && state.status !== 'INQUIRY';
}

/** The transaction `owner` may act on: approved, on this card, of this platform. */
export function ownedTransaction(state: CardTransactionState, owner: Owner): OpenCardTransaction {
  if (!isOpen(state) || state.platformId !== owner.platformId || state.cardId !== owner.cardId) throw cardTransactionNotFound();
  return state;
}

function requireStatus(state: OpenCardTransaction, allowed: CardTransactionStatus[], action: string): void {
  if (!allowed.includes(state.status)) {
    throw invalidCardTransactionState(state, `${action} needs a transaction in ${allowed.join(' or ')}; this one is ${state.status}`);
  }
}

function ref(state: OpenCardTransaction) {
  return { transactionId: state.transactionId, platformId: state.platformId, cardId: state.cardId };
}

function decideAuthorize(command: Extract<CardTransactionCommand, { type: 'Authorize' }>, state: CardTransactionState): CardTransactionEvent[] {
  if (state.status !== 'none') return [];
  const { data } = command;
  const authorized: CardTransactionEvent = { type: 'CardTransactionAuthorized', data };
  if (command.clearingId === null) return [authorized];
  const debit = data.direction === 'DEBIT';
  return [
    authorized,
    {
      type: 'CardTransactionCleared',
      data: {
        transactionId: data.transactionId,
        platformId: data.platformId,
        cardId: data.cardId,
        clearingId: command.clearingId,
        issuerTransactionToken: data.issuerTransactionToken,
        amountCents: data.amountCents,
        capturedUnits: debit ? data.amountUnits : 0,
        creditedUnits: debit ? 0 : data.amountUnits,
        postHocPull: null,
        settled: true,
        clearedAt: data.authorizedAt,
      },
    },
  ];
}

function decideResize(command: Extract<CardTransactionCommand, { type: 'Resize' }>, state: OpenCardTransaction): CardTransactionEvent[] {
  requireStatus(state, ['AUTHORIZED', 'PARTIALLY_SETTLED'], 'An authorization advice');
  if (state.direction !== 'DEBIT' || state.holdId === null) {
    throw invalidCardTransactionState(state, 'An authorization advice re-sizes a DEBIT authorization; this transaction is a CREDIT or single-message one');
  }
  if (command.amountCents < state.clearedCents) {
    throw invalidAmount(`amount (the new total) cannot be below what is cleared already (${state.clearedCents})`, { clearedAmount: state.clearedCents });
  }
  return [
    {
      type: 'CardAuthorizationResized',
      data: {
        ...ref(state),
        adviceId: command.adviceId,
        issuerTransactionToken: command.issuerTransactionToken,
        previousAmountCents: state.authorizedCents,
        amountCents: command.amountCents,
        heldUnits: (command.amountCents - state.clearedCents) * unitsPerCent(state.accountCurrency),
        resizedAt: command.now,
      },
    },
  ];
}

function decideClear(command: Extract<CardTransactionCommand, { type: 'Clear' }>, state: OpenCardTransaction): CardTransactionEvent[] {
  requireStatus(state, ['AUTHORIZED', 'PARTIALLY_SETTLED'], 'A clearing');
  const base = { ...ref(state), clearingId: command.clearingId, issuerTransactionToken: command.issuerTransactionToken };
  if (command.amountCents === 0) {
    return [{ type: 'CardAuthorizationExpired', data: { ...base, releasedUnits: state.heldUnits, expiredAt: command.now } }];
  }
  const amountUnits = command.amountCents * unitsPerCent(state.accountCurrency);
  const settled = state.clearedCents + command.amountCents >= state.authorizedCents;
  if (state.direction === 'CREDIT') {
    return [{ type: 'CardTransactionCleared', data: { ...base, amountCents: command.amountCents, capturedUnits: 0, creditedUnits: amountUnits, postHocPull: null, settled, clearedAt: command.now } }];
  }
  const capturedUnits = Math.min(amountUnits, state.heldUnits);
  const pastHoldUnits = amountUnits - capturedUnits;
  // The authorization's own pull scenario governs the post-hoc pull too (a 006 transaction's fails).
  const failed = command.pullRefused || state.pullScenario === 'FAIL';
  const postHocPull: CardPull | null =
    pastHoldUnits > 0 ? { pullId: `${state.transactionId}:clearing:${command.clearingId}:pull`, amountUnits: pastHoldUnits, status: failed ? 'FAILED' : 'CONFIRMED' } : null;
  return [{ type: 'CardTransactionCleared', data: { ...base, amountCents: command.amountCents, capturedUnits, creditedUnits: 0, postHocPull, settled, clearedAt: command.now } }];
}

function decideReturn(command: Extract<CardTransactionCommand, { type: 'Return' }>, state: OpenCardTransaction): CardTransactionEvent[] {
  if (state.direction !== 'DEBIT') throw invalidCardTransactionState(state, 'A return refunds a DEBIT transaction; this one is a CREDIT');
  requireStatus(state, ['PARTIALLY_SETTLED', 'SETTLED'], 'A return');
  const returnable = state.clearedCents - state.refundedCents;
  if (command.amountCents > returnable) {
    throw invalidAmount(`amount cannot exceed the cleared amount not yet returned (${returnable})`, { returnableAmount: returnable });
  }
  return [
    {
      type: 'CardTransactionReturned',
      data: {
        ...ref(state),
        returnId: command.returnId,
        issuerTransactionToken: command.issuerTransactionToken,
        amountCents: command.amountCents,
        creditedUnits: command.amountCents * unitsPerCent(state.accountCurrency),
        returnedAt: command.now,
      },
    },
  ];
}

function decideReverseReturn(command: Extract<CardTransactionCommand, { type: 'ReverseReturn' }>, state: OpenCardTransaction): CardTransactionEvent[] {
  requireStatus(state, ['REFUNDED'], 'A return reversal');
  const last = [...state.returns].reverse().find((entry) => !entry.reversed);
  if (!last) throw invalidCardTransactionState(state, 'The transaction has no return left to reverse');
  const pull: CardPull = { pullId: `${state.transactionId}:reversal:${command.reversalId}`, amountUnits: last.creditedUnits, status: command.pullRefused ? 'FAILED' : 'CONFIRMED' };
  return [
    {
      type: 'CardReturnReversed',
      data: { ...ref(state), reversalId: command.reversalId, returnId: last.returnId, issuerTransactionToken: command.issuerTransactionToken, amountCents: last.amountCents, pull, reversedAt: command.now },
    },
  ];
}

function decideResolvePull(command: Extract<CardTransactionCommand, { type: 'ResolvePull' }>, state: OpenCardTransaction): CardTransactionEvent[] {
  // At least once: a pull already confirmed or failed is left as it is.
  if (state.pull === null || state.pull.status !== 'PENDING') return [];
  const pullId = state.pull.pullId;
  if (state.pullScenario === 'FAIL') {
    return [{ type: 'CardPullFailed', data: { ...ref(state), pullId, reason: 'The funding pull confirmation reported FAILED (sandbox suffix 006)', failedAt: command.now } }];
  }
  return [{ type: 'CardPullConfirmed', data: { ...ref(state), pullId, confirmedAt: command.now } }];
}

export const cardTransactionDecider: Decider<CardTransactionCommand, CardTransactionState, CardTransactionEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'RecordDecline':
        return state.status === 'none' ? [{ type: 'CardAuthorizationDeclined', data: command.data }] : [];
      case 'AnswerBalanceInquiry':
        return state.status === 'none' ? [{ type: 'CardBalanceInquiryAnswered', data: command.data }] : [];
      case 'Authorize':
        return decideAuthorize(command, state);
      case 'ResolvePull':
        return decideResolvePull(command, ownedTransaction(state, command));
      case 'Resize':
        return decideResize(command, ownedTransaction(state, command));
      case 'Clear':
        return decideClear(command, ownedTransaction(state, command));
      case 'Return':
        return decideReturn(command, ownedTransaction(state, command));
      case 'ReverseReturn':
        return decideReverseReturn(command, ownedTransaction(state, command));
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'CardAuthorizationDeclined':
        return { status: 'DECLINED', transactionId: event.data.transactionId, platformId: event.data.platformId, cardId: event.data.cardId };
      case 'CardBalanceInquiryAnswered':
        return { status: 'INQUIRY', transactionId: event.data.transactionId, platformId: event.data.platformId, cardId: event.data.cardId };
      case 'CardTransactionAuthorized':
        return authorizedState(event.data);
    }
    return isOpen(state) ? evolveOpen(state, event) : state;
  },
};

function authorizedState(data: CardTransactionAuthorized['data']): OpenCardTransaction {
  return {
    status: 'AUTHORIZED',
    transactionId: data.transactionId,
    platformId: data.platformId,
    cardId: data.cardId,
    kind: data.kind,
    direction: data.direction,
    accountId: data.accountId,
    accountCurrency: data.accountCurrency,
    holdId: data.holdId,
    authorizedCents: data.amountCents,
    heldUnits: data.holdId === null ? 0 : data.amountUnits,
    clearedCents: 0,
    refundedCents: 0,
    returns: [],
    pull: data.pull,
    pullScenario: data.pullScenario,
  };
}

function evolveOpen(state: OpenCardTransaction, event: CardTransactionEvent): OpenCardTransaction {
  switch (event.type) {
    case 'CardPullConfirmed':
      return state.pull ? { ...state, pull: { ...state.pull, status: 'CONFIRMED' } } : state;
    case 'CardPullFailed':
      return { ...state, status: 'EXCEPTION', pull: state.pull ? { ...state.pull, status: 'FAILED' } : null };
    case 'CardAuthorizationResized':
      return { ...state, authorizedCents: event.data.amountCents, heldUnits: event.data.heldUnits };
    case 'CardTransactionCleared': {
      const { data } = event;
      const status: CardTransactionStatus = data.postHocPull?.status === 'FAILED' ? 'EXCEPTION' : data.settled ? 'SETTLED' : 'PARTIALLY_SETTLED';
      const heldUnits = state.holdId === null ? 0 : state.heldUnits - data.capturedUnits;
      return { ...state, status, heldUnits, clearedCents: state.clearedCents + data.amountCents };
    }
    case 'CardAuthorizationExpired':
      return { ...state, status: 'SETTLED', heldUnits: 0 };
    case 'CardTransactionReturned': {
      const refundedCents = state.refundedCents + event.data.amountCents;
      const returns = [...state.returns, { returnId: event.data.returnId, amountCents: event.data.amountCents, creditedUnits: event.data.creditedUnits, reversed: false }];
      const status = state.status === 'SETTLED' && refundedCents >= state.clearedCents ? 'REFUNDED' : state.status;
      return { ...state, status, refundedCents, returns };
    }
    case 'CardReturnReversed': {
      const returns = state.returns.map((entry) => (entry.returnId === event.data.returnId ? { ...entry, reversed: true } : entry));
      const status = event.data.pull.status === 'FAILED' ? 'EXCEPTION' : 'SETTLED';
      return { ...state, status, refundedCents: state.refundedCents - event.data.amountCents, returns };
    }
    default:
      return state;
  }
}
