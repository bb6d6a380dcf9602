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

/** The held money left the account (a payout settled). */
export type HoldSettled = {
  type: 'HoldSettled';
  data: AccountRef & LedgerBalances & StatusAfter & { holdId: string; amount: number; settledAt: string };
};

/** The held money went back to available (a refund). */
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
  | HoldReleased
  | HoldVoided
  | InternalAccountStatusChanged;

/** The events the internal-accounts read model applies (HoldVoided changes nothing it shows). */
export const INTERNAL_ACCOUNT_EVENT_TYPES: InternalAccountEvent['type'][] = [
  'InternalAccountOpened',
  'FundsCredited',
  'FundsHeld',
  'HoldSettled',
  'HoldReleased',
  'InternalAccountStatusChanged',
];

/** The events that change a balance (each one is an `INTERNAL_ACCOUNT.BALANCE_UPDATED`). */
export const BALANCE_EVENT_TYPES = ['FundsCredited', 'FundsHeld', 'HoldSettled', 'HoldReleased'];
