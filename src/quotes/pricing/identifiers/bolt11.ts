import { createHash } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1';
import { bech32Decode, bech32Encode, convertBits, fromWords, toWords } from '../../../shared/bech32';

/**
 * BOLT 11 Lightning invoices, signed for real by a sandbox node key so that client libraries
 * decode them (payee recovered from the signature, amount, payment hash, expiry).
 */
export type LightningNetwork = 'bitcoin' | 'testnet' | 'signet' | 'regtest';

const NETWORK_PREFIX: Readonly<Record<LightningNetwork, string>> = { bitcoin: 'bc', testnet: 'tb', signet: 'tbs', regtest: 'bcrt' };

const TAG = { paymentHash: 1, features: 5, expiry: 6, description: 13, paymentSecret: 16, minFinalCltvExpiry: 24 } as const;

/** var_onion_optin (bit 8) and payment_secret (bit 14), both compulsory. */
const FEATURE_WORDS = [16, 8, 0];
const MIN_FINAL_CLTV_EXPIRY = 18;

export interface InvoiceRequest {
  network: LightningNetwork;
  /** Amount in sats; an amountless invoice when null. */
  amountSats: bigint | null;
  paymentHash: Uint8Array;
  paymentSecret: Uint8Array;
  description: string;
  timestampSeconds: number;
  expirySeconds: number;
  nodePrivateKey: Uint8Array;
}

export interface ParsedInvoice {
  network: LightningNetwork;
  amountMsat: bigint | null;
  timestampSeconds: number;
  paymentHashHex: string | null;
  description: string | null;
  expirySeconds: number;
  /** Compressed hex public key of the payee, recovered from the signature. */
  payeeNodeKeyHex: string;
}

function uintToWords(value: number, minimumWords = 1): number[] {
  const words: number[] = [];
  let remaining = value;
  while (remaining > 0) {
    words.unshift(remaining % 32);
    remaining = Math.floor(remaining / 32);
  }
  while (words.length < minimumWords) words.unshift(0);
  return words;
}

function wordsToUint(words: number[]): number {
  return words.reduce((total, word) => total * 32 + word, 0);
}

function tagged(type: number, words: number[]): number[] {
  return [type, words.length >> 5, words.length & 31, ...words];
}

function amountText(amountSats: bigint): string {
  const msat = amountSats * 1000n;
  if (msat % 100_000_000n === 0n) return `${msat / 100_000_000n}m`;
  if (msat % 100_000n === 0n) return `${msat / 100_000n}u`;
  return `${msat / 100n}n`;
}

function signingHash(prefix: string, dataWords: number[]): Uint8Array {
  const dataBytes = convertBits(dataWords, 5, 8, true)!;
  return createHash('sha256').update(Buffer.from(prefix, 'utf8')).update(Uint8Array.from(dataBytes)).digest();
}

export function encodeInvoice(request: InvoiceRequest): string {
  if (request.paymentHash.length !== 32 || request.paymentSecret.length !== 32) throw new Error('Payment hash and secret are 32 bytes');
  const prefix = `ln${NETWORK_PREFIX[request.network]}${request.amountSats === null ? '' : amountText(request.amountSats)}`;
  const dataWords = [
    ...uintToWords(request.timestampSeconds, 7),
    ...tagged(TAG.paymentHash, toWords(request.paymentHash)),
    ...tagged(TAG.paymentSecret, toWords(request.paymentSecret)),
    ...tagged(TAG.description, toWords(Buffer.from(request.description, 'utf8'))),
    ...tagged(TAG.expiry, uintToWords(request.expirySeconds)),
    ...tagged(TAG.minFinalCltvExpiry, uintToWords(MIN_FINAL_CLTV_EXPIRY)),
    ...tagged(TAG.features, FEATURE_WORDS),
  ];
  const signature = secp256k1.sign(signingHash(prefix, dataWords), request.nodePrivateKey);
  const signatureBytes = Uint8Array.from([...signature.toCompactRawBytes(), signature.recovery]);
  return bech32Encode(prefix, [...dataWords, ...toWords(signatureBytes)], 'bech32');
}

const PREFIX_PATTERN = /^ln(bcrt|bc|tbs|tb)(\d+[munp]?)?$/;
const MULTIPLIER_MSAT_PER_UNIT: Readonly<Record<string, bigint>> = { m: 100_000_000n, u: 100_000n, n: 100n };

/** Decodes a BOLT 11 invoice and recovers its payee; null when malformed or badly signed. */
export function parseInvoice(text: string): ParsedInvoice | null {
  const decoded = bech32Decode(text, 'bech32');
  if (!decoded || decoded.words.length < 7 + 104) return null;
  const match = PREFIX_PATTERN.exec(decoded.prefix);
  if (!match) return null;
  const network = (Object.entries(NETWORK_PREFIX).find(([, code]) => code === match[1])?.[0] ?? null) as LightningNetwork | null;
  if (!network) return null;
  let amountMsat: bigint | null = null;
  if (match[2]) {
    const unit = match[2].slice(-1);
    if (unit === 'p') {
      const pico = BigInt(match[2].slice(0, -1));
      if (pico % 10n !== 0n) return null;
      amountMsat = pico / 10n;
    } else if (MULTIPLIER_MSAT_PER_UNIT[unit]) {
      amountMsat = BigInt(match[2].slice(0, -1)) * MULTIPLIER_MSAT_PER_UNIT[unit];
    } else {
      amountMsat = BigInt(match[2]) * 100_000_000_000n;
    }
  }
  const dataWords = decoded.words.slice(0, -104);
  const signatureBytes = fromWords(decoded.words.slice(-104));
  if (!signatureBytes || signatureBytes.length !== 65) return null;
  let payeeNodeKeyHex: string;
  try {
    const signature = secp256k1.Signature.fromCompact(signatureBytes.subarray(0, 64)).addRecoveryBit(signatureBytes[64]);
    payeeNodeKeyHex = signature.recoverPublicKey(signingHash(decoded.prefix, dataWords)).toHex(true);
  } catch {
    return null;
  }
  const parsed: ParsedInvoice = {
    network, amountMsat, timestampSeconds: wordsToUint(dataWords.slice(0, 7)), paymentHashHex: null, description: null, expirySeconds: 3600, payeeNodeKeyHex,
  };
  let index = 7;
  while (index + 3 <= dataWords.length) {
    const type = dataWords[index];
    const length = dataWords[index + 1] * 32 + dataWords[index + 2];
    const field = dataWords.slice(index + 3, index + 3 + length);
    if (field.length !== length) return null;
    if (type === TAG.paymentHash && length === 52) parsed.paymentHashHex = Buffer.from(convertBits(field, 5, 8, false) ?? []).toString('hex');
    if (type === TAG.description) parsed.description = Buffer.from(convertBits(field, 5, 8, false) ?? []).toString('utf8');
    if (type === TAG.expiry) parsed.expirySeconds = wordsToUint(field);
    index += 3 + length;
  }
  return parsed;
}
