import { streamType } from '../../infra/commands/stream-type';
import { uuidv5 } from '../../infra/ids';
import { InternalAccountCommand, OpenAccount, internalAccountDecider } from '../domain/internal-account/internal-account.decider';
import { InternalAccountEvent } from '../domain/internal-account/internal-account.events';
import { LedgerAccountSnapshot, LedgerMovement, OpenAccountInput } from './ledger-movements';

const STREAM_PREFIX = 'internalAccount-';

/**
 * Account streams in the command store: hot (every quote holds and settles on one, every card
 * authorization holds), so their state stays in memory and commands on one account queue inside
 * this process; across processes the expected revision decides, with a short jittered pause
 * before re-deciding. Event ids come from each movement's business key, so a step appended twice
 * is stored once.
 */
export const INTERNAL_ACCOUNT_STREAM = streamType({
  name: 'internal account',
  decider: internalAccountDecider,
  maxAttempts: 100,
  conflictBackoffMs: (attempt) => Math.min(50, attempt * 2) * Math.random(),
  conflictMessage: 'The account is too busy; retry the request',
  cacheSize: 10_000,
  serialize: true,
  eventId: (stream, event) => eventIdFor(`InternalAccount:${stream.slice(STREAM_PREFIX.length)}`, event),
});

export function openCommand(input: OpenAccountInput): InternalAccountCommand {
  return {
    type: 'OpenInternalAccount',
    accountId: input.accountId,
    platformId: input.platformId,
    customerId: input.customerId,
    accountType: input.accountType,
    currency: input.currency,
    now: input.openedAt,
  };
}

/** The decider's command for one movement of a batch. */
export function movementCommand(movement: LedgerMovement, now: string): InternalAccountCommand {
  switch (movement.kind) {
    case 'HOLD':
      return { type: 'HoldFunds', holdId: movement.holdId, amount: movement.amount, reference: movement.reference ?? null, now };
    case 'CAPTURE':
      return { type: 'CaptureHold', holdId: movement.holdId, captureId: movement.captureId, amount: movement.amount, now };
    case 'ADJUST':
      return { type: 'AdjustHold', holdId: movement.holdId, adjustmentId: movement.adjustmentId, amount: movement.amount, now };
    case 'RELEASE':
      return { type: 'ReleaseHold', holdId: movement.holdId, reason: movement.reason, now };
    case 'DEBIT':
      return { type: 'DebitFunds', movementId: movement.movementId, amount: movement.amount, reason: movement.reason, reference: movement.reference ?? null, now };
    case 'CREDIT':
      return { type: 'CreditFunds', movementId: movement.movementId, amount: movement.amount, reason: movement.reason, reference: movement.reference ?? null, now };
  }
}

export function snapshotOf(state: OpenAccount): LedgerAccountSnapshot {
  return {
    accountId: state.accountId,
    platformId: state.platformId,
    customerId: state.customerId,
    accountType: state.accountType,
    currency: state.currency,
    status: state.accountStatus,
    available: state.available,
    held: state.held,
    total: state.available + state.held,
    openedAt: state.openedAt,
    updatedAt: state.updatedAt,
  };
}

/** uuid v5 of the movement's business key: the same step appended twice is one event. */
function eventIdFor(accountId: string, event: InternalAccountEvent): string {
  switch (event.type) {
    case 'InternalAccountOpened':
      return uuidv5(`ledger:${accountId}:opened`);
    case 'FundsCredited':
      return uuidv5(`ledger:${accountId}:credit:${event.data.movementId}`);
    case 'FundsDebited':
      return uuidv5(`ledger:${accountId}:debit:${event.data.movementId}`);
    case 'FundsHeld':
      return uuidv5(`ledger:${accountId}:hold:${event.data.holdId}`);
    case 'HoldCaptured':
      return uuidv5(`ledger:${accountId}:capture:${event.data.holdId}:${event.data.captureId}`);
    case 'HoldAdjusted':
      return uuidv5(`ledger:${accountId}:adjust:${event.data.holdId}:${event.data.adjustmentId}`);
    case 'HoldSettled':
      return uuidv5(`ledger:${accountId}:settle:${event.data.holdId}`);
    case 'HoldReleased':
      return uuidv5(`ledger:${accountId}:release:${event.data.holdId}`);
    case 'HoldVoided':
      return uuidv5(`ledger:${accountId}:void:${event.data.holdId}`);
    case 'InternalAccountStatusChanged':
      return uuidv5(`ledger:${accountId}:status:${event.data.status}:${event.data.changedAt}`);
  }
}
