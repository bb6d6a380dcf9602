/**
 * Time travel for auditors: the state of a resource right after one of its stream's events, by
 * folding the stream up to there. Each resource type folds with what its context uses for its
 * read model or its webhooks ("the resource as GET answered right after this event"); a stream
 * type without such a view folds with its decider; anything else shows its events' data merged
 * in order (what each field was last set to).
 */

/** An event as the audit history gives it (an AuditEntry carries at least these). */
export interface FoldableEvent {
  type: string;
  streamName: string;
  revision: number;
  recordedAt?: string;
  data: Record<string, unknown>;
}

export interface FoldContext {
  resourceId: string;
  platformId: string;
}

/** The resource as its GET answered right after the last of `events`; null while it did not exist (or GET did not show it). */
export type ResourceFold = (events: FoldableEvent[], context: FoldContext) => unknown;

/** The part of a decider a fold needs. */
export interface EvolvingDecider {
  initialState(): unknown;
  evolve(state: never, event: never): unknown;
}

/** How a state was made, for the page to say ("as GET showed it", "decider state", "events merged"). */
export type FoldKind = 'view' | 'decider' | 'events';

export interface FoldedState {
  state: unknown;
  fold: FoldKind;
}

export class ResourceFolds {
  /**
   * @param views folds by resource type (the id prefix, e.g. `Card`), from the contexts' public folds
   * @param deciders deciders by stream category (the stream name's part before `-`, e.g. `agent`)
   */
  constructor(
    private readonly views: Readonly<Record<string, ResourceFold>>,
    private readonly deciders: Readonly<Record<string, EvolvingDecider>>,
  ) {}

  /** Whether a resource of this type has a view fold (the others fold with a decider or merge data). */
  hasView(type: string): boolean {
    return type in this.views;
  }

  /**
   * The resource after the last of `events` (its history up to a revision, oldest first). A
   * decider folds only a stream of the resource's own (`ownStream`); a resource recorded in
   * another's stream (a document in its customer's) merges the events that name it.
   */
  async stateAfter(events: FoldableEvent[], context: FoldContext, ownStream: boolean): Promise<FoldedState> {
    const type = context.resourceId.slice(0, context.resourceId.indexOf(':'));
    const view = this.views[type];
    if (view) return { state: (await view(events, context)) ?? null, fold: 'view' };
    const decider = ownStream && events.length > 0 ? this.deciders[categoryOf(events[0].streamName)] : undefined;
    if (decider) return { state: foldWithDecider(decider, events), fold: 'decider' };
    return { state: mergedData(events), fold: 'events' };
  }
}

/** `cardTransaction-<uuid>` -> `cardTransaction`. */
export function categoryOf(streamName: string): string {
  const dash = streamName.indexOf('-');
  return dash < 0 ? streamName : streamName.slice(0, dash);
}

/** The decider's state after `events`, as the command store folds it. */
export function foldWithDecider(decider: EvolvingDecider, events: FoldableEvent[]): unknown {
  const evolve = decider.evolve as (state: unknown, event: FoldableEvent) => unknown;
  return events.reduce((state, event) => evolve(state, event), decider.initialState());
}

/** Each event's fields over the previous ones: the latest value of every field the stream set. */
function mergedData(events: FoldableEvent[]): Record<string, unknown> | null {
  if (events.length === 0) return null;
  return events.reduce<Record<string, unknown>>((merged, event) => ({ ...merged, ...event.data }), {});
}
