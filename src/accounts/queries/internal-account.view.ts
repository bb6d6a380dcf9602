import { createHash } from 'node:crypto';
import { RecordedEvent } from '../../infra/event-store/event-store.port';
import { Currency, currency as currencyOf } from '../../shared/currencies';
import { InternalAccountEvent, InternalAccountStatus, InternalAccountType } from '../domain/internal-account/internal-account.events';

export interface CurrencyAmount {
  amount: number;
  currency: Currency;
}

export interface FundingPaymentInstruction {
  accountOrWalletInfo: Record<string, unknown>;
  instructionsNotes?: string;
  isPlatformAccount?: boolean;
}

/**
 * An internal account exactly as `GET /internal-accounts` lists it.
 * @example
 * {
 *   "id": "InternalAccount:019a2a17-5758-7f90-b3a2-0c6d8e1f4b57",
 *   "customerId": "Customer:019a2a17-5758-7d2e-8b1f-6c3e9a0d4f21",
 *   "type": "INTERNAL_FIAT",
 *   "status": "ACTIVE",
 *   "balance": { "amount": 250000, "currency": { "code": "USD", "name": "United States Dollar", "symbol": "$", "decimals": 2 } },
 *   "totalBalance": { "amount": 350000, "currency": { "code": "USD", "name": "United States Dollar", "symbol": "$", "decimals": 2 } },
 *   "fundingPaymentInstructions": [
 *     {
 *       "accountOrWalletInfo": { "accountType": "USD_ACCOUNT", "accountNumber": "4830019275", "routingNumber": "021000021", "bankName": "Sandbox Bank", "paymentRails": ["ACH", "WIRE", "RTP"], "reference": "FUND-7C1E09A4D2" },
 *       "instructionsNotes": "Include the reference FUND-7C1E09A4D2 so the payment is credited to this account",
 *       "isPlatformAccount": false
 *     }
 *   ],
 *   "createdAt": "2025-10-28T09:12:44.120Z",
 *   "updatedAt": "2025-11-03T14:22:30.004Z"
 * }
 */
export interface InternalAccountView {
  id: string;
  /** Absent for platform-owned accounts. */
  customerId?: string;
  type: InternalAccountType;
  /** ACTIVE from the opening; CLOSED once the customer is deleted (docs/accounts.md). */
  status: InternalAccountStatus;
  /** Available to spend (minor units). */
  balance: CurrencyAmount;
  /** Available plus held. */
  totalBalance: CurrencyAmount;
  fundingPaymentInstructions: FundingPaymentInstruction[];
  /** EMBEDDED_WALLET only: the privacy setting of `PATCH /internal-accounts/{id}` (signed). */
  privateEnabled?: boolean;
  createdAt: string;
  updatedAt: string;
}

/** What the view is built from: the read model row, the ledger snapshot, or folded events. */
/** `GET /platform/internal-accounts` (PlatformInternalAccountListResponse: unpaged). */
export interface PlatformInternalAccountList {
  data: InternalAccountView[];
}

export interface InternalAccountRecord {
  accountId: string;
  platformId: string;
  customerId: string | null;
  accountType: InternalAccountType;
  currency: string;
  status: InternalAccountStatus;
  available: number;
  held: number;
  openedAt: string;
  updatedAt: string;
  /**
   * EMBEDDED_WALLET privacy as the read model knows it; undefined when the record comes from the
   * ledger stream alone (which does not carry it), so the view then omits the field.
   */
  privateEnabled?: boolean | null;
}

export function internalAccountView(record: InternalAccountRecord): InternalAccountView {
  const currency = currencyOf(record.currency);
  const view: InternalAccountView = {
    id: record.accountId,
    type: record.accountType,
    status: record.status,
    balance: { amount: record.available, currency },
    totalBalance: { amount: record.available + record.held, currency },
    fundingPaymentInstructions: fundingInstructions(record),
    ...(record.accountType === 'EMBEDDED_WALLET' && typeof record.privateEnabled === 'boolean' ? { privateEnabled: record.privateEnabled } : {}),
    createdAt: record.openedAt,
    updatedAt: record.updatedAt,
  };
  if (!record.customerId) return view;
  const { id, ...rest } = view;
  return { id, customerId: record.customerId, ...rest };
}

