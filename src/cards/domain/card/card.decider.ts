import { Decider } from '../../../infra/domain/decider';
import { DomainError } from '../../../infra/domain/domain-error';
import { cardDetailsUnavailable, cardNotFound } from '../cards.errors';
import {
  CardEvent,
  CardForm,
  CardIssuerScenario,
  CardLifecycleState,
  CardStateReason,
  RequestableCardState,
} from './card.events';

/** Everything a card knows, folded from its stream. */
export interface CardRecord {
  cardId: string;
  platformId: string;
  cardholderId: string;
  platformCardId: string;
  form: CardForm;
  currency: string;
  fundingSources: string[];
  maxSpendPerTransaction: number | null;
  issuerScenario: CardIssuerScenario;
  stateReason: CardStateReason | null;
  last4: string | null;
  expMonth: number | null;
  expYear: number | null;
  createdAt: string;
  updatedAt: string;
}

export type CardState = { status: 'none' } | ({ status: CardLifecycleState } & CardRecord);
export type ExistingCard = Exclude<CardState, { status: 'none' }>;

/** A PATCH: absent fields stay; `maxSpendPerTransaction: null` removes the limit. */
export interface CardChanges {
  state?: RequestableCardState;
  fundingSources?: string[];
  maxSpendPerTransaction?: number | null;
}

export type IssuerDecision =
  | { outcome: 'ISSUED'; last4: string; expMonth: number; expYear: number }
  | { outcome: 'REJECTED' };

export type CardCommand =
  | {
      type: 'RequestCardIssuance';
      cardId: string;
      platformId: string;
      cardholderId: string;
      platformCardId: string;
      form: CardForm;
      currency: string;
      fundingSources: string[];
      maxSpendPerTransaction: number | null;
      issuerScenario: CardIssuerScenario;
      now: string;
    }
  | { type: 'RecordIssuerDecision'; decision: IssuerDecision; now: string }
  | { type: 'UpdateCard'; platformId: string; changes: CardChanges; now: string }
  | { type: 'RevealCard'; platformId: string; expiresAt: string; now: string };

/** Whether a card's full details exist and may be shown: issued and not closed. */
export function isRevealable(status: CardState['status']): boolean {
  return status === 'ACTIVE' || status === 'FROZEN';
}

/**
 * The state table of SPEC.md "Card state": ACTIVE <-> FROZEN, ACTIVE | FROZEN -> CLOSED. Every
 * other move (asking for the state the card is already in, anything out of PROCESSING, anything
 * into PROCESSING) is "a transition not listed".
 */
const ALLOWED_TRANSITIONS: Record<CardLifecycleState, RequestableCardState[]> = {
  PROCESSING: [],
  ACTIVE: ['FROZEN', 'CLOSED'],
  FROZEN: ['ACTIVE', 'CLOSED'],
  CLOSED: [],
};

export function isAllowedTransition(from: CardLifecycleState, to: RequestableCardState): boolean {
  return ALLOWED_TRANSITIONS[from].includes(to);
}

/**
 * Refuses any PATCH of a closed card (SPEC.md: `CARD_ALREADY_CLOSED` when it asks for CLOSED,
 * `CARD_NOT_MUTABLE` for any other mutation). Exported so the service can answer it before
 * checking the new funding sources (which would otherwise report a less relevant error first).
 */
export function assertMutable(state: ExistingCard, changes: CardChanges): void {
  if (state.status !== 'CLOSED') return;
  if (changes.state === 'CLOSED') throw new DomainError('CARD_ALREADY_CLOSED', 'The card is already closed', { cardId: state.cardId });
  throw new DomainError('CARD_NOT_MUTABLE', 'A closed card cannot be changed', { cardId: state.cardId, state: 'CLOSED' });
}

