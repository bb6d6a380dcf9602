import { streamType } from '../infra/commands/stream-type';
import { lookupDecider } from './domain/lookup/lookup.decider';
import { quoteDecider } from './domain/quote/quote.decider';

/**
 * The quotes context's streams, as the command store handles them (src/infra/commands). The
 * state of recently used quotes stays in memory (an execute, its hold and its settlement touch
 * one quote several times within a second), whole streams are read (callers build transaction
 * views from the recorded events), and a quote contended by racing executes re-decides up to 20
 * times.
 */
export const QUOTE_STREAM = streamType({
  name: 'quote',
  decider: quoteDecider,
  maxAttempts: 20,
  conflictMessage: 'The quote was changed concurrently; retry the request',
  cacheSize: 20_000,
  fullReads: true,
});

/** Receiver lookups: written once, read by the quotes that name them (the defaults suit them). */
export const LOOKUP_STREAM = streamType({
  name: 'receiver lookup',
  decider: lookupDecider,
});
