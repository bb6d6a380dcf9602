import { CommandBus } from '@nestjs/cqrs';
import { RecordedEvent } from '../../infra/event-store/event-store.port';
import { Reactor } from '../../infra/projections/projection';
import { TaskScheduler } from '../../infra/queue/task-scheduler';
import { QuoteCompleted, QuoteCreated, QuoteExecutionRejected, QuoteExecutionRequested, QuoteFailed } from '../domain/quote/quote.events';
import { ExistingQuote } from '../domain/quote/quote.decider';
import { VoidRejectedQuoteHold } from '../commands/void-rejected-quote-hold';
import { QuoteStore } from '../quote-store';
import { QuoteSettlementSchedule } from '../settlement/quote-settlement-schedule';

export const EXPIRE_QUOTE_TASK = 'quote.expire';
export const SETTLE_QUOTE_TASK = 'quote.settle';
export const RESUME_EXECUTION_TASK = 'quote.resume-execution';
export const SETTLE_QUOTE_REFUND_TASK = 'quote.settle-refund';

/**
 * How long an execute request has to finish its own steps before the resume task looks at it.
 * The request normally holds and records within milliseconds; the task only matters when the
 * request died, and not racing the live request keeps the common path free of duplicate work.
 */
export const RESUME_EXECUTION_AFTER_MS = 1000;

const HANDLED = ['QuoteCreated', 'QuoteExecutionRequested', 'QuoteExecutionRejected', 'QuoteFundsHeld', 'QuoteFunded', 'QuoteCompleted', 'QuoteFailed'];
const KNOWN_QUOTES_LIMIT = 20_000;

type Ref = { quoteId: string; platformId: string };
type Settling = Pick<ExistingQuote, 'funding' | 'expiresAt'>;

/**
 * The quote process manager (checkpointed, at least once; every effect is a task with a
 * deterministic job id, or an idempotent ledger step):
 * - `QuoteCreated`: the expiry task at `expiresAt`;
 * - `QuoteExecutionRequested`: the resume task (ResumeQuoteExecution), which finishes an execute
 *   whose request died after recording it (hold, then record the hold or the refusal);
 * - `QuoteExecutionRejected`: void the attempt's hold id (VoidRejectedQuoteHold: a late hold is
 *   refused or given back),
 *   and check expiry again (the quote is PENDING once more, maybe past `expiresAt`);
 * - `QuoteFundsHeld`, `QuoteFunded`: the first settlement step after its sandbox delay; the
 *   expiry task (a PROCESSING quote never expires) and the resume task are dropped;
 * - `QuoteCompleted`: the next step, when the scenario has one (the return of suffix 005);
 * - `QuoteFailed` with its refund PENDING: the refund's end (SettleQuoteRefund) `refundDelayMs`
 *   after the failure. A cancellation's refund ends in the cancellation's commit: nothing to schedule.
 * It works a read batch at a time: a resume task is not needed when the same batch already holds
 * the attempt's outcome, nor an expiry for a quote the batch shows executed. Scenarios come from
 * the QuoteCreated events it has seen, or the stream.
 */
