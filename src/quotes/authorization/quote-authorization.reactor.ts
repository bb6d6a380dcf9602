import { CommandBus } from '@nestjs/cqrs';
import { Reactor } from '../../infra/projections/projection';
import { TaskScheduler } from '../../infra/queue/task-scheduler';
import { QuoteAuthorizationRequested, QuoteAuthorized } from '../domain/quote/quote.events';
import { QuoteStore } from '../quote-store';
import { EXPIRE_QUOTE_TASK } from '../reactors/quote-process.reactor';
import { OpenQuoteChallenges } from '../commands/open-quote-challenges';

/**
 * The SCA side of the quote process (checkpointed, at least once):
 * - `QuoteAuthorizationRequested`: open the challenge sequence it planned (OpenQuoteChallenges;
 *   a no-op unless the request died between recording the quote and opening it);
 * - `QuoteAuthorized` of a REALTIME_FUNDING quote: it is PENDING again, so it can expire again.
 */
export function quoteAuthorizationReactor(store: QuoteStore, commandBus: CommandBus, tasks: TaskScheduler): Reactor {
  return {
    name: 'quote-authorization',
    handles: ['QuoteAuthorizationRequested', 'QuoteAuthorized'],
    async react(event) {
      if (event.type === 'QuoteAuthorizationRequested') {
        await commandBus.execute(new OpenQuoteChallenges(event.data as QuoteAuthorizationRequested['data']));
        return;
      }
      const data = event.data as QuoteAuthorized['data'];
      const { state } = await store.load(data.quoteId);
      if (state.status !== 'PENDING') return;
      await tasks.schedule(EXPIRE_QUOTE_TASK, `${data.quoteId}:expire:after-authorization`, Math.max(0, Date.parse(state.expiresAt) - Date.now()), {
        subjectId: data.quoteId,
        platformId: data.platformId,
        correlationId: event.metadata.correlationId,
        causationId: event.id,
      });
    },
  };
}
