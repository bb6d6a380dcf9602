import { Reactor } from '../../infra/projections/projection';
import { QuoteAuthorizationRequested } from '../domain/quote/quote.events';
import { QuoteAuthorizationService } from './quote-authorization.service';

/**
 * The SCA side of the quote process (checkpointed, at least once): on
 * `QuoteAuthorizationRequested`, open the challenge sequence it planned (a no-op unless the
 * request died between recording the quote and opening it). A REALTIME_FUNDING quote released by
 * `QuoteAuthorized` is PENDING again and expires like any other: the expiry sweep
 * (settlement/quote-expiry-sweeper.ts) finds it in the read model.
 */
export function quoteAuthorizationReactor(authorization: QuoteAuthorizationService): Reactor {
  return {
    name: 'quote-authorization',
    handles: ['QuoteAuthorizationRequested'],
    async react(event) {
      await authorization.open(event.data as QuoteAuthorizationRequested['data']);
    },
  };
}
