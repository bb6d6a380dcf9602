/**
 * Events of an internal account's ledger stream (`internalAccount-<uuid>`). Every movement is an
 * event with a deterministic id (the ledger service derives it from the movement or hold id), and
 * carries the balances after it, so read models and webhooks never recompute them.
 */
export type InternalAccountType = 'INTERNAL_FIAT' | 'INTERNAL_CRYPTO' | 'EMBEDDED_WALLET';

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

export type InternalAccountOpened = {
  type: 'InternalAccountOpened';
  data: AccountRef & { customerId: string | null; accountType: InternalAccountType; openedAt: string };
};

export type FundsCredited = {
  type: 'FundsCredited';
  data: AccountRef & LedgerBalances & { movementId: string; amount: number; reason: string; reference: string | null; creditedAt: string };
};

export type FundsHeld = {
  type: 'FundsHeld';
  data: AccountRef & LedgerBalances & { holdId: string; amount: number; reference: string | null; heldAt: string };
};

/** The held money left the account (a payout settled). */
export type HoldSettled = {
  type: 'HoldSettled';
  data: AccountRef & LedgerBalances & { holdId: string; amount: number; settledAt: string };
};

/** The held money went back to available (a refund). */
export type HoldReleased = {
  type: 'HoldReleased';
  data: AccountRef & LedgerBalances & { holdId: string; amount: number; reason: string; releasedAt: string };
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

export type InternalAccountEvent = InternalAccountOpened | FundsCredited | FundsHeld | HoldSettled | HoldReleased | HoldVoided;

/** The events the internal-accounts read model applies (HoldVoided changes no balance). */
export const INTERNAL_ACCOUNT_EVENT_TYPES: InternalAccountEvent['type'][] = [
  'InternalAccountOpened',
  'FundsCredited',
  'FundsHeld',
  'HoldSettled',
  'HoldReleased',
];

/** The events that change a balance (each one is an `INTERNAL_ACCOUNT.BALANCE_UPDATED`). */
export const BALANCE_EVENT_TYPES = ['FundsCredited', 'FundsHeld', 'HoldSettled', 'HoldReleased'];
