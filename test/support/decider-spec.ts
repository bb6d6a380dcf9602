import { DomainError } from '../../src/infra/domain/domain-error';
import { Decider, DomainEvent, fold } from '../../src/infra/domain/decider';

/**
 * The one way to specify a decider (src/infra/domain/decider.ts): given events, when a command,
 * then the events it decides or the error it refuses with.
 *
 * ```ts
 * const spec = deciderSpec(cardDecider);
 * spec.given([requested, issued]).when(freeze).then([frozen]);
 * spec.given([requested, issued, closed]).when(freeze).thenError('CARD_ALREADY_CLOSED');
 * const state = spec.state([requested, issued]);      // the folded state, to assert on
 * const { events } = spec.given([]).when(request);     // the decided events, to build on
 * ```
 */
export interface DeciderSpec<TCommand, TState, TEvent extends DomainEvent> {
  /** The state the events fold to, from the decider's initial state. */
  state(events: readonly TEvent[]): TState;
  given(events: readonly TEvent[]): Given<TCommand, TState, TEvent>;
}

export interface Given<TCommand, TState, TEvent extends DomainEvent> {
  readonly state: TState;
  /** Decides the command on the given state; a refusal is kept for `thenError`, not thrown. */
  when(command: TCommand): Outcome<TEvent>;
}

export interface Refusal {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export interface Outcome<TEvent extends DomainEvent> {
  /** The decided events; throws the refusal when the decider refused. */
  readonly events: TEvent[];
  /** The refusal, or undefined when the decider decided. */
  readonly error: Refusal | undefined;
  /** Asserts the decider decided exactly these events (an empty list: a no-op). */
  then(expected: readonly TEvent[]): void;
  /** Asserts the decider refused with this code and, when given, details containing these. */
  thenError(code: string, details?: Record<string, unknown>): void;
}

export function deciderSpec<TCommand, TState, TEvent extends DomainEvent>(
  decider: Decider<TCommand, TState, TEvent>,
): DeciderSpec<TCommand, TState, TEvent> {
  const state = (events: readonly TEvent[]) => fold(decider.evolve, decider.initialState(), [...events]);
  return {
    state,
    given(events) {
      const given = state(events);
      return { state: given, when: (command) => outcome(() => decider.decide(command, given)) };
    },
  };
}

function outcome<TEvent extends DomainEvent>(decide: () => TEvent[]): Outcome<TEvent> {
  let events: TEvent[] | undefined;
  let thrown: unknown;
  try {
    events = decide();
  } catch (error) {
    // Only the service's refusals are outcomes; anything else is a bug in the decider or the test.
    if (!(error instanceof DomainError)) throw error;
    thrown = error;
  }
  const error = thrown instanceof DomainError ? refusalOf(thrown) : undefined;
  return {
    get events() {
      if (events === undefined) throw thrown;
      return events;
    },
    error,
    then(expected) {
      expect(error).toBeUndefined();
      expect(events).toEqual(expected);
    },
    thenError(code, details) {
      expect(events).toBeUndefined();
      expect(error?.code).toBe(code);
      if (details !== undefined) expect(error?.details).toEqual(expect.objectContaining(details));
    },
  };
}

function refusalOf(error: DomainError): Refusal {
  return error.details === undefined
    ? { code: error.code, message: error.message }
    : { code: error.code, message: error.message, details: error.details as Record<string, unknown> };
}
