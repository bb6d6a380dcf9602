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

const MAX_ATTEMPTS = 20;
const RECENT_LIMIT = 20_000;

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
  /**
   * The state and revision of quotes this process recently wrote or read. A step decided on it
   * appends at that revision, so a write by another process since shows up as a conflict (and a
   * fresh read); a refusal or a no-op decided on it is checked against the stream first.
   */
  private readonly recent = new Map<string, { state: ExistingQuote; revision: number }>();

  constructor(private readonly events: EventStoreService) {}

  async load(quoteId: string): Promise<LoadedQuote> {
    if (!parseId('Quote', quoteId)) throw quoteNotFound();
    const recorded = await this.events.readStream(streamNameFor(quoteId));
    const last = recorded[recorded.length - 1];
    if (last) recordAppendedPosition(last.position);
    const state = foldQuote(recorded);
    if (last && state.status !== 'none') this.remember(state, last.revision);
    return { state, revision: last ? last.revision : 'no_stream', recorded };
  }

  /** The state this process last knew (see `recent`), else the stream. */
  async loadRecent(quoteId: string): Promise<LoadedQuote> {
    const known = this.recent.get(quoteId);
    return known ? { state: known.state, revision: known.revision, recorded: [], fromMemory: true } : this.load(quoteId);
  }

  private remember(state: ExistingQuote, revision: number): void {
    this.recent.delete(state.quoteId);
    this.recent.set(state.quoteId, { state, revision });
    if (this.recent.size > RECENT_LIMIT) this.recent.delete(this.recent.keys().next().value!);
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
    const { state: next, events: decided } = this.decideAll(state, [command]);
    if (decided.length === 0) return { state: next, events: [], revision };
    // Fresh event ids: the expected revision is what makes one writer win. Ids derived from the
    // revision would let a losing writer's identical-looking append pass as a retry of the winner's.
    let appended;
    try {
      appended = await this.events.append(streamNameFor(next.quoteId), decided, revision);
    } catch (error) {
      if (error instanceof ConcurrencyError) this.recent.delete(next.quoteId);
      throw error;
    }
    this.remember(next, appended.nextExpectedRevision);
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
      for (const event of decided) next = quoteDecider.evolve(next, event);
      events.push(...decided);
    }
    if (next.status === 'none') throw quoteNotFound();
    return { state: next, events };
  }

  /** The state a caller's own append (see `decideAll`) left the quote in, at that revision. */
  recordAppended(state: ExistingQuote, revision: number): void {
    this.remember(state, revision);
  }

  /** Drops what this process remembers of the quote (another writer moved it). */
  forget(quoteId: string): void {
    this.recent.delete(quoteId);
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
        const decided = await this.append(state, loaded.revision, concrete);
        // Nothing to do, decided on remembered state: make sure on the stream.
        if (decided.events.length === 0 && loaded.fromMemory) continue;
        return { ...decided, recorded: loaded.recorded };
      } catch (error) {
        // A refusal decided on remembered state is checked against the stream.
        if (loaded.fromMemory && error instanceof DomainError) continue;
        if (!(error instanceof ConcurrencyError)) throw error;
        if (attempt >= MAX_ATTEMPTS) throw new DomainError('CONFLICT', 'The quote was changed concurrently; retry the request');
      }
    }
  }

  /** loadFor from what this process remembers (see `recent`), else from the stream. */
  async loadRecentFor(platformId: string, quoteId: string): Promise<LoadedQuote & { state: ExistingQuote }> {
    const loaded = await this.loadRecent(quoteId);
    if (loaded.state.status === 'none' || loaded.state.platformId !== platformId) {
      if (loaded.fromMemory) return this.loadFor(platformId, quoteId);
      throw quoteNotFound();
    }
    return loaded as LoadedQuote & { state: ExistingQuote };
  }
}
