import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AccountsLedger } from '../../accounts';
import { DomainError } from '../../infra/domain/domain-error';
import { ConcurrencyError } from '../../infra/event-store/event-store.port';
import { streamNameFor } from '../../infra/ids';
import { TimedSettlementStep } from '../../sandbox';
import { CompletedQuote, ProcessingQuote, QuoteCommand } from '../domain/quote/quote.decider';
import { QuoteStore } from '../quote-store';
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
 * The sandbox settlement steps (quote-scenarios.ts) with their ledger movements. A step that only
 * settles or releases the source account's hold commits the movement and the quote event together
 * (see `settleAtomically`); otherwise a step moves money first (idempotent by hold or movement
 * id), then records the quote event at the revision it read, and a crash in between repeats the
 * movement as a no-op. A ledger step and the quote's event are a process across two streams, so
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
   * A step that moves money on the source account only (its hold settled or released) records
   * the movement and the quote's step in one commit, when the quote is as this process knows it
   * and the account accepts the movement. Otherwise nothing is written: `sequential` (a credit to
   * another account, a repeat or a refusal: the movement-then-record path settles it) or
   * `conflict` (the quote moved: read it again).
   */
  private async settleAtomically(
    state: ProcessingQuote | CompletedQuote,
    revision: number | 'no_stream',
    step: number,
    planned: TimedSettlementStep,
  ): Promise<'settled' | 'sequential' | 'conflict'> {
    const accountId = state.funding.sourceAccountId;
    const sourceOnly =
      (planned.funds === 'SETTLE_HOLD' && !state.funding.destinationInternalAccountId) ||
      planned.funds === 'SETTLE_HOLD_UNREFUNDED' ||
      planned.funds === 'RELEASE_HOLD';
    if (!this.ledger.supportsAtomicSteps || !sourceOnly || !accountId || !state.execution || revision === 'no_stream') return 'sequential';
    const now = new Date().toISOString();
    let decided: ReturnType<QuoteStore['decideAll']>;
    try {
      decided = this.store.decideAll(state, [settlementCommand(step, planned, now)]);
    } catch (error) {
      if (error instanceof DomainError) return 'sequential';
      throw error;
    }
    if (decided.events.length === 0) return 'sequential';
    const hold = { platformId: state.platformId, accountId, holdId: state.execution.holdId, now };
    const companion = { streamName: streamNameFor(state.quoteId), events: decided.events, expectedRevision: revision };
    const outcome =
      planned.funds === 'RELEASE_HOLD'
        ? await this.ledger.releaseHoldWith({ ...hold, reason: planned.failureReason ?? 'QUOTE_FAILED' }, companion)
        : await this.ledger.settleHoldWith(hold, companion);
    if (outcome.kind === 'applied') {
      this.store.recordAppended(decided.state, outcome.companion.nextExpectedRevision);
      return 'settled';
    }
    if (outcome.reason !== 'COMPANION_CONFLICT') return 'sequential';
    this.store.forget(state.quoteId);
    return 'conflict';
  }

  /**
   * The ledger movement of a step (quote-scenarios.ts ScenarioFundsMovement), by deterministic
   * ids: the attempt's hold, `<transactionId>:payout` for a credit to an internal destination,
   * `<transactionId>:refund` for a refund after a return. REALTIME_FUNDING quotes hold nothing;
   * only their credit to an internal destination touches the ledger.
   */
  private async moveFunds(state: ProcessingQuote | CompletedQuote, step: TimedSettlementStep): Promise<void> {
    const source = state.funding.sourceAccountId && state.execution
      ? { platformId: state.platformId, accountId: state.funding.sourceAccountId, holdId: state.execution.holdId }
      : null;
    switch (step.funds) {
      case 'SETTLE_HOLD':
        if (source) await this.ledger.settleHold(source);
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
        return;
      case 'SETTLE_HOLD_UNREFUNDED':
        if (source) await this.ledger.settleHold(source);
        return;
      case 'RELEASE_HOLD':
        if (source) await this.ledger.releaseHold({ ...source, reason: step.failureReason ?? 'QUOTE_FAILED' });
        return;
      case 'CREDIT_REFUND':
        if (source) {
          await this.ledger.credit({
            platformId: state.platformId,
            accountId: source.accountId,
            movementId: `${state.transactionId}:refund`,
            amount: state.totalSendingAmount,
            reason: 'QUOTE_REFUND',
            reference: state.transactionId,
          });
        }
        return;
    }
  }
}

function settlementCommand(step: number, planned: TimedSettlementStep, now: string): QuoteCommand {
  return {
    type: 'ApplySettlementStep',
    step,
    outcome: { status: planned.status, failureReason: planned.failureReason, refund: planned.refund },
    now,
  };
}
