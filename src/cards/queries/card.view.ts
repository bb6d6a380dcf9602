import { RecordedEvent } from '../../infra/event-store/event-store.port';
import { jsonNull } from '../../infra/http/wire-json';
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

/**
 * What a card's view is made of. The write side's state and the read model's own record
 * (projections/cards/card-record.ts) both carry it, so commands and GETs answer the same view.
 */
export type CardViewSource = { status: CardLifecycleState } & Omit<CardRecord, 'platformId' | 'issuerScenario'>;

export function cardView(state: CardViewSource): CardView {
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

/**
 * The card as the wire carries it (HTTP answers and `CARD.STATE_CHANGE`): the contract declares
 * `maxSpendPerTransaction` required and nullable, so "no limit" is a written `null` (every other
 * null field is left out by the wire writer). Views keep a plain null: the read model stores them.
 * @example
 * {
 *   "id": "Card:019a4a19-1874-7c6d-8e2a-4b9f0a3d1c58",
 *   "cardholderId": "Customer:019a2a17-5758-7d2e-8b1f-6c3e9a0d4f21",
 *   "platformCardId": "card-48213-1",
 *   "form": "VIRTUAL",
 *   "state": "ACTIVE",
 *   "currency": "USD",
 *   "fundingSources": ["InternalAccount:019a2a17-5758-7f90-b3a2-0c6d8e1f4b57"],
 *   "maxSpendPerTransaction": 50000,
 *   "last4": "4242",
 *   "expMonth": 11,
 *   "expYear": 2028,
 *   "createdAt": "2025-11-03T14:22:30.004Z",
 *   "updatedAt": "2025-11-03T14:22:31.250Z"
 * }
 */
export interface CardWire extends Omit<CardView, 'maxSpendPerTransaction'> {
  /** @keepNull (scripts/openapi-generate.ts: the own document says required and nullable) */
  maxSpendPerTransaction: number | null;
}

/** Typed as the view (`number | null`, what the wire shows); the null is `jsonNull`, which the wire keeps. */
export function cardWire(view: CardView): CardWire {
  return { ...view, maxSpendPerTransaction: view.maxSpendPerTransaction ?? (jsonNull as unknown as null) };
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
