import { createHash } from 'node:crypto';
import { CURRENCIES } from '../../shared/currencies';
import { abaRoutingNumber, clabe, iban } from './identifiers/bank-identifiers';
import { encodeInvoice } from './identifiers/bolt11';
import { depositAddress, secp256k1PublicKey, sparkAddress } from './identifiers/crypto-addresses';
import { pixCopyPaste } from './identifiers/pix';
import { FundingMethod } from './realtime-funding';

/**
 * Payment instructions for REALTIME_FUNDING quotes (SPEC.md "PaymentInstructions"). Everything is
 * derived from the quote id (and the quote's amount and times), so rebuilding them on a replay or
 * in another process gives byte-identical instructions; nothing here needs storing as a secret.
 */
export type BankFundingInfo =
  | { accountType: 'USD_ACCOUNT'; accountNumber: string; routingNumber: string; bankName: string; paymentRails: string[]; reference: string }
  | { accountType: 'EUR_ACCOUNT'; iban: string; swiftCode: string; bankName: string; paymentRails: string[]; reference: string }
  | { accountType: 'GBP_ACCOUNT'; accountNumber: string; sortCode: string; bankName: string; paymentRails: string[]; reference: string }
  | { accountType: 'MXN_ACCOUNT'; clabeNumber: string; bankName: string; paymentRails: string[]; reference: string }
  /** `qrCode`: the PIX copy-and-paste payload (key, amount and reference in one string). */
  | { accountType: 'BRL_ACCOUNT'; qrCode: string; pixKey: string; bankName: string; paymentRails: string[]; reference: string };

export type WalletFundingInfo =
  | { accountType: 'SPARK_WALLET'; assetType: string; address: string; invoice?: string }
  | { accountType: 'LIGHTNING'; invoice: string }
  | { accountType: 'SOLANA_WALLET' | 'BASE_WALLET' | 'POLYGON_WALLET'; assetType?: string; address: string };

/**
 * The assets the reference names for each network's deposit address (`assetType` enums). A
 * funding currency outside them is left unnamed rather than answered off the contract; the notes
 * still say what to send.
 */
const NAMED_ASSETS: Readonly<Record<'SOLANA_WALLET' | 'BASE_WALLET' | 'POLYGON_WALLET', readonly string[]>> = {
  SOLANA_WALLET: ['USDC', 'USDT'],
  BASE_WALLET: ['USDC'],
  POLYGON_WALLET: ['USDC'],
};

function assetTypeFor(accountType: keyof typeof NAMED_ASSETS, currency: string): { assetType?: string } {
  return NAMED_ASSETS[accountType].includes(currency) ? { assetType: currency } : {};
}

export type AccountOrWalletInfo = BankFundingInfo | WalletFundingInfo;

export interface PaymentInstructions {
  accountOrWalletInfo: AccountOrWalletInfo;
  instructionsNotes: string;
  /** True when the quote is on behalf of the platform itself (no customerId on the source). */
  isPlatformAccount: boolean;
}

export interface PaymentInstructionsRequest {
  quoteId: string;
  method: FundingMethod;
  /** The quote's totalSendingAmount, minor units of `method.currency`. */
  amount: number;
  createdAt: string;
  expiresAt: string;
  /** Whether the source names a customer (`source.customerId`). */
  onBehalfOfCustomer: boolean;
}

export const SANDBOX_BANK_NAME = 'Sandbox Settlement Bank';
/** The sandbox bank's ABA routing number (valid checksum). */
export const SANDBOX_ROUTING_NUMBER = abaRoutingNumber('09100001');
export const SANDBOX_SWIFT_CODE = 'SNDBDEFFXXX';
const SANDBOX_GERMAN_BANK_CODE = '37040044';
const SANDBOX_SORT_CODE = '040004';
const SANDBOX_CLABE_BANK_AND_PLAZA = '646180';
const SANDBOX_PIX_CITY = 'SAO PAULO';

/** The sandbox Lightning node that signs funding invoices. */
const SANDBOX_NODE_PRIVATE_KEY = createHash('sha256').update('sandbox-lightning-node').digest();

function derive(seed: Buffer, label: string): Buffer {
  return createHash('sha256').update(seed).update(label).digest();
}

function digitsFrom(bytes: Buffer, count: number): string {
  let value = BigInt(`0x${bytes.toString('hex')}`);
  let text = '';
  for (let index = 0; index < count; index += 1) {
    text += String(value % 10n);
    value /= 10n;
  }
  return text;
}

const REFERENCE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** The unique reference a bank payment must carry to be matched to its quote (`QT-` + 12 chars). */
export function fundingReference(quoteId: string): string {
  const bytes = derive(quoteSeed(quoteId), 'reference');
  let value = BigInt(`0x${bytes.toString('hex')}`);
  let text = '';
  for (let index = 0; index < 12; index += 1) {
    text += REFERENCE_ALPHABET[Number(value % 32n)];
    value /= 32n;
  }
  return `QT-${text}`;
}

function quoteSeed(quoteId: string): Buffer {
  return createHash('sha256').update(`payment-instructions:${quoteId}`).digest();
}

/** The major-unit text of an amount, e.g. 10050 USD -> `100.50`. */
export function formatMajor(amountMinor: number, currencyCode: string): string {
  const decimals = CURRENCIES[currencyCode].decimals;
  if (decimals === 0) return String(amountMinor);
  const text = String(amountMinor).padStart(decimals + 1, '0');
  return `${text.slice(0, -decimals)}.${text.slice(-decimals)}`;
}

export function buildPaymentInstructions(request: PaymentInstructionsRequest): PaymentInstructions[] {
  const info = accountOrWalletInfo(request);
  return [{ accountOrWalletInfo: info, instructionsNotes: notesFor(request, info), isPlatformAccount: !request.onBehalfOfCustomer }];
}

