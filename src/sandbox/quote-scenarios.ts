import type { SandboxTiming } from '../infra/config';

/**
 * What happens to a quote after execute in the sandbox (DECISIONS.md section 5), as data a
 * settlement process follows one step at a time: wait the step's delay (from AppConfig.sandbox),
 * then apply its status, failure reason, money movement and refund. The scenario is chosen by the
 * last three digits of the destination's primary identifier (or by the UMA test address).
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
 * The money movement a step implies for a prefunded (ACCOUNT) source, in AccountsLedger terms:
 * - SETTLE_HOLD: the held sending amount leaves the system (`settleHold`).
 * - RELEASE_HOLD: the hold goes back to available (`releaseHold`): the refund of a failed payout.
 * - CREDIT_REFUND: money that already left comes back (`credit`): a payout returned after COMPLETED.
 * - SETTLE_HOLD_UNREFUNDED: the payout failed and so did its refund: the money is gone
 *   (`settleHold`) and the transaction's refund says FAILED.
 * A REALTIME_FUNDING quote holds nothing: its refunds go back to the payer outside the ledger.
 */
export type ScenarioFundsMovement = 'SETTLE_HOLD' | 'RELEASE_HOLD' | 'CREDIT_REFUND' | 'SETTLE_HOLD_UNREFUNDED';

export interface ScenarioRefund {
  status: 'COMPLETED' | 'FAILED';
  reason: RefundReason;
}

export interface QuoteSettlementStep {
  /** Delay before this step, counted from the previous step (the first from execute). */
  after: SandboxDelayName;
  status: 'COMPLETED' | 'FAILED';
  failureReason: QuoteFailureReason | null;
  funds: ScenarioFundsMovement;
  /** The transaction's `refund` after this step (initiated and settled at the step), or null. */
  refund: ScenarioRefund | null;
}

export interface QuoteScenario {
  name: QuoteScenarioName;
  /** The identifier suffix that selected it, or null for the default and UMA scenarios. */
  suffix: string | null;
  steps: readonly QuoteSettlementStep[];
}

const completes = (after: SandboxDelayName): QuoteSettlementStep => ({ after, status: 'COMPLETED', failureReason: null, funds: 'SETTLE_HOLD', refund: null });

const failsRefunded = (reason: QuoteFailureReason, refundReason: RefundReason = 'TRANSACTION_FAILED'): QuoteSettlementStep => ({
  after: 'settlementDelayMs', status: 'FAILED', failureReason: reason, funds: 'RELEASE_HOLD', refund: { status: 'COMPLETED', reason: refundReason },
});

const SCENARIOS: Readonly<Record<QuoteScenarioName, readonly QuoteSettlementStep[]>> = Object.freeze({
  SUCCESS: [completes('settlementDelayMs')],
  EXECUTION_FAILED: [failsRefunded('QUOTE_EXECUTION_FAILED')],
  LONG_PAYMENT: [completes('longPaymentDelayMs')],
  ACCOUNT_CANNOT_RECEIVE: [failsRefunded('ACCOUNT_CANNOT_RECEIVE')],
  PAYOUT_RETURNED: [
    completes('settlementDelayMs'),
    { after: 'returnDelayMs', status: 'FAILED', failureReason: 'PAYOUT_RETURNED', funds: 'CREDIT_REFUND', refund: { status: 'COMPLETED', reason: 'TRANSACTION_FAILED' } },
  ],
  USER_CANCELLATION: [failsRefunded('QUOTE_EXECUTION_FAILED', 'USER_CANCELLATION')],
  REFUND_FAILED: [
    { after: 'settlementDelayMs', status: 'FAILED', failureReason: 'QUOTE_EXECUTION_FAILED', funds: 'SETTLE_HOLD_UNREFUNDED', refund: { status: 'FAILED', reason: 'TRANSACTION_FAILED' } },
  ],
  UMA_PENDING_LONG: [completes('longPaymentDelayMs')],
  UMA_COMPLIANCE_REJECTED: [failsRefunded('COMPLIANCE_REJECTED')],
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
}

/** The scenario's steps with the configured delays filled in. */
export function settlementSchedule(scenario: QuoteScenario, timing: SandboxTiming): TimedSettlementStep[] {
  let atMs = 0;
  return scenario.steps.map((step) => {
    const delayMs = timing[step.after];
    atMs += delayMs;
    return { ...step, delayMs, atMs };
  });
}