export const cardDecider: Decider<CardCommand, CardState, CardEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'RequestCardIssuance': {
        if (state.status !== 'none') return [];
        const { type: _type, now, ...data } = command;
        return [{ type: 'CardIssuanceRequested', data: { ...data, requestedAt: now } }];
      }
      case 'RecordIssuerDecision': {
        // The issuer answers once; a replayed task finds the card already decided.
        if (state.status !== 'PROCESSING') return [];
        const ref = { cardId: state.cardId, platformId: state.platformId };
        const decision = command.decision;
        if (decision.outcome === 'REJECTED') {
          return [{ type: 'CardIssuanceRejected', data: { ...ref, reason: 'ISSUER_REJECTED', rejectedAt: command.now } }];
        }
        return [
          {
            type: 'CardIssued',
            data: { ...ref, last4: decision.last4, expMonth: decision.expMonth, expYear: decision.expYear, issuedAt: command.now },
          },
        ];
      }
      case 'UpdateCard':
        return decideUpdate(state, command.platformId, command.changes, command.now);
      case 'RevealCard':
        return decideReveal(state, command.platformId, command.expiresAt, command.now);
    }
  },

  evolve(state, event) {
    if (event.type === 'CardIssuanceRequested') {
      const data = event.data;
      return {
        status: 'PROCESSING',
        cardId: data.cardId,
        platformId: data.platformId,
        cardholderId: data.cardholderId,
        platformCardId: data.platformCardId,
        form: data.form,
        currency: data.currency,
        fundingSources: data.fundingSources,
        maxSpendPerTransaction: data.maxSpendPerTransaction,
        issuerScenario: data.issuerScenario,
        stateReason: null,
        last4: null,
        expMonth: null,
        expYear: null,
        createdAt: data.requestedAt,
        updatedAt: data.requestedAt,
      };
    }
    if (state.status === 'none') return state;
    switch (event.type) {
      case 'CardIssued':
        return {
          ...state,
          status: 'ACTIVE',
          last4: event.data.last4,
          expMonth: event.data.expMonth,
          expYear: event.data.expYear,
          updatedAt: event.data.issuedAt,
        };
      case 'CardIssuanceRejected':
        return { ...state, status: 'CLOSED', stateReason: event.data.reason, updatedAt: event.data.rejectedAt };
      case 'CardFrozen':
        return { ...state, status: 'FROZEN', updatedAt: event.data.frozenAt };
      case 'CardUnfrozen':
        return { ...state, status: 'ACTIVE', updatedAt: event.data.unfrozenAt };
      case 'CardClosed':
        return { ...state, status: 'CLOSED', stateReason: event.data.reason, updatedAt: event.data.closedAt };
      case 'CardFundingSourcesChanged':
        return { ...state, fundingSources: event.data.fundingSources, updatedAt: event.data.changedAt };
      case 'CardSpendLimitChanged':
        return { ...state, maxSpendPerTransaction: event.data.maxSpendPerTransaction, updatedAt: event.data.changedAt };
      case 'CardRevealed':
        return state;
    }
  },
};

/**
 * A PATCH decided on the card as it is now. Field changes come before the state change, so a
 * card's last event is its closing and nothing ever follows `CardClosed`. Fields equal to what the
 * card already has record nothing; a state equal to the current one is a transition not listed.
 */
function decideUpdate(state: CardState, platformId: string, changes: CardChanges, now: string): CardEvent[] {
  if (state.status === 'none' || state.platformId !== platformId) throw cardNotFound();
  assertMutable(state, changes);
  const ref = { cardId: state.cardId, platformId: state.platformId };
  if (changes.state !== undefined && !isAllowedTransition(state.status, changes.state)) {
    throw new DomainError('INVALID_STATE_TRANSITION', `A card cannot go from ${state.status} to ${changes.state}`, {
      cardId: state.cardId,
      from: state.status,
      to: changes.state,
    });
  }
  const events: CardEvent[] = [];
  if (changes.fundingSources !== undefined && !sameList(changes.fundingSources, state.fundingSources)) {
    events.push({
      type: 'CardFundingSourcesChanged',
      data: { ...ref, previousFundingSources: state.fundingSources, fundingSources: changes.fundingSources, changedAt: now },
    });
  }
  if (changes.maxSpendPerTransaction !== undefined && changes.maxSpendPerTransaction !== state.maxSpendPerTransaction) {
    events.push({
      type: 'CardSpendLimitChanged',
      data: {
        ...ref,
        previousMaxSpendPerTransaction: state.maxSpendPerTransaction,
        maxSpendPerTransaction: changes.maxSpendPerTransaction,
        changedAt: now,
      },
    });
  }
  if (changes.state !== undefined) events.push(stateChange(state, changes.state, now));
  return events;
}

/**
 * Every reveal is recorded (each one mints a new URL). A card without details to show (PROCESSING:
 * no number yet; CLOSED, rejected by the issuer or closed by the platform) answers 404: the
 * reference declares no 409 on this operation, and for such a card there is nothing to reveal.
 */
function decideReveal(state: CardState, platformId: string, expiresAt: string, now: string): CardEvent[] {
  if (state.status === 'none' || state.platformId !== platformId) throw cardNotFound();
  if (!isRevealable(state.status)) throw cardDetailsUnavailable(state.cardId, state.status);
  return [{ type: 'CardRevealed', data: { cardId: state.cardId, platformId: state.platformId, expiresAt, revealedAt: now } }];
}

function stateChange(state: ExistingCard, to: RequestableCardState, now: string): CardEvent {
  const ref = { cardId: state.cardId, platformId: state.platformId };
  switch (to) {
    case 'FROZEN':
      return { type: 'CardFrozen', data: { ...ref, frozenAt: now } };
    case 'ACTIVE':
      return { type: 'CardUnfrozen', data: { ...ref, unfrozenAt: now } };
    case 'CLOSED':
      return {
        type: 'CardClosed',
        data: { ...ref, previousState: state.status as 'ACTIVE' | 'FROZEN', reason: 'CLOSED_BY_PLATFORM', closedAt: now },
      };
  }
}

function sameList(left: string[], right: string[]): boolean {
  return left.length === right.length && left.every((value, index) => value === right[index]);
}
