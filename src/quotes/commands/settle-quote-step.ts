import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AccountsLedger } from '../../accounts';
import { DomainError } from '../../infra/domain/domain-error';
import { ConcurrencyError } from '../../infra/event-store/event-store.port';
import { TimedSettlementStep } from '../../sandbox';
import { CompletedQuote, ProcessingQuote, QuoteCommand } from '../domain/quote/quote.decider';
import { QuoteStore } from '../quote-store';
import { commitWithHoldMovement } from '../settlement/quote-hold-commit';
import { QuoteSettlementSchedule } from '../settlement/quote-settlement-schedule';
import { NotDueYetError } from './expire-quote';

const MAX_STEP_ATTEMPTS = 20;

/**
 * Settlement step `step` of a PROCESSING (or, for a return, COMPLETED) quote: the task the
 * quote-process reactor schedules after the step's sandbox delay (SETTLE_QUOTE_TASK).
 */
export class SettleQuoteStep extends Command<void> {
  constructor(
    readonly quoteId: string,
    readonly step: number,
  ) {
    super();
  }
}

/**
 * The sandbox settlement steps (quote-scenarios.ts) with their ledger movements. A completion
 * that only settles the source account's hold commits the movement and the quote event together
 * (see `settleAtomically`); otherwise a step moves money first (idempotent by hold or movement
 * id), then records the quote event at the revision it read, and a crash in between repeats the
 * movement as a no-op. A failure moves nothing: it starts the refund (PENDING) that
 * SettleQuoteRefund ends `refundDelayMs` later, moving the money then. A ledger step and the quote's event are a process across two streams, so
 * the round loop stays here; every append goes through QuoteStore (or the ledger's atomic step
 * with the quote's events decided by QuoteStore).
 */
@CommandHandler(SettleQuoteStep)
export class SettleQuoteStepHandler implements ICommandHandler<SettleQuoteStep, void> {
  constructor(
    private readonly store: QuoteStore,
    private readonly ledger: AccountsLedger,
    private readonly schedule: QuoteSettlementSchedule,
  ) {}

  async execute({ quoteId, step }: SettleQuoteStep): Promise<void> {
    for (let round = 1; round <= MAX_STEP_ATTEMPTS; round++) {
      // What this process remembers of the quote first (it usually recorded the funds held
      // itself); anything but the expected step is checked against the stream.
      const loaded = round === 1 ? await this.store.loadRecent(quoteId) : await this.store.load(quoteId);
      const { state, revision } = loaded;
      const due = (state.status === 'PROCESSING' || state.status === 'COMPLETED') && state.stepsApplied === step;
      if (!due && loaded.fromMemory) continue;
      if (state.status !== 'PROCESSING' && state.status !== 'COMPLETED') return;
      if (state.stepsApplied !== step) {
        if (state.stepsApplied > step) return;
        throw new NotDueYetError(`Quote ${quoteId} is at settlement step ${state.stepsApplied}, not ${step}`);
      }
      const planned = this.schedule.stepsFor(state.funding)[step];
      if (!planned) return;
      const atomic = await this.settleAtomically(state, revision, step, planned);
      if (atomic === 'settled') return;
      if (atomic === 'conflict') continue;
      try {
        await this.moveFunds(state, planned);
      } catch (error) {
        // A cancellation took the hold back first (POST /transactions/{id}/cancel): read the quote as it recorded it.
        if (!(error instanceof DomainError) || error.code !== 'INVALID_STATE_TRANSITION') throw error;
        this.store.forget(quoteId);
        continue;
      }
      try {
        await this.store.append(state, revision, settlementCommand(step, planned, new Date().toISOString()));
        return;
      } catch (error) {
        if (!(error instanceof ConcurrencyError)) throw error;
      }
    }
    throw new DomainError('CONFLICT', `Settlement step ${step} of ${quoteId} kept conflicting; it will be retried`);
  }

  /**
   * A completion that only settles the source account's hold (no internal destination to credit)
   * records the movement and the quote's step in one commit (commitWithHoldMovement). A failure
   * moves nothing (its refund does, later) and a credit touches another account: `sequential`.
   */
  private async settleAtomically(
    state: ProcessingQuote | CompletedQuote,
    revision: number | 'no_stream',
    step: number,
    planned: TimedSettlementStep,
  ): Promise<'settled' | 'sequential' | 'conflict'> {
    if (planned.funds !== 'SETTLE_HOLD' || state.funding.destinationInternalAccountId) return 'sequential';
    return commitWithHoldMovement(this.store, this.ledger, { state, revision }, settlementCommand(step, planned, new Date().toISOString()), { kind: 'SETTLE' });
  }

  /**
   * The ledger movement of a completion (quote-scenarios.ts ScenarioStepFunds), by deterministic
   * ids: the attempt's hold, `<transactionId>:payout` for a credit to an internal destination.
   * REALTIME_FUNDING quotes hold nothing; only their credit to an internal destination touches
   * the ledger. A failure moves nothing.
   */
  private async moveFunds(state: ProcessingQuote | CompletedQuote, step: TimedSettlementStep): Promise<void> {
    if (step.funds !== 'SETTLE_HOLD') return;
    if (state.funding.sourceAccountId && state.execution) {
      await this.ledger.settleHold({ platformId: state.platformId, accountId: state.funding.sourceAccountId, holdId: state.execution.holdId });
    }
    if (state.funding.destinationInternalAccountId) {
      await this.ledger.credit({
        platformId: state.platformId,
        accountId: state.funding.destinationInternalAccountId,
        movementId: `${state.transactionId}:payout`,
        amount: state.totalReceivingAmount,
        reason: 'QUOTE_PAYOUT',
        reference: state.transactionId,
      });
    }
  }
}

function settlementCommand(step: number, planned: TimedSettlementStep, now: string): QuoteCommand & { now: string } {
  return {
    type: 'ApplySettlementStep',
    step,
    outcome: { status: planned.status, failureReason: planned.failureReason, refund: planned.refund && { reason: planned.refund.reason } },
    now,
  };
}
