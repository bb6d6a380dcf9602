import { Injectable } from '@nestjs/common';
import { DomainError } from '../infra/domain/domain-error';
import { ConcurrencyError, RecordedEvent } from '../infra/event-store/event-store.port';
import { EventStoreService } from '../infra/event-store/event-store.service';
import { parseId, streamNameFor, uuidv5 } from '../infra/ids';
import { recordAppendedPosition } from '../infra/request-context';
import { ExistingQuote, QuoteCommand, QuoteState, quoteDecider, quoteNotFound } from './domain/quote/quote.decider';
import { QuoteEvent } from './domain/quote/quote.events';
import { foldQuote } from './queries/quote.view';

export interface LoadedQuote {
  state: QuoteState;
  revision: number | 'no_stream';
  recorded: RecordedEvent[];
}

export interface DecidedQuote {
  state: ExistingQuote;
  events: QuoteEvent[];
  /** The stream's revision after this decision (unchanged when nothing was appended). */
  revision: number | 'no_stream';
}

const MAX_ATTEMPTS = 20;

/** The ledger hold of one execute attempt: deterministic, so every process places the same one. */
export function holdIdFor(quoteId: string, attempt: number): string {
  return uuidv5(`quote:${quoteId}:hold:${attempt}`);
}

/**
 * Reads and writes quote streams. Every load notes the newest position it saw in the request
 * context, so a response waits until the read models include steps another process (a reactor,
 * a task) took first. Appends expect the revision they decided on, so concurrent writers of one
 * quote never both win.
 */
@Injectable()
export class QuoteStore {
  constructor(private readonly events: EventStoreService) {}

  async load(quoteId: string): Promise<LoadedQuote> {
    if (!parseId('Quote', quoteId)) throw quoteNotFound();
    const recorded = await this.events.readStream(streamNameFor(quoteId));
    const last = recorded[recorded.length - 1];
    if (last) recordAppendedPosition(last.position);
    return { state: foldQuote(recorded), revision: last ? last.revision : 'no_stream', recorded };
  }

  /** The quote of this platform; another platform's quote answers exactly like an unknown one. */
  async loadFor(platformId: string, quoteId: string): Promise<LoadedQuote & { state: ExistingQuote }> {
    const loaded = await this.load(quoteId);
    if (loaded.state.status === 'none' || loaded.state.platformId !== platformId) throw quoteNotFound();
    return loaded as LoadedQuote & { state: ExistingQuote };
  }

  /**
   * Decides `command` on `state` and appends at `revision`. Throws the decider's DomainError, or
   * ConcurrencyError when another writer moved the stream first (the caller reloads and retries).
   */
  async append(state: QuoteState, revision: number | 'no_stream', command: QuoteCommand): Promise<DecidedQuote> {
    const decided = quoteDecider.decide(command, state);
    let next = state;
    for (const event of decided) next = quoteDecider.evolve(next, event);
    if (next.status === 'none') throw quoteNotFound();
    if (decided.length === 0) return { state: next, events: [], revision };
    // Fresh event ids: the expected revision is what makes one writer win. Ids derived from the
    // revision would let a losing writer's identical-looking append pass as a retry of the winner's.
    const appended = await this.events.append(streamNameFor(next.quoteId), decided, revision);
    return { state: next, events: decided, revision: appended.nextExpectedRevision };
  }

  /**
   * Load, check the platform, decide, append; on a concurrent write, re-decide on the fresh state
   * (the decider then answers from what the other writer recorded, e.g. 409 already executed).
   */
  async handle(
    platformId: string | null,
    quoteId: string,
    command: QuoteCommand | ((state: ExistingQuote) => QuoteCommand),
    preloaded?: LoadedQuote,
  ): Promise<DecidedQuote & { recorded: RecordedEvent[] }> {
    for (let attempt = 1; ; attempt++) {
      const fresh = attempt === 1 && preloaded ? preloaded : null;
      const loaded = fresh ?? (platformId ? await this.loadFor(platformId, quoteId) : await this.load(quoteId));
      if (loaded.state.status === 'none') throw quoteNotFound();
      const state = loaded.state;
      const concrete = typeof command === 'function' ? command(state) : command;
      try {
        return { ...(await this.append(state, loaded.revision, concrete)), recorded: loaded.recorded };
      } catch (error) {
        if (!(error instanceof ConcurrencyError)) throw error;
        if (attempt >= MAX_ATTEMPTS) throw new DomainError('CONFLICT', 'The quote was changed concurrently; retry the request');
      }
    }
  }
}
