import type { SandboxTiming } from '../infra/config';

/**
 * What happens to a quote after execute in the sandbox (DECISIONS.md section 5), as data a
 * settlement process follows one step at a time: wait the step's delay (from AppConfig.sandbox),
 * then apply its status, failure reason and money movement. A failure starts a refund (PENDING)
 * that ends `refundDelayMs` later, COMPLETED (the money back with the payer) or FAILED (gone). The
 * scenario is chosen by the last three digits of the destination's primary identifier (or by the
 * UMA test address).
 */
export type QuoteScenarioName =
  | 'SUCCESS'
  | 'EXECUTION_FAILED'
  | 'LONG_PAYMENT'
  | 'ACCOUNT_CANNOT_RECEIVE'
  | 'PAYOUT_RETURNED'
  | 'USER_CANCELLATION'
  | 'REFUND_FAILED'
  | 'UMA_PENDING_LONG'
  | 'UMA_COMPLIANCE_REJECTED';

/**
 * The transaction's `failureReason`, from the contract's OutgoingTransactionFailureReason. A
 * cancellation and a failed refund have no reason of their own there: both fail the payout as
 * QUOTE_EXECUTION_FAILED, the refund telling the rest. Quotes failed before this carried
 * `USER_CANCELLATION` and `REFUND_FAILED` here (see LEGACY_FAILURE_REASONS).
 */
export type QuoteFailureReason =
  | 'QUOTE_EXECUTION_FAILED'
  | 'ACCOUNT_CANNOT_RECEIVE'
  | 'PAYOUT_RETURNED'
  | 'COMPLIANCE_REJECTED';

/** The refund's `reason`, from the contract's Refund enum. */
export type RefundReason = 'TRANSACTION_FAILED' | 'USER_CANCELLATION' | 'TIMEOUT';

/** Stored failure reasons of older quotes and what the contract calls them. */
export const LEGACY_FAILURE_REASONS: Readonly<Record<string, QuoteFailureReason>> = Object.freeze({
  USER_CANCELLATION: 'QUOTE_EXECUTION_FAILED',
  REFUND_FAILED: 'QUOTE_EXECUTION_FAILED',
});

/** A stored refund reason under the contract's name (older quotes stored the failure reason). */
export function refundReasonOf(stored: string): RefundReason {
  return stored === 'USER_CANCELLATION' || stored === 'TIMEOUT' ? stored : 'TRANSACTION_FAILED';
}

/** Which AppConfig.sandbox delay precedes a step. */
export type SandboxDelayName = keyof Pick<SandboxTiming, 'settlementDelayMs' | 'longPaymentDelayMs' | 'returnDelayMs'>;

/**
 * The money movement of a step for a prefunded (ACCOUNT) source, in AccountsLedger terms:
 * SETTLE_HOLD (a completion: the held sending amount leaves the system, `settleHold`) or NONE (a
 * failure: the money stays where it is until the refund ends).
 */
export type ScenarioStepFunds = 'SETTLE_HOLD' | 'NONE';

/**
 * The money movement when a refund ends, `refundDelayMs` after the failure started it:
 * - RELEASE_HOLD: the hold goes back to available (`releaseHold`): the refund of a failed payout.
 * - CREDIT_REFUND: money that already left comes back (`credit`): a payout returned after COMPLETED.
 * - SETTLE_HOLD_UNREFUNDED: the refund failed: the money is gone (`settleHold`).
 * A REALTIME_FUNDING quote holds nothing: its refunds go back to the payer outside the ledger.
 */
export type ScenarioFundsMovement = 'RELEASE_HOLD' | 'CREDIT_REFUND' | 'SETTLE_HOLD_UNREFUNDED';

/** A failed step's refund: PENDING from the failure, then how it ends. */
export interface ScenarioRefund {
  status: 'COMPLETED' | 'FAILED';
  reason: RefundReason;
  funds: ScenarioFundsMovement;
}

export interface QuoteSettlementStep {
  /** Delay before this step, counted from the previous step (the first from execute). */
  after: SandboxDelayName;
  status: 'COMPLETED' | 'FAILED';
  failureReason: QuoteFailureReason | null;
  funds: ScenarioStepFunds;
  /** The refund a failure starts (PENDING at the step, ended `refundDelayMs` later), or null. */
  refund: ScenarioRefund | null;
}

export interface QuoteScenario {
  name: QuoteScenarioName;
  /** The identifier suffix that selected it, or null for the default and UMA scenarios. */
  suffix: string | null;
  steps: readonly QuoteSettlementStep[];
}

const completes = (after: SandboxDelayName): QuoteSettlementStep => ({ after, status: 'COMPLETED', failureReason: null, funds: 'SETTLE_HOLD', refund: null });

