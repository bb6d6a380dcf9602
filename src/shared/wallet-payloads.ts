import { canonicalJson } from '../infra/crypto/canonical-json';

/**
 * The `payloadToSign` of embedded-wallet signed actions (DECISIONS.md section 4): the JSON text
 * {"organizationId","parameters","timestampMs","type"} in that key order, parameters in canonical
 * (sorted-key) order and timestampMs a decimal string, as Turnkey's activity bodies are. The client
 * signs the exact bytes, so the text is built once, stored with the pending request (or the quote),
 * and verified byte for byte; nothing ever re-serialises it.
 *
 * This lives in src/shared because both wallet-auth (credential and session actions) and quotes
 * (execute from an EMBEDDED_WALLET source) build payloads.
 */

export const WALLET_ACTIVITY_TYPES = {
  ADD_CREDENTIAL: 'ACTIVITY_TYPE_CREATE_AUTH_CREDENTIAL',
  DELETE_CREDENTIAL: 'ACTIVITY_TYPE_DELETE_AUTH_CREDENTIAL',
  REVOKE_SESSION: 'ACTIVITY_TYPE_DELETE_SESSION',
  REFRESH_SESSION: 'ACTIVITY_TYPE_REFRESH_SESSION',
  EXPORT_WALLET: 'ACTIVITY_TYPE_EXPORT_WALLET',
  UPDATE_WALLET_PRIVACY: 'ACTIVITY_TYPE_UPDATE_WALLET_PRIVACY',
  EXECUTE_QUOTE: 'ACTIVITY_TYPE_EXECUTE_QUOTE',
} as const;

export type WalletActivityType = (typeof WALLET_ACTIVITY_TYPES)[keyof typeof WALLET_ACTIVITY_TYPES];

export interface PayloadToSignInput {
  /** The wallet the action is for: its internal account id (`InternalAccount:<uuid>`). */
  organizationId: string;
  type: WalletActivityType;
  /** JSON data naming the action's target and content (ids, a hash of the request body, ...). */
  parameters: Record<string, unknown>;
  /** When the payload was issued; pass it in (no clock here) so the text is reproducible. */
  timestampMs: number;
}

export function buildPayloadToSign(input: PayloadToSignInput): string {
  if (input.organizationId === '') throw new Error('organizationId must not be empty');
  if (!Number.isSafeInteger(input.timestampMs) || input.timestampMs < 0) throw new Error('timestampMs must be a non-negative integer');
  // canonicalJson sorts keys, and these four are already in the required (alphabetical) order.
  return canonicalJson({
    organizationId: input.organizationId,
    parameters: input.parameters,
    timestampMs: String(input.timestampMs),
    type: input.type,
  });
}

export interface QuoteExecutionPayloadInput {
  /** The EMBEDDED_WALLET internal account the quote spends from (`InternalAccount:<uuid>`). */
  walletAccountId: string;
  quoteId: string;
  totalSendingAmount: number;
  sendingCurrency: string;
  totalReceivingAmount: number;
  receivingCurrency: string;
  /** The quote's destination exactly as the Quote resource shows it ({destinationType, accountId, paymentRail?} or {destinationType, umaAddress, currency?}). */
  destination: Record<string, unknown>;
  /** The quote's createdAt in ms: the payload is then a pure function of the quote. */
  quoteCreatedAtMs: number;
}

/**
 * The payloadToSign carried by an EMBEDDED_WALLET quote's paymentInstructions[].accountOrWalletInfo:
 * it binds the quote id, both amounts and currencies, and the destination, so a stamp over it
 * authorises exactly this transfer. Store the text with the quote and verify against that.
 */
export function buildQuoteExecutionPayload(input: QuoteExecutionPayloadInput): string {
  for (const [name, amount] of [['totalSendingAmount', input.totalSendingAmount], ['totalReceivingAmount', input.totalReceivingAmount]] as const) {
    if (!Number.isSafeInteger(amount) || amount <= 0) throw new Error(`${name} must be a positive integer in minor units`);
  }
  return buildPayloadToSign({
    organizationId: input.walletAccountId,
    type: WALLET_ACTIVITY_TYPES.EXECUTE_QUOTE,
    timestampMs: input.quoteCreatedAtMs,
    parameters: {
      quoteId: input.quoteId,
      sourceAccountId: input.walletAccountId,
      totalSendingAmount: input.totalSendingAmount,
      sendingCurrency: input.sendingCurrency,
      totalReceivingAmount: input.totalReceivingAmount,
      receivingCurrency: input.receivingCurrency,
      destination: input.destination,
    },
  });
}
