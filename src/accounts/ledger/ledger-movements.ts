import { DomainEvent } from '../../infra/domain/decider';
import { DomainError } from '../../infra/domain/domain-error';
import { AppendResult, EventMetadata } from '../../infra/event-store/event-store.port';
import { InternalAccountStatus, InternalAccountType } from '../domain/internal-account/internal-account.events';

/** What AccountsLedger takes and answers (its public vocabulary). */
export interface LedgerAccountSnapshot {
  accountId: string;
  platformId: string;
  customerId: string | null;
  accountType: InternalAccountType;
  currency: string;
  /** ACTIVE, or CLOSED once the customer is deleted (a hold is then refused). */
  status: InternalAccountStatus;
  /** `balance.amount` of the GET view. */
  available: number;
  held: number;
  /** `totalBalance.amount` = available + held. */
  total: number;
  openedAt: string;
  updatedAt: string;
}

export interface LedgerStepResult extends LedgerAccountSnapshot {
  /** False when the step had already been applied (an idempotent repeat). */
  applied: boolean;
}

export interface OpenAccountInput {
  platformId: string;
  accountId: string;
  customerId: string | null;
  accountType: InternalAccountType;
  currency: string;
  /** Deterministic time (the customer's or platform's creation), so a replay opens the same way. */
  openedAt: string;
}

export interface CreditInput {
  platformId: string;
  accountId: string;
  /** The business key of the credit (e.g. a transaction id): a repeat is a no-op. */
  movementId: string;
  amount: number;
  /** Why the money came in, e.g. SANDBOX_FUNDING, TRANSFER_IN, QUOTE_REFUND. */
  reason: string;
  reference?: string | null;
}

export interface HoldInput {
  platformId: string;
  accountId: string;
  holdId: string;
  amount: number;
  reference?: string | null;
}

/** `amount` (1..what the hold still holds) leaves the hold; a hold whose remainder reaches 0 is done. */
export interface CaptureInput {
  platformId: string;
  accountId: string;
  holdId: string;
  /** The business key of the capture (e.g. a card clearing): a repeat is a no-op. */
  captureId: string;
  amount: number;
}

/** The hold's remainder becomes `amount` (>= 0); an increase needs the available balance. */
export interface AdjustHoldInput {
  platformId: string;
  accountId: string;
  holdId: string;
  /** The business key of the adjustment (e.g. a card authorization advice): a repeat is a no-op. */
  adjustmentId: string;
  amount: number;
}

/** Money leaves `available` directly, without a hold; refused when short or not ACTIVE. */
export interface DebitInput {
  platformId: string;
  accountId: string;
  /** The business key of the debit: a repeat is a no-op. */
  movementId: string;
  amount: number;
  /** Why the money left, e.g. CARD_FINANCIAL_AUTHORIZATION. */
  reason: string;
  reference?: string | null;
}

/**
 * One movement of a batch on one account (`movements`, `movementsWith`), each idempotent by its
 * id: HOLD places a hold, CAPTURE takes part of one, ADJUST sets its remainder, RELEASE gives its
 * remainder back, DEBIT and CREDIT move available directly. Amounts in the account's minor units.
 */
export type LedgerMovement =
  | { kind: 'HOLD'; holdId: string; amount: number; reference?: string | null }
  | { kind: 'CAPTURE'; holdId: string; captureId: string; amount: number }
  | { kind: 'ADJUST'; holdId: string; adjustmentId: string; amount: number }
  | { kind: 'RELEASE'; holdId: string; reason: string }
  | { kind: 'DEBIT'; movementId: string; amount: number; reason: string; reference?: string | null }
  | { kind: 'CREDIT'; movementId: string; amount: number; reason: string; reference?: string | null };

export interface HoldRef {
  platformId: string;
  accountId: string;
  holdId: string;
}

/**
 * Events of another stream (e.g. the quote's) to commit in the same transaction as a ledger step,
 * at the revision the caller decided them on.
 */
export interface CompanionAppend {
  streamName: string;
  events: DomainEvent[];
  expectedRevision: number | 'no_stream';
  /** Metadata overrides of the companion's events (e.g. the tenant, when a reactor writes). */
  metadata?: Partial<EventMetadata>;
}

/**
 * The outcome of an atomic step: `applied` (both streams written in one commit) or `declined`,
 * with nothing written; the caller then takes its sequential path, which settles every case
 * (refusals, repeats, races) from a fresh read. REFUSED: the account does not allow the step (or
 * is not this platform's), decided on the account as its stream stands, with the decider's
 * `error` (e.g. code INSUFFICIENT_FUNDS; NOT_FOUND for an unknown account or another platform's);
 * NOOP: the step is already done; COMPANION_CONFLICT: the companion stream moved;
 * ACCOUNT_CONFLICT: the account kept moving under another process; UNSUPPORTED: the event store
 * cannot commit several streams at once.
 */
export type AtomicStepOutcome =
  | { kind: 'applied'; account: LedgerStepResult; companion: AppendResult }
  | { kind: 'declined'; reason: 'REFUSED'; error?: DomainError }
  | { kind: 'declined'; reason: 'NOOP' | 'COMPANION_CONFLICT' | 'ACCOUNT_CONFLICT' | 'UNSUPPORTED' };

/** The outcome of `openAllWith`: every account opened with the companion in one commit, or nothing written. */
export type AtomicOpenOutcome =
  | { kind: 'applied'; companion: AppendResult }
  | { kind: 'declined'; reason: 'COMPANION_CONFLICT' | 'ACCOUNT_CONFLICT' | 'UNSUPPORTED' };