/**
 * The account view as of the last of `events` (a prefix of its ledger stream): what GET answered
 * right after that event, e.g. for an `INTERNAL_ACCOUNT.BALANCE_UPDATED` webhook. The opening and
 * one movement are enough for the view right after that movement: a movement carries the
 * balances and, when it is not ACTIVE, the status after it.
 */
export function internalAccountViewFromEvents(
  events: Array<Pick<RecordedEvent, 'type' | 'data'>>,
  privateEnabled?: boolean | null,
): InternalAccountView | null {
  let record: InternalAccountRecord | null = null;
  for (const event of events as unknown as InternalAccountEvent[]) {
    if (event.type === 'InternalAccountOpened') {
      record = {
        accountId: event.data.accountId,
        platformId: event.data.platformId,
        customerId: event.data.customerId,
        accountType: event.data.accountType,
        currency: event.data.currency,
        status: 'ACTIVE',
        available: 0,
        held: 0,
        openedAt: event.data.openedAt,
        updatedAt: event.data.openedAt,
        privateEnabled,
      };
      continue;
    }
    // Tombstones (HoldVoided) move no money and do not touch the account's updatedAt.
    if (!record || event.type === 'HoldVoided') continue;
    if (event.type === 'InternalAccountStatusChanged') {
      record = { ...record, status: event.data.status, updatedAt: event.data.changedAt };
      continue;
    }
    // Only an ACTIVE account takes a hold or a debit; other movements say when the account is not ACTIVE.
    const status = event.type === 'FundsHeld' || event.type === 'FundsDebited' ? 'ACTIVE' : (event.data.accountStatus ?? 'ACTIVE');
    record = { ...record, status, available: event.data.available, held: event.data.held, updatedAt: movementTime(event) };
  }
  return record ? internalAccountView(record) : null;
}

/** When a movement happened (the events that move money). */
export function movementTime(event: Exclude<InternalAccountEvent, { type: 'InternalAccountOpened' | 'HoldVoided' | 'InternalAccountStatusChanged' }>): string {
  switch (event.type) {
    case 'FundsCredited':
      return event.data.creditedAt;
    case 'FundsHeld':
      return event.data.heldAt;
    case 'HoldSettled':
      return event.data.settledAt;
    case 'HoldCaptured':
      return event.data.capturedAt;
    case 'HoldAdjusted':
      return event.data.adjustedAt;
    case 'FundsDebited':
      return event.data.debitedAt;
    case 'HoldReleased':
      return event.data.releasedAt;
  }
}

/**
 * Sandbox funding instructions, derived from the account id so they never change: a USD bank
 * account with a unique reference for fiat USD accounts, a Solana deposit address for USDC/USDT.
 */
function fundingInstructions(record: InternalAccountRecord): FundingPaymentInstruction[] {
  const digest = createHash('sha256').update(`funding:${record.accountId}`).digest();
  if (record.accountType === 'INTERNAL_FIAT' && record.currency === 'USD') {
    const accountNumber = String(digest.readBigUInt64BE(0) % 10_000_000_000n).padStart(10, '0');
    const reference = `FUND-${digest.subarray(8, 13).toString('hex').toUpperCase()}`;
    return [
      {
        accountOrWalletInfo: {
          accountType: 'USD_ACCOUNT',
          accountNumber,
          routingNumber: '021000021',
          bankName: 'Sandbox Bank',
          paymentRails: ['ACH', 'WIRE', 'RTP'],
          reference,
        },
        instructionsNotes: `Include the reference ${reference} so the payment is credited to this account`,
        isPlatformAccount: record.customerId === null,
      },
    ];
  }
  if (record.accountType === 'INTERNAL_CRYPTO' && (record.currency === 'USDC' || record.currency === 'USDT')) {
    return [
      {
        accountOrWalletInfo: { accountType: 'SOLANA_WALLET', address: base58(digest) },
        isPlatformAccount: record.customerId === null,
      },
    ];
  }
  return [];
}

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function base58(bytes: Buffer): string {
  let value = BigInt(`0x${bytes.toString('hex')}`);
  let text = '';
  while (value > 0n) {
    text = BASE58_ALPHABET[Number(value % 58n)] + text;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    text = `1${text}`;
  }
  return text;
}
