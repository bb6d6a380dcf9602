/**
 * Deciders (emmett style): pure `decide(command, state) -> events` and `evolve(state, event)`.
 * No I/O, no clock, no id generation: handlers pass `now` and ids inside the command.
 */
export interface DomainEvent<TType extends string = string, TData = Record<string, unknown>> {
  type: TType;
  data: TData;
  /** Optional deterministic event id (uuid) so a retried step is a no-op. */
  id?: string;
}

export interface Decider<TCommand, TState, TEvent extends DomainEvent> {
  decide(command: TCommand, state: TState): TEvent[];
  evolve(state: TState, event: TEvent): TState;
  initialState(): TState;
}

export function fold<TState, TEvent>(
  evolve: (state: TState, event: TEvent) => TState,
  initial: TState,
  events: TEvent[],
): TState {
  let state = initial;
  for (const event of events) state = evolve(state, event);
  return state;
}