const fails = (after: SandboxDelayName, reason: QuoteFailureReason, refund: ScenarioRefund): QuoteSettlementStep => ({
  after, status: 'FAILED', failureReason: reason, funds: 'NONE', refund,
});

const refunded = (reason: RefundReason, funds: ScenarioFundsMovement = 'RELEASE_HOLD'): ScenarioRefund => ({ status: 'COMPLETED', reason, funds });

const SCENARIOS: Readonly<Record<QuoteScenarioName, readonly QuoteSettlementStep[]>> = Object.freeze({
  SUCCESS: [completes('settlementDelayMs')],
  EXECUTION_FAILED: [fails('settlementDelayMs', 'QUOTE_EXECUTION_FAILED', refunded('TRANSACTION_FAILED'))],
  LONG_PAYMENT: [completes('longPaymentDelayMs')],
  ACCOUNT_CANNOT_RECEIVE: [fails('settlementDelayMs', 'ACCOUNT_CANNOT_RECEIVE', refunded('TRANSACTION_FAILED'))],
  PAYOUT_RETURNED: [completes('settlementDelayMs'), fails('returnDelayMs', 'PAYOUT_RETURNED', refunded('TRANSACTION_FAILED', 'CREDIT_REFUND'))],
  USER_CANCELLATION: [fails('settlementDelayMs', 'QUOTE_EXECUTION_FAILED', refunded('USER_CANCELLATION'))],
  REFUND_FAILED: [
    fails('settlementDelayMs', 'QUOTE_EXECUTION_FAILED', { status: 'FAILED', reason: 'TRANSACTION_FAILED', funds: 'SETTLE_HOLD_UNREFUNDED' }),
  ],
  UMA_PENDING_LONG: [completes('longPaymentDelayMs')],
  UMA_COMPLIANCE_REJECTED: [fails('settlementDelayMs', 'COMPLIANCE_REJECTED', refunded('TRANSACTION_FAILED'))],
});

/** DECISIONS.md section 5: quote outcomes by identifier suffix. Every other suffix succeeds. */
export const QUOTE_SCENARIO_BY_SUFFIX: Readonly<Record<string, QuoteScenarioName>> = Object.freeze({
  '002': 'EXECUTION_FAILED',
  '003': 'LONG_PAYMENT',
  '004': 'ACCOUNT_CANNOT_RECEIVE',
  '005': 'PAYOUT_RETURNED',
  '006': 'USER_CANCELLATION',
  '007': 'REFUND_FAILED',
});

/**
 * The three-digit sandbox suffix of a primary identifier (account number, IBAN, CLABE, PIX key,
 * wallet address...). For identifiers with a domain part (`alice.002@example.com`, `$bob.005@x.y`)
 * the digits sit at the end of the user part. Null when those three characters are not digits.
 */
export function sandboxSuffix(primaryIdentifier: string): string | null {
  const at = primaryIdentifier.lastIndexOf('@');
  const userPart = at >= 0 ? primaryIdentifier.slice(0, at) : primaryIdentifier;
  const lastThree = userPart.trim().slice(-3);
  return /^\d{3}$/.test(lastThree) ? lastThree : null;
}

export function quoteScenarioByName(name: QuoteScenarioName, suffix: string | null = null): QuoteScenario {
  return { name, suffix, steps: SCENARIOS[name] };
}

/**
 * The scenario for a payout to an external account with this primary identifier. `1xx` suffixes
 * drive beneficiary name checks, not quotes, so they (like every unlisted suffix) succeed.
 */
export function quoteScenarioFor(primaryIdentifier: string): QuoteScenario {
  const suffix = sandboxSuffix(primaryIdentifier);
  const name = suffix ? QUOTE_SCENARIO_BY_SUFFIX[suffix] : undefined;
  return name ? quoteScenarioByName(name, suffix) : quoteScenarioByName('SUCCESS', null);
}

export interface TimedSettlementStep extends QuoteSettlementStep {
  /** Delay before this step, from the previous one. */
  delayMs: number;
  /** Delay before this step, from execute (or from funding, for REALTIME_FUNDING quotes). */
  atMs: number;
  /** The refund with the delay from the failure to its end (`refundDelayMs`). */
  refund: (ScenarioRefund & { delayMs: number }) | null;
}

/** The scenario's steps with the configured delays filled in. */
export function settlementSchedule(scenario: QuoteScenario, timing: SandboxTiming): TimedSettlementStep[] {
  let atMs = 0;
  return scenario.steps.map((step) => {
    const delayMs = timing[step.after];
    atMs += delayMs;
    return { ...step, delayMs, atMs, refund: step.refund && { ...step.refund, delayMs: timing.refundDelayMs } };
  });
}
