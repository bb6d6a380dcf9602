import { lastThree } from './suffix';

/**
 * Sandbox card authorizations (docs/sandbox.md "Card transactions"): the last three characters
 * of `merchant.descriptor` decide what the simulated network and funding pull do. `002` declines
 * for want of funds and `003` as a paused card (both before any money moves); `005` confirms the
 * funding pull late (SANDBOX_CARD_DELAYED_PULL_MS) and `006` reports it FAILED; anything else is
 * approved and confirmed after SANDBOX_SETTLEMENT_DELAY_MS.
 */
export type CardAuthorizationDeclineScenario = 'INSUFFICIENT_FUNDS' | 'CARD_PAUSED';
export type CardPullScenarioName = 'CONFIRM' | 'CONFIRM_LATE' | 'FAIL';

export interface CardAuthorizationScenario {
  /** The decline the descriptor forces, or null (the card's state and funds decide). */
  decline: CardAuthorizationDeclineScenario | null;
  /** What the funding pull's confirmation will say; fixed in the authorization's event. */
  pullScenario: CardPullScenarioName;
}

export function cardAuthorizationScenario(merchantDescriptor: string): CardAuthorizationScenario {
  switch (lastThree(merchantDescriptor)) {
    case '002':
      return { decline: 'INSUFFICIENT_FUNDS', pullScenario: 'CONFIRM' };
    case '003':
      return { decline: 'CARD_PAUSED', pullScenario: 'CONFIRM' };
    case '005':
      return { decline: null, pullScenario: 'CONFIRM_LATE' };
    case '006':
      return { decline: null, pullScenario: 'FAIL' };
    default:
      return { decline: null, pullScenario: 'CONFIRM' };
  }
}
