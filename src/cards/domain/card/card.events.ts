/**
 * Card events (SPEC.md "Card state", DECISIONS.md sections 5 and 7). Every payload carries the
 * card id and the platform id (tenancy, audit), ISO date strings and integer minor units.
 * Never rename an event type: add a new one.
 */

/** The lifecycle states a card shows (`state`). SPEC.md lists ACTIVE, FROZEN, CLOSED; a new card is PROCESSING until the issuer answers. */
export const CARD_STATES = ['PROCESSING', 'ACTIVE', 'FROZEN', 'CLOSED'] as const;
export type CardLifecycleState = (typeof CARD_STATES)[number];

/** States a platform may ask for in `PATCH /cards/{id}`. */
export const REQUESTABLE_CARD_STATES = ['ACTIVE', 'FROZEN', 'CLOSED'] as const;
export type RequestableCardState = (typeof REQUESTABLE_CARD_STATES)[number];

export const CARD_FORMS = ['VIRTUAL'] as const;
export type CardForm = (typeof CARD_FORMS)[number];

/** Why a card is where it is: set when it is CLOSED. */
export type CardStateReason = 'ISSUER_REJECTED' | 'CLOSED_BY_PLATFORM';

/**
 * What the (sandbox) issuer will answer to the issuance request, fixed when the card is requested
 * so that a replayed task answers the same way.
 */
export type CardIssuerScenario = 'ISSUE' | 'REJECT' | 'NO_ANSWER';

type CardRef = {
  cardId: string;
  platformId: string;
};

export interface CardIssuanceRequested {
  type: 'CardIssuanceRequested';
  data: CardRef & {
    cardholderId: string;
    platformCardId: string;
    form: CardForm;
    currency: string;
    fundingSources: string[];
    maxSpendPerTransaction: number | null;
    issuerScenario: CardIssuerScenario;
    requestedAt: string;
  };
}

export interface CardIssued {
  type: 'CardIssued';
  data: CardRef & { last4: string; expMonth: number; expYear: number; issuedAt: string };
}

export interface CardIssuanceRejected {
  type: 'CardIssuanceRejected';
  data: CardRef & { reason: 'ISSUER_REJECTED'; rejectedAt: string };
}

export interface CardFrozen {
  type: 'CardFrozen';
  data: CardRef & { frozenAt: string };
}

export interface CardUnfrozen {
  type: 'CardUnfrozen';
  data: CardRef & { unfrozenAt: string };
}

export interface CardClosed {
  type: 'CardClosed';
  data: CardRef & { previousState: 'ACTIVE' | 'FROZEN'; reason: 'CLOSED_BY_PLATFORM'; closedAt: string };
}

export interface CardFundingSourcesChanged {
  type: 'CardFundingSourcesChanged';
  data: CardRef & { previousFundingSources: string[]; fundingSources: string[]; changedAt: string };
}

export interface CardSpendLimitChanged {
  type: 'CardSpendLimitChanged';
  data: CardRef & { previousMaxSpendPerTransaction: number | null; maxSpendPerTransaction: number | null; changedAt: string };
}

/**
 * A reveal of the card's full details (`POST /cards/{id}/reveal`): an audit record only, with the
 * requesting actor in its metadata. It carries when the reveal URL stops loading, never the URL or
 * its token (a bearer secret), and changes nothing of the card: no state, no `updatedAt`, no webhook.
 */
export interface CardRevealed {
  type: 'CardRevealed';
  data: CardRef & { expiresAt: string; revealedAt: string };
}

export type CardEvent =
  | CardIssuanceRequested
  | CardIssued
  | CardIssuanceRejected
  | CardFrozen
  | CardUnfrozen
  | CardClosed
  | CardFundingSourcesChanged
  | CardSpendLimitChanged
  | CardRevealed;

export const CARD_EVENT_TYPES: CardEvent['type'][] = [
  'CardIssuanceRequested',
  'CardIssued',
  'CardIssuanceRejected',
  'CardFrozen',
  'CardUnfrozen',
  'CardClosed',
  'CardFundingSourcesChanged',
  'CardSpendLimitChanged',
  'CardRevealed',
];

/** Events that move a card from one lifecycle state to another (`CARD.STATE_CHANGE`). */
export const CARD_STATE_CHANGE_EVENT_TYPES: CardEvent['type'][] = ['CardIssued', 'CardIssuanceRejected', 'CardFrozen', 'CardUnfrozen', 'CardClosed'];