function accountOrWalletInfo(request: PaymentInstructionsRequest): AccountOrWalletInfo {
  const seed = quoteSeed(request.quoteId);
  const reference = fundingReference(request.quoteId);
  const rails = [...request.method.rails];
  const currency = request.method.currency;
  switch (request.method.instructionType) {
    case 'USD_ACCOUNT':
      return {
        accountType: 'USD_ACCOUNT', accountNumber: `8${digitsFrom(derive(seed, 'account'), 11)}`, routingNumber: SANDBOX_ROUTING_NUMBER,
        bankName: SANDBOX_BANK_NAME, paymentRails: rails, reference,
      };
    case 'EUR_ACCOUNT':
      return {
        accountType: 'EUR_ACCOUNT', iban: iban('DE', `${SANDBOX_GERMAN_BANK_CODE}${digitsFrom(derive(seed, 'account'), 10)}`),
        swiftCode: SANDBOX_SWIFT_CODE, bankName: SANDBOX_BANK_NAME, paymentRails: rails, reference,
      };
    case 'GBP_ACCOUNT':
      return {
        accountType: 'GBP_ACCOUNT', accountNumber: digitsFrom(derive(seed, 'account'), 8), sortCode: SANDBOX_SORT_CODE,
        bankName: SANDBOX_BANK_NAME, paymentRails: rails, reference,
      };
    case 'MXN_ACCOUNT':
      return {
        accountType: 'MXN_ACCOUNT', clabeNumber: clabe(`${SANDBOX_CLABE_BANK_AND_PLAZA}${digitsFrom(derive(seed, 'account'), 11)}`),
        bankName: SANDBOX_BANK_NAME, paymentRails: rails, reference,
      };
    case 'BRL_ACCOUNT': {
      const pixKey = uuidText(derive(seed, 'pix-key'));
      const qrCode = pixCopyPaste({
        pixKey, amount: formatMajor(request.amount, currency), merchantName: SANDBOX_BANK_NAME, merchantCity: SANDBOX_PIX_CITY, txid: reference,
      });
      return { accountType: 'BRL_ACCOUNT', qrCode, pixKey, bankName: SANDBOX_BANK_NAME, paymentRails: rails, reference };
    }
    case 'LIGHTNING':
      return { accountType: 'LIGHTNING', invoice: invoiceFor(request, seed) };
    case 'SPARK_WALLET': {
      const address = sparkAddress(secp256k1PublicKey(derive(seed, 'spark')));
      return currency === 'BTC'
        ? { accountType: 'SPARK_WALLET', assetType: 'BTC', address, invoice: invoiceFor(request, seed) }
        : { accountType: 'SPARK_WALLET', assetType: currency, address };
    }
    case 'SOLANA_WALLET':
      return { accountType: 'SOLANA_WALLET', ...assetTypeFor('SOLANA_WALLET', currency), address: depositAddress('SOLANA', derive(seed, 'wallet')) };
    case 'BASE_WALLET':
      return { accountType: 'BASE_WALLET', ...assetTypeFor('BASE_WALLET', currency), address: depositAddress('BASE', derive(seed, 'wallet')) };
    case 'POLYGON_WALLET':
      return { accountType: 'POLYGON_WALLET', ...assetTypeFor('POLYGON_WALLET', currency), address: depositAddress('POLYGON', derive(seed, 'wallet')) };
  }
}

function invoiceFor(request: PaymentInstructionsRequest, seed: Buffer): string {
  const createdSeconds = Math.floor(Date.parse(request.createdAt) / 1000);
  const expiresSeconds = Math.floor(Date.parse(request.expiresAt) / 1000);
  return encodeInvoice({
    network: 'regtest',
    amountSats: BigInt(request.amount),
    paymentHash: createHash('sha256').update(derive(seed, 'preimage')).digest(),
    paymentSecret: derive(seed, 'payment-secret'),
    description: `Funding for ${request.quoteId}`,
    timestampSeconds: createdSeconds,
    expirySeconds: Math.max(1, expiresSeconds - createdSeconds),
    nodePrivateKey: SANDBOX_NODE_PRIVATE_KEY,
  });
}

/** The payment preimage of a quote's funding invoice (the sandbox reveals it when funded). */
export function fundingInvoicePreimage(quoteId: string): string {
  return derive(quoteSeed(quoteId), 'preimage').toString('hex');
}

function uuidText(bytes: Buffer): string {
  const hex = Buffer.from(bytes.subarray(0, 16)).toString('hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const RAIL_NAMES: Readonly<Record<string, string>> = {
  RTP: 'RTP', FEDNOW: 'FedNow', SEPA_INSTANT: 'SEPA Instant', FASTER_PAYMENTS: 'Faster Payments', SPEI: 'SPEI', PIX: 'PIX',
};

function notesFor(request: PaymentInstructionsRequest, info: AccountOrWalletInfo): string {
  const amount = `${formatMajor(request.amount, request.method.currency)} ${request.method.currency}`;
  if ('reference' in info) {
    const rails = request.method.rails.map((rail) => RAIL_NAMES[rail] ?? rail).join(' or ');
    return `Send exactly ${amount} by ${rails} before ${request.expiresAt}, quoting reference ${info.reference}; payments without it cannot be matched to this quote.`;
  }
  if (info.accountType === 'LIGHTNING') return `Pay the Lightning invoice (${amount}) before ${request.expiresAt}.`;
  const network = request.method.cryptoNetwork ?? 'SPARK';
  const alternative = info.accountType === 'SPARK_WALLET' && info.invoice ? ', or pay the Lightning invoice' : '';
  return `Send exactly ${amount} on ${network} to ${info.address}${alternative} before ${request.expiresAt}.`;
}
