import { Injectable } from '@nestjs/common';
import { CommandStore, LoadedStream } from '../infra/commands/command-store';
import { RecordedEvent } from '../infra/event-store/event-store.port';
import { parseId, streamNameFor, uuidv5 } from '../infra/ids';
import { ExistingQuote, QuoteCommand, QuoteState, quoteDecider, quoteNotFound } from './domain/quote/quote.decider';
import { QuoteEvent } from './domain/quote/quote.events';
import { QUOTE_STREAM } from './streams';

export interface LoadedQuote {
  state: QuoteState;
  revision: number | 'no_stream';
  /** The stream's events (empty when the state came from this process's memory). */
  recorded: RecordedEvent[];
  /** True when the state is the one this process last wrote or read, not read just now. */
  fromMemory?: boolean;
}

export interface DecidedQuote {
  state: ExistingQuote;
  events: QuoteEvent[];
  /** The stream's revision after this decision (unchanged when nothing was appended). */
  revision: number | 'no_stream';
}

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
  constructor(private readonly commands: CommandStore) {}

  async load(quoteId: string): Promise<LoadedQuote> {
    if (!parseId('Quote', quoteId)) throw quoteNotFound();
    return loadedQuote(await this.commands.load(QUOTE_STREAM, streamNameFor(quoteId)));
  }

  /** The state this process last knew (its cache), else the stream. */
  async loadRecent(quoteId: string): Promise<LoadedQuote> {
    if (!parseId('Quote', quoteId)) throw quoteNotFound();
    return loadedQuote(await this.commands.loadCached(QUOTE_STREAM, streamNameFor(quoteId)));
  }

  /** The quote of this platform; another platform's quote answers exactly like an unknown one. */
  async loadFor(platformId: string, quoteId: string): Promise<LoadedQuote & { state: ExistingQuote }> {
    const loaded = await this.load(quoteId);
    if (loaded.state.status === 'none' || loaded.state.platformId !== platformId) throw quoteNotFound();
    return loaded as LoadedQuote & { state: ExistingQuote };
  }

  /** loadFor from what this process remembers, else from the stream. */
  async loadRecentFor(platformId: string, quoteId: string): Promise<LoadedQuote & { state: ExistingQuote }> {
    const loaded = await this.loadRecent(quoteId);
    if (loaded.state.status === 'none' || loaded.state.platformId !== platformId) {
      if (loaded.fromMemory) return this.loadFor(platformId, quoteId);
      throw quoteNotFound();
    }
    return loaded as LoadedQuote & { state: ExistingQuote };
  }

  /**
   * Decides `command` on `state` and appends at `revision`. Throws the decider's DomainError, or
   * ConcurrencyError when another writer moved the stream first (the caller reloads and retries).
   */
  async append(state: QuoteState, revision: number | 'no_stream', command: QuoteCommand): Promise<DecidedQuote> {
    const { state: next, events: decided } = this.decideAll(state, [command]);
    if (decided.length === 0) return { state: next, events: [], revision };
    // Fresh event ids: the expected revision is what makes one writer win. Ids derived from the
    // revision would let a losing writer's identical-looking append pass as a retry of the winner's.
    const [appended] = await this.commands.commit([{ type: QUOTE_STREAM, state, streamName: streamNameFor(next.quoteId), events: decided, expectedRevision: revision }]);
    return { state: next, events: decided, revision: appended.nextExpectedRevision };
  }

  /**
   * Decides `commands` one after the other on `state`, appending nothing: the quote's share of an
   * atomic append the caller makes with another stream. Throws the first refusal. Once that append
   * succeeded, the caller hands the outcome to `recordAppended`; after a conflict, to `forget`.
   */
  decideAll(state: QuoteState, commands: QuoteCommand[]): { state: ExistingQuote; events: QuoteEvent[] } {
    let next = state;
    const events: QuoteEvent[] = [];
    for (const command of commands) {
      const decided = quoteDecider.decide(command, next);
      next = this.commands.decide(QUOTE_STREAM, next, decided);
      events.push(...decided);
    }
    if (next.status === 'none') throw quoteNotFound();
    return { state: next, events };
  }

  /** The state a caller's own append (see `decideAll`) left the quote in, at that revision. */
  recordAppended(state: ExistingQuote, revision: number): void {
    this.commands.remember(QUOTE_STREAM, streamNameFor(state.quoteId), state, revision, null);
  }

  /** Drops what this process remembers of the quote (another writer moved it). */
  forget(quoteId: string): void {
    this.commands.forget(QUOTE_STREAM, streamNameFor(quoteId));
  }

  /**
   * Load (or take `preloaded`), check the platform, decide, append; on a concurrent write,
   * re-decide on the fresh state (the decider then answers from what the other writer recorded,
   * e.g. 409 already executed). The command store's one loop does the work.
   */
  async handle(
    platformId: string | null,
    quoteId: string,
    command: QuoteCommand | ((state: ExistingQuote) => QuoteCommand),
    preloaded?: LoadedQuote,
  ): Promise<DecidedQuote & { recorded: RecordedEvent[] }> {
    const first = preloaded ?? (platformId ? await this.loadFor(platformId, quoteId) : await this.load(quoteId));
    const handled = await this.commands.handle(QUOTE_STREAM, streamNameFor(quoteId), command as (state: QuoteState) => QuoteCommand, {
      preloaded: { state: first.state, revision: first.revision, recorded: first.recorded, fromCache: first.fromMemory ?? false },
      check: (state) => {
        if (state.status === 'none' || (platformId !== null && state.platformId !== platformId)) throw quoteNotFound();
      },
    });
    return { state: handled.state as ExistingQuote, events: handled.events, revision: handled.revision, recorded: handled.recorded };
  }
}

function loadedQuote(loaded: LoadedStream<QuoteState>): LoadedQuote {
  return { state: loaded.state, revision: loaded.revision, recorded: loaded.recorded, ...(loaded.fromCache ? { fromMemory: true } : {}) };
}
