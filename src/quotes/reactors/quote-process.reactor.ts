import { RecordedEvent } from '../../infra/event-store/event-store.port';
import { Reactor } from '../../infra/projections/projection';
import { TaskScheduler } from '../../infra/queue/task-scheduler';
import { QuoteCompleted, QuoteCreated, QuoteExecutionRejected, QuoteExecutionRequested } from '../domain/quote/quote.events';
import { QuoteExecutionService } from '../execution/quote-execution.service';
import { QuoteStore } from '../quote-store';
import { QuoteSettlementService } from '../settlement/quote-settlement.service';

export const EXPIRE_QUOTE_TASK = 'quote.expire';
export const SETTLE_QUOTE_TASK = 'quote.settle';
export const RESUME_EXECUTION_TASK = 'quote.resume-execution';

/**
 * How long an execute request has to finish its own steps before the resume task looks at it.
 * The request normally holds and records within milliseconds; the task only matters when the
 * request died, and not racing the live request keeps the common path free of duplicate work.
 */
export const RESUME_EXECUTION_AFTER_MS = 1000;

/**
 * The quote process manager (checkpointed, at least once; every effect is a task with a
 * deterministic job id, or an idempotent ledger step):
 * - `QuoteCreated`: the expiry task at `expiresAt`;
 * - `QuoteExecutionRequested`: the resume task, which finishes an execute whose request died
 *   after recording it (hold, then record the hold or the refusal);
 * - `QuoteExecutionRejected`: void the attempt's hold id (a late hold is refused or given back),
 *   and check expiry again (the quote is PENDING once more, maybe past `expiresAt`);
 * - `QuoteFundsHeld`, `QuoteFunded`: the first settlement step after its sandbox delay;
 * - `QuoteCompleted`: the next step, when the scenario has one (the return of suffix 005).
 */
export function quoteProcessReactor(
  store: QuoteStore,
  execution: QuoteExecutionService,
  settlement: QuoteSettlementService,
  tasks: TaskScheduler,
): Reactor {
  const schedule = (task: string, event: RecordedEvent, key: string, delayMs: number, extra: Record<string, unknown> = {}) => {
    const data = event.data as { quoteId: string; platformId: string };
    return tasks.schedule(task, `${data.quoteId}:${key}`, Math.max(0, delayMs), {
      subjectId: data.quoteId,
      platformId: data.platformId,
      correlationId: event.metadata.correlationId,
      causationId: event.id,
      ...extra,
    });
  };

  return {
    name: 'quote-process',
    handles: ['QuoteCreated', 'QuoteExecutionRequested', 'QuoteExecutionRejected', 'QuoteFundsHeld', 'QuoteFunded', 'QuoteCompleted'],
    async react(event) {
      switch (event.type) {
        case 'QuoteCreated': {
          const data = event.data as QuoteCreated['data'];
          await schedule(EXPIRE_QUOTE_TASK, event, 'expire', Date.parse(data.expiresAt) - Date.now());
          return;
        }
        case 'QuoteExecutionRequested': {
          const data = event.data as QuoteExecutionRequested['data'];
          const delayMs = Date.parse(data.requestedAt) + RESUME_EXECUTION_AFTER_MS - Date.now();
          await schedule(RESUME_EXECUTION_TASK, event, `resume:${data.attempt}`, delayMs);
          return;
        }
        case 'QuoteExecutionRejected': {
          const data = event.data as QuoteExecutionRejected['data'];
          const { state } = await store.load(data.quoteId);
          if (state.status === 'none') return;
          await execution.voidRejectedHold(state, data.holdId);
          await schedule(EXPIRE_QUOTE_TASK, event, `expire:after-attempt:${data.attempt}`, Date.parse(state.expiresAt) - Date.now());
          return;
        }
        case 'QuoteFundsHeld':
        case 'QuoteFunded':
        case 'QuoteCompleted': {
          const data = event.data as { quoteId: string; step?: number };
          const step = event.type === 'QuoteCompleted' ? (event.data as QuoteCompleted['data']).step + 1 : 0;
          const { state } = await store.load(data.quoteId);
          if (state.status === 'none') return;
          const next = settlement.schedule(state)[step];
          if (next) await schedule(SETTLE_QUOTE_TASK, event, `settle:${step}`, next.delayMs, { step });
          return;
        }
      }
    },
  };
}
