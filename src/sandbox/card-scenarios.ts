import { createHash } from 'node:crypto';
import { lastThree } from './suffix';

/**
 * Sandbox card issuance (DECISIONS.md section 5): the last three characters of the
 * `platformCardId` given on `POST /cards` decide what the simulated issuer answers:
 * `001` never answers (the card stays PROCESSING), `002` rejects (CLOSED, `ISSUER_REJECTED`),
 * anything else issues the card (ACTIVE). A `platformCardId` the service generated, and every
 * card outside the sandbox, is issued.
 */
export type CardIssuanceScenario = 'ISSUE' | 'REJECT' | 'NO_ANSWER';

export function cardIssuanceScenario(platformCardId: string | null | undefined, mode: 'sandbox' | 'production'): CardIssuanceScenario {
  if (mode !== 'sandbox') return 'ISSUE';
  switch (lastThree(platformCardId)) {
    case '001':
      return 'NO_ANSWER';
    case '002':
      return 'REJECT';
    default:
      return 'ISSUE';
  }
}

/**
 * The sandbox issuer's card details: `last4` derived from the card id (stable across replays)
 * and an expiry three years after issuance, in the month of issuance (UTC).
 */
export function sandboxCardDetails(cardId: string, issuedAt: string): { last4: string; expMonth: number; expYear: number } {
  const digest = createHash('sha256').update(`sandbox-card-pan:${cardId}`).digest();
  const last4 = String(digest.readUInt32BE(0) % 10_000).padStart(4, '0');
  const issued = new Date(issuedAt);
  return { last4, expMonth: issued.getUTCMonth() + 1, expYear: issued.getUTCFullYear() + 3 };
}
