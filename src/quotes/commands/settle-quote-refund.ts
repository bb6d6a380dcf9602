import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AccountsLedger } from '../../accounts';
import { DomainError } from '../../infra/domain/domain-error';
import { ConcurrencyError } from '../../infra/event-store/event-store.port';
import { TimedSettlementStep } from '../../sandbox';
import { FailedQuote, QuoteCommand } from '../domain/quote/quote.decider';
import { QuoteStore } from '../quote-store';
import { HoldMovement, commitWithHoldMovement } from '../settlement/quote-hold-commit';
import { QuoteSettlementSchedule } from '../settlement/quote-settlement-schedule';

const MAX_ROUNDS = 20;

type PlannedRefund = NonNullable<TimedSettlementStep['refund']>;

/**
 * Ends the PENDING refund of a failed quote: the task the quote-process reactor schedules
 * `refundDelayMs` after the failure (SETTLE_QUOTE_REFUND_TASK).
 */
export class SettleQuoteRefund extends Command<void> {
  constructor(readonly quoteId: string) {
    super();
  }
}

/**
 * The refund's money moves now, as the sandbox scenario planned it (quote-scenarios.ts
 * ScenarioFundsMovement): the hold goes back (COMPLETED), the returned payout is credited back
 * (COMPLETED), or the hold leaves for good (FAILED: the money is gone). A movement of the hold
 * alone commits with the quote's `QuoteRefundCompleted` / `QuoteRefundFailed` (commitWithHoldMovement);
 * otherwise the money moves first (idempotent by hold or movement id `<transactionId>:refund`),
 * then the end is recorded at the revision read, and a crash in between repeats the movement as
 * a no-op. A conflict (a receipt confirmation, the same task run twice) reads the quote again; a
 * refund that has ended is left as it is.
 */
@CommandHandler(SettleQuoteRefund)
export class SettleQuoteRefundHandler implements ICommandHandler<SettleQuoteRefund, void> {
  constructor(
    private readonly store: QuoteStore,
    private readonly ledger: AccountsLedger,
    private readonly schedule: QuoteSettlementSchedule,
  ) {}

  async execute({ quoteId }: SettleQuoteRefund): Promise<void> {
    for (let round = 1; round <= MAX_ROUNDS; round++) {
      const { state, revision } = await this.store.load(quoteId);
      if (state.status !== 'FAILED' || state.refund?.status !== 'PENDING') return;
      const planned = this.schedule.refundFor(state);
      if (!planned) return;
      const now = new Date().toISOString();
      const movement = holdMovementOf(planned, state.failureReason);
      if (movement) {
        const atomic = await commitWithHoldMovement(this.store, this.ledger, { state, revision }, refundCommand(planned.status, now), movement);
        if (atomic === 'settled') return;
        if (atomic === 'conflict') continue;
      }
      const outcome = await this.moveFunds(state, planned);
      try {
        await this.store.append(state, revision, refundCommand(outcome, now));
        return;
      } catch (error) {
        if (!(error instanceof ConcurrencyError)) throw error;
      }
    }
    throw new DomainError('CONFLICT', `The refund of ${quoteId} kept conflicting; it will be retried`);
  }

  /**
   * The refund's ledger movement; answers how the refund ended. REALTIME_FUNDING quotes hold
   * nothing: their refunds go back to the payer outside the ledger. A hold that went back already
   * (a cancellation that released it on an event store without multi-stream commits, then lost
   * to the failure's record) cannot be lost any more: that refund is COMPLETED.
   */
  private async moveFunds(state: FailedQuote, planned: PlannedRefund): Promise<'COMPLETED' | 'FAILED'> {
    const accountId = state.funding.sourceAccountId;
    if (!accountId || !state.execution) return planned.status;
    const hold = { platformId: state.platformId, accountId, holdId: state.execution.holdId };
    switch (planned.funds) {
      case 'RELEASE_HOLD':
        await this.ledger.releaseHold({ ...hold, reason: state.failureReason });
        return planned.status;
      case 'CREDIT_REFUND':
        await this.ledger.credit({
          platformId: state.platformId,
          accountId,
          movementId: `${state.transactionId}:refund`,
          amount: state.totalSendingAmount,
          reason: 'QUOTE_REFUND',
          reference: state.transactionId,
        });
        return planned.status;
      case 'SETTLE_HOLD_UNREFUNDED':
        try {
          await this.ledger.settleHold(hold);
          return planned.status;
        } catch (error) {
          if (!(error instanceof DomainError) || error.code !== 'INVALID_STATE_TRANSITION') throw error;
          return 'COMPLETED';
        }
    }
  }
}

/** The movement of the quote's own hold, when that is all the refund moves. */
function holdMovementOf(planned: PlannedRefund, failureReason: string): HoldMovement | null {
  if (planned.funds === 'RELEASE_HOLD') return { kind: 'RELEASE', reason: failureReason };
  if (planned.funds === 'SETTLE_HOLD_UNREFUNDED') return { kind: 'SETTLE' };
  return null;
}

function refundCommand(outcome: 'COMPLETED' | 'FAILED', now: string): QuoteCommand & { now: string } {
  return { type: 'SettleRefund', outcome, now };
}
