import { RecordedEvent } from '../../infra/event-store/event-store.port';
import { CardRecord, CardState, ExistingCard, cardDecider } from '../domain/card/card.decider';
import { CardEvent, CardForm, CardLifecycleState, CardStateReason } from '../domain/card/card.events';

/** A card exactly as `GET /cards/{id}` returns it (and as `CARD.STATE_CHANGE` carries it). */
export interface CardView {
  id: string;
  cardholderId: string;
  platformCardId: string;
  form: CardForm;
  state: CardLifecycleState;
  /** Why the card is CLOSED (`ISSUER_REJECTED`, `CLOSED_BY_PLATFORM`); null otherwise. */
  stateReason: CardStateReason | null;
  /** The currency the card transacts in; `maxSpendPerTransaction` is in its minor units. */
  currency: string;
  fundingSources: string[];
  maxSpendPerTransaction: number | null;
  /** Known once the issuer issued the card; null while PROCESSING or when it was rejected. */
  last4: string | null;
  expMonth: number | null;
  expYear: number | null;
  createdAt: string;
  updatedAt: string;
}

export function cardView(state: { status: CardLifecycleState } & CardRecord): CardView {
  return {
    id: state.cardId,
    cardholderId: state.cardholderId,
    platformCardId: state.platformCardId,
    form: state.form,
    state: state.status,
    stateReason: state.stateReason,
    currency: state.currency,
    fundingSources: [...state.fundingSources],
    maxSpendPerTransaction: state.maxSpendPerTransaction,
    last4: state.last4,
    expMonth: state.expMonth,
    expYear: state.expYear,
    createdAt: state.createdAt,
    updatedAt: state.updatedAt,
  };
}

/** Folds a card stream (or a prefix of it): the same fold the read model and the decider use. */
export function cardStateFromEvents(events: Array<Pick<RecordedEvent, 'type' | 'data'>>): CardState {
  let state = cardDecider.initialState();
  for (const event of events) state = cardDecider.evolve(state, event as unknown as CardEvent);
  return state;
}

/** The card as GET answered right after the last of `events`, or null before it exists. */
export function cardViewFromEvents(events: Array<Pick<RecordedEvent, 'type' | 'data'>>): CardView | null {
  const state = cardStateFromEvents(events);
  return state.status === 'none' ? null : cardView(state as ExistingCard);
}