export function quoteProcessReactor(
  store: QuoteStore,
  commandBus: CommandBus,
  schedule: QuoteSettlementSchedule,
  tasks: TaskScheduler,
): Reactor {
  const known = new Map<string, Settling>();
  const rememberQuote = (quoteId: string, quote: Settling) => {
    known.set(quoteId, { funding: quote.funding, expiresAt: quote.expiresAt });
    if (known.size > KNOWN_QUOTES_LIMIT) known.delete(known.keys().next().value!);
  };
  const quoteFor = async (quoteId: string): Promise<Settling | null> => {
    const remembered = known.get(quoteId);
    if (remembered) return remembered;
    const { state } = await store.load(quoteId);
    if (state.status === 'none') return null;
    rememberQuote(quoteId, state);
    return state;
  };
  type Scheduled = Parameters<TaskScheduler['scheduleMany']>[0][number];
  const task = (taskName: string, event: RecordedEvent, key: string, delayMs: number, extra: Record<string, unknown> = {}): Scheduled => {
    const data = event.data as Ref;
    return {
      taskName,
      key: `${data.quoteId}:${key}`,
      delayMs: Math.max(0, delayMs),
      payload: { subjectId: data.quoteId, platformId: data.platformId, correlationId: event.metadata.correlationId, causationId: event.id, ...extra },
    };
  };

  const reactBatch = async (events: RecordedEvent[]): Promise<void> => {
    const outcomes = new Set<string>();
    const requested = new Set<string>();
    const executed = new Set<string>();
    for (const event of events) {
      const data = event.data as Ref & { attempt?: number };
      if (event.type === 'QuoteExecutionRequested') requested.add(`${data.quoteId}:${data.attempt}`);
      if (event.type === 'QuoteFundsHeld' || event.type === 'QuoteExecutionRejected') outcomes.add(`${data.quoteId}:${data.attempt}`);
      if (event.type === 'QuoteFundsHeld' || event.type === 'QuoteFunded') executed.add(data.quoteId);
      if (event.type === 'QuoteCreated') rememberQuote(data.quoteId, event.data as QuoteCreated['data']);
    }
    const scheduled: Scheduled[] = [];
    const effects: Array<Promise<unknown>> = [];
    for (const event of events) {
      switch (event.type) {
        case 'QuoteCreated': {
          const data = event.data as QuoteCreated['data'];
          if (!executed.has(data.quoteId)) scheduled.push(task(EXPIRE_QUOTE_TASK, event, 'expire', Date.parse(data.expiresAt) - Date.now()));
          break;
        }
        case 'QuoteExecutionRequested': {
          const data = event.data as QuoteExecutionRequested['data'];
          if (outcomes.has(`${data.quoteId}:${data.attempt}`)) break;
          const delayMs = Date.parse(data.requestedAt) + RESUME_EXECUTION_AFTER_MS - Date.now();
          scheduled.push(task(RESUME_EXECUTION_TASK, event, `resume:${data.attempt}`, delayMs));
          break;
        }
        case 'QuoteExecutionRejected': {
          const data = event.data as QuoteExecutionRejected['data'];
          if (!requested.has(`${data.quoteId}:${data.attempt}`)) effects.push(tasks.cancel(RESUME_EXECUTION_TASK, `${data.quoteId}:resume:${data.attempt}`));
          const { state } = await store.load(data.quoteId);
          if (state.status === 'none') break;
          await commandBus.execute(new VoidRejectedQuoteHold(state, data.holdId));
          scheduled.push(task(EXPIRE_QUOTE_TASK, event, `expire:after-attempt:${data.attempt}`, Date.parse(state.expiresAt) - Date.now()));
          break;
        }
        case 'QuoteFundsHeld':
        case 'QuoteFunded':
        case 'QuoteCompleted': {
          const data = event.data as Ref;
          const step = event.type === 'QuoteCompleted' ? (event.data as QuoteCompleted['data']).step + 1 : 0;
          const quote = await quoteFor(data.quoteId);
          if (!quote) break;
          if (step === 0) effects.push(tasks.cancel(EXPIRE_QUOTE_TASK, `${data.quoteId}:expire`));
          // The outcome of an execute whose request came in an earlier batch: its resume task is moot.
          const attempt = (event.data as { attempt?: number }).attempt;
          if (event.type === 'QuoteFundsHeld' && !requested.has(`${data.quoteId}:${attempt}`)) {
            effects.push(tasks.cancel(RESUME_EXECUTION_TASK, `${data.quoteId}:resume:${attempt}`));
          }
          const next = schedule.stepsFor(quote.funding)[step];
          if (next) scheduled.push(task(SETTLE_QUOTE_TASK, event, `settle:${step}`, next.delayMs, { step }));
          break;
        }
        case 'QuoteFailed': {
          const data = event.data as QuoteFailed['data'];
          // Failures recorded before refunds had their own events carry it ended already.
          if (data.refund?.status !== 'PENDING' || data.cancellation) break;
          const quote = await quoteFor(data.quoteId);
          const refund = quote && schedule.refundFor({ funding: quote.funding, stepsApplied: data.step + 1 });
          if (refund) scheduled.push(task(SETTLE_QUOTE_REFUND_TASK, event, 'refund', Date.parse(data.failedAt) + refund.delayMs - Date.now()));
          break;
        }
      }
    }
    await Promise.all([tasks.scheduleMany(scheduled), ...effects]);
  };

  return {
    name: 'quote-process',
    handles: HANDLED,
    react: (event) => reactBatch([event]),
    reactBatch,
  };
}
