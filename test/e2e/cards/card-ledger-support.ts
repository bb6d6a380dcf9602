import { EventStoreService } from '../../../src/infra/event-store/event-store.service';
import { streamNameFor } from '../../../src/infra/ids';
import { PlatformClient } from '../../support/test-app';
import { balances } from './card-simulate-support';

/**
 * The ledger as the card suites check it (card-ledger-invariant, card-authorization-race): the
 * internal accounts' streams and the card transactions' streams read straight from the event
 * store (what was committed, no read model in between), and the read model's balances compared
 * with them.
 */

/** What the ledger stream of one account says happened to it (minor units of its currency). */
export interface LedgerTotals {
  credited: number;
  /** Left the account from a hold (captures and settlements). */
  captured: number;
  /** Left `available` directly (financial authorizations, over-clearings, return reversals). */
  debited: number;
  /** The remainder of every hold, replayed from the hold events. */
  held: number;
  /** Carried by the last balance event (0 before any). */
  available: number;
  heldCarried: number;
  /** Remainder of each hold by hold id. */
  holds: Map<string, number>;
  events: Array<{ type: string; data: any }>;
}

export async function ledgerTotals(store: EventStoreService, accountId: string): Promise<LedgerTotals> {
  const events = (await store.readStream(streamNameFor(accountId))).map((event) => ({ type: event.type, data: event.data as any }));
  const totals: LedgerTotals = { credited: 0, captured: 0, debited: 0, held: 0, available: 0, heldCarried: 0, holds: new Map(), events };
  for (const { type, data } of events) {
    if (type === 'FundsCredited') totals.credited += data.amount;
    if (type === 'FundsDebited') totals.debited += data.amount;
    if (type === 'HoldCaptured' || type === 'HoldSettled') totals.captured += data.amount;
    if (type === 'FundsHeld') totals.holds.set(data.holdId, data.amount);
    if (type === 'HoldAdjusted' || type === 'HoldCaptured') totals.holds.set(data.holdId, data.remaining);
    if (type === 'HoldSettled' || type === 'HoldReleased') totals.holds.set(data.holdId, 0);
    if (typeof data.available === 'number') {
      totals.available = data.available;
      totals.heldCarried = data.held;
    }
  }
  totals.held = [...totals.holds.values()].reduce((sum, remainder) => sum + remainder, 0);
  return totals;
}

/**
 * The account's conservation: every unit credited is available, held, or gone (captured or
 * debited); the hold events replay to the held balance the last event carries; GET shows the same
 * (read after this client's own POST: read-your-writes). Answers the ledger totals.
 */
export async function assertAccountBalanced(api: PlatformClient, store: EventStoreService, accountId: string): Promise<LedgerTotals> {
  const ledger = await ledgerTotals(store, accountId);
  const where = `account ${accountId}`;
  expect({ where, available: ledger.available, held: ledger.held }).toEqual({ where, available: expect.any(Number), held: ledger.heldCarried });
  expect({ where, sum: ledger.available + ledger.held + ledger.captured + ledger.debited }).toEqual({ where, sum: ledger.credited });
  expect({ where, negative: ledger.available < 0 || [...ledger.holds.values()].some((remainder) => remainder < 0) }).toEqual({ where, negative: false });
  expect({ where, ...(await balances(api, accountId)) }).toEqual({ where, available: ledger.available, held: ledger.held });
  return ledger;
}

export async function transactionEvents(store: EventStoreService, transactionId: string): Promise<Array<{ type: string; data: any }>> {
  return (await store.readStream(streamNameFor(transactionId))).map((event) => ({ type: event.type, data: event.data as any }));
}
