import type { LedgerMovement } from '../../accounts';
import { CardTransactionState, isOpen } from '../domain/card-transaction/card-transaction.decider';
import { CardTransactionEvent } from '../domain/card-transaction/card-transaction.events';

/** `reason` of the ledger movements a card transaction makes (the account's history shows them). */
const REASONS = {
  purchase: 'CARD_PURCHASE',
  overClearing: 'CARD_CLEARING_PULL',
  credit: 'CARD_CREDIT',
  return: 'CARD_RETURN',
  returnReversal: 'CARD_RETURN_REVERSAL',
  expiry: 'CARD_AUTHORIZATION_EXPIRED',
} as const;

/**
 * The ledger movements on the transaction's account that the decided `events` stand for, each id
 * derived from the transaction id and the step's id (a retried step is applied once). A FAILED
 * pull moves nothing: the ledger refused it, and the transaction records the shortfall.
 */
export function movementsFor(before: CardTransactionState, events: CardTransactionEvent[]): LedgerMovement[] {
  const movements: LedgerMovement[] = [];
  let holdId = isOpen(before) ? before.holdId : null;
  for (const event of events) {
    const reference = event.data.transactionId;
    switch (event.type) {
      case 'CardTransactionAuthorized': {
        const { data } = event;
        holdId = data.holdId;
        if (data.holdId !== null) movements.push({ kind: 'HOLD', holdId: data.holdId, amount: data.amountUnits, reference });
        break;
      }
      case 'CardTransactionCleared': {
        const { data } = event;
        const movementId = `${reference}:clearing:${data.clearingId}`;
        if (data.capturedUnits > 0 && holdId !== null) movements.push({ kind: 'CAPTURE', holdId, captureId: movementId, amount: data.capturedUnits });
        // A single-message authorization has no hold: its clearing is the debit itself, its funding pull.
        if (data.capturedUnits > 0 && holdId === null) movements.push({ kind: 'DEBIT', movementId: fundingPullId(reference), amount: data.capturedUnits, reason: REASONS.purchase, reference });
        if (data.creditedUnits > 0) movements.push({ kind: 'CREDIT', movementId, amount: data.creditedUnits, reason: REASONS.credit, reference });
        const pull = data.postHocPull;
        if (pull && pull.status === 'CONFIRMED') movements.push({ kind: 'DEBIT', movementId: pull.pullId, amount: pull.amountUnits, reason: REASONS.overClearing, reference });
        break;
      }
      case 'CardAuthorizationExpired':
        if (event.data.releasedUnits > 0 && holdId !== null) movements.push({ kind: 'RELEASE', holdId, reason: REASONS.expiry });
        break;
      case 'CardAuthorizationResized':
        if (holdId !== null) movements.push({ kind: 'ADJUST', holdId, adjustmentId: `${reference}:advice:${event.data.adviceId}`, amount: event.data.heldUnits });
        break;
      case 'CardTransactionReturned':
        movements.push({ kind: 'CREDIT', movementId: `${reference}:return:${event.data.returnId}`, amount: event.data.creditedUnits, reason: REASONS.return, reference });
        break;
      case 'CardReturnReversed': {
        const pull = event.data.pull;
        if (pull.status === 'CONFIRMED') movements.push({ kind: 'DEBIT', movementId: pull.pullId, amount: pull.amountUnits, reason: REASONS.returnReversal, reference });
        break;
      }
      default:
        break;
    }
  }
  return movements;
}

/** The id of the pull an approved DEBIT authorization starts (and of its ledger debit when single-message). */
export function fundingPullId(transactionId: string): string {
  return `${transactionId}:pull`;
}

/** The account a decided step moves money on (null: the step moves none). */
export function accountOf(before: CardTransactionState, events: CardTransactionEvent[]): string | null {
  const authorized = events.find((event) => event.type === 'CardTransactionAuthorized');
  if (authorized) return (authorized.data as { accountId: string }).accountId;
  return isOpen(before) ? before.accountId : null;
}
