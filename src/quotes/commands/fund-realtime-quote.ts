import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { WireTransaction, transactionOnWire } from '../../accounts';
import { DomainError } from '../../infra/domain/domain-error';
import { READ_MODEL_WAITER, ReadModelWaiter, awaitOwnWrites } from '../../infra/projections/read-model-waiter';
import { quoteExpiredConflict } from '../domain/quote/quote.decider';
import { quoteTransactionViewFromEvents } from '../queries/quote-transaction.reducers';
import { QuoteStore } from '../quote-store';

export type { WireTransaction };

export interface FundRealtimeQuoteInput {
  quoteId: string;
  /** Must be the quote's sending currency. */
  currencyCode: string;
  /** When given, exactly the quote's totalSendingAmount. */
  currencyAmount: number | null;
}

/** `POST /sandbox/send` (DECISIONS.md section 5): the payer pays a REALTIME_FUNDING quote's instructions. */
export class FundRealtimeQuote extends Command<WireTransaction> {
  constructor(
    readonly platformId: string,
    readonly input: FundRealtimeQuoteInput,
  ) {
    super();
  }
}

/**
 * PENDING -> PROCESSING (the decider checks the currency and the amount); settlement then follows
 * the destination's sandbox scenario. Answers the quote's transaction as this request left it.
 */
@CommandHandler(FundRealtimeQuote)
export class FundRealtimeQuoteHandler implements ICommandHandler<FundRealtimeQuote, WireTransaction> {
  constructor(
    private readonly store: QuoteStore,
    @Inject(READ_MODEL_WAITER) private readonly waiter: ReadModelWaiter,
  ) {}

  async execute({ platformId, input }: FundRealtimeQuote): Promise<WireTransaction> {
    const { state, events, recorded } = await this.store
      .handle(platformId, input.quoteId, { type: 'RecordFunding', currencyCode: input.currencyCode, amount: input.currencyAmount, now: new Date().toISOString() })
      .catch((error: unknown) => {
        throw unfundable(error);
      });
    if (state.status === 'EXPIRED') {
      await awaitOwnWrites(this.waiter);
      throw unfundable(quoteExpiredConflict(state));
    }
    const view = quoteTransactionViewFromEvents([...recorded, ...events] as Array<{ type: string; data: Record<string, unknown> }>);
    if (!view) throw new DomainError('TRANSACTION_NOT_FOUND', 'Transaction not found');
    return transactionOnWire(view, platformId);
  }
}

/**
 * `POST /sandbox/send` declares no 409: a quote that can no longer be funded (expired, already
 * funded, waiting for SCA) is a bad `quoteId`, 400 INVALID_INPUT, with the same `reason` and
 * `status` details execute gives with its 409.
 */
function unfundable(error: unknown): unknown {
  if (!(error instanceof DomainError) || (error.code !== 'CONFLICT' && error.code !== 'INVALID_STATE_TRANSITION')) return error;
  return new DomainError('INVALID_INPUT', error.message, {
    ...error.details,
    errors: [{ field: 'quoteId', constraint: {}, message: error.message }],
  });
}
