/**
 * Events of an internal account's ledger stream (`internalAccount-<uuid>`). Every movement is an
 * event with a deterministic id (the ledger service derives it from the movement or hold id), and
 * carries the balances after it, so read models and webhooks never recompute them.
 */
export type InternalAccountType = 'INTERNAL_FIAT' | 'INTERNAL_CRYPTO' | 'EMBEDDED_WALLET';

/**
 * Status of an internal account: ACTIVE from its opening, CLOSED once its customer is deleted (it
 * then sends no payment; payments already under way settle). PENDING, FROZEN and FAILED do not
 * occur in this service.
 */
export type InternalAccountStatus = 'PENDING' | 'ACTIVE' | 'CLOSED' | 'FROZEN' | 'FAILED';

/** Why an account's status changed. */
export type InternalAccountStatusReason = 'CUSTOMER_DELETED';

export type LedgerBalances = {
  /** Spendable (minor units). */
  available: number;
  /** Reserved by holds (minor units). `totalBalance` = available + held. */
  held: number;
};

type AccountRef = {
  accountId: string;
  platformId: string;
  currency: string;
};

/**
 * The account's status after a movement, carried only when it is not ACTIVE (a movement of a
 * payment under way when the account closed), so a movement alone tells the account as it was.
 */
type StatusAfter = { accountStatus?: InternalAccountStatus };

export type InternalAccountOpened = {
  type: 'InternalAccountOpened';
  data: AccountRef & { customerId: string | null; accountType: InternalAccountType; openedAt: string };
};

export type FundsCredited = {
  type: 'FundsCredited';
  data: AccountRef & LedgerBalances & StatusAfter & { movementId: string; amount: number; reason: string; reference: string | null; creditedAt: string };
};

export type FundsHeld = {
  type: 'FundsHeld';
  data: AccountRef & LedgerBalances & { holdId: string; amount: number; reference: string | null; heldAt: string };
};

/** The held money (what the hold still held: its remainder after captures) left the account (a payout settled). */
export type HoldSettled = {
  type: 'HoldSettled';
  data: AccountRef & LedgerBalances & StatusAfter & { holdId: string; amount: number; settledAt: string };
};

/**
 * `amount` of a hold left the account (a card clearing): `remaining` stays held. A hold whose
 * remainder reaches 0 is done (settled); a later settlement of it is a no-op.
 */
export type HoldCaptured = {
  type: 'HoldCaptured';
  data: AccountRef & LedgerBalances & StatusAfter & { holdId: string; captureId: string; amount: number; remaining: number; capturedAt: string };
};

/**
 * A hold's remainder became `remaining` (a card authorization advice): an increase came from
 * available, a decrease went back to it. The hold stays open, even at 0 (a later advice may raise it).
 */
export type HoldAdjusted = {
  type: 'HoldAdjusted';
  data: AccountRef & LedgerBalances & StatusAfter & { holdId: string; adjustmentId: string; previousRemaining: number; remaining: number; adjustedAt: string };
};

/** Money left `available` directly, without a hold (a card's financial authorization or over-clearing). Only an ACTIVE account is debited. */
export type FundsDebited = {
  type: 'FundsDebited';
  data: AccountRef & LedgerBalances & { movementId: string; amount: number; reason: string; reference: string | null; debitedAt: string };
};

/** The held money (the hold's remainder) went back to available (a refund). */
export type HoldReleased = {
  type: 'HoldReleased';
  data: AccountRef & LedgerBalances & StatusAfter & { holdId: string; amount: number; reason: string; releasedAt: string };
};

/**
 * Nothing was held under this id when it was voided: a tombstone, so a hold placed later with the
 * same id (a slow process that lost a race) is refused instead of locking money nobody will
 * release. Moves no money; not a balance event.
 */
export type HoldVoided = {
  type: 'HoldVoided';
  data: AccountRef & { holdId: string; reason: string; voidedAt: string };
};

/**
 * The account's status changed (the service closed it: its customer was deleted). Moves no
 * money; the account refuses new holds unless ACTIVE, while the holds and credits of payments
 * already under way still settle (docs/accounts.md).
 */
export type InternalAccountStatusChanged = {
  type: 'InternalAccountStatusChanged';
  data: AccountRef & {
    previousStatus: InternalAccountStatus;
    status: InternalAccountStatus;
    reason: InternalAccountStatusReason;
    changedAt: string;
  };
};

export type InternalAccountEvent =
  | InternalAccountOpened
  | FundsCredited
  | FundsHeld
  | HoldSettled
  | HoldCaptured
  | HoldAdjusted
  | FundsDebited
  | HoldReleased
  | HoldVoided
  | InternalAccountStatusChanged;

/** The events the internal-accounts read model applies (HoldVoided changes nothing it shows). */
export const INTERNAL_ACCOUNT_EVENT_TYPES: InternalAccountEvent['type'][] = [
  'InternalAccountOpened',
  'FundsCredited',
  'FundsHeld',
  'HoldSettled',
  'HoldCaptured',
  'HoldAdjusted',
  'FundsDebited',
  'HoldReleased',
  'InternalAccountStatusChanged',
];

/** The events that change a balance (each one is an `INTERNAL_ACCOUNT.BALANCE_UPDATED`). */
export const BALANCE_EVENT_TYPES = ['FundsCredited', 'FundsHeld', 'HoldSettled', 'HoldCaptured', 'HoldAdjusted', 'FundsDebited', 'HoldReleased'];
