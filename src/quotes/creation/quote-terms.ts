import { DomainError, ValidationError } from '../../infra/domain/domain-error';
import { PlatformConfig } from '../../platforms';
import { buildQuoteExecutionPayload } from '../../shared/wallet-payloads';
import { QuoteRequest } from './quote-request';
import { PaymentInstructionsRecord, QuoteTerms } from '../domain/quote/quote.events';
import { PlatformFee } from '../pricing/fee-schedule';
import { buildPaymentInstructions } from '../pricing/payment-instructions';
import { destinationView } from '../queries/quote.view';
import { ResolvedSource } from './quote-parties';

/* The pure steps of quote creation (CreateQuoteHandler): fee override, limits, instructions. */

/** Every result, or the failure of the earliest lookup in the given order (whichever settled first). */
export async function inOrder<T extends readonly unknown[]>(...lookups: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(lookups);
  for (const outcome of settled) if (outcome.status === 'rejected') throw outcome.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

/**
 * `platformFeeOverride` as the platform fee of this quote. Like production, only for USD sources,
 * with the fixed fee in the sending currency; a 100% variable fee leaves nothing to send.
 */
export function platformFeeOverrideFor(override: NonNullable<QuoteRequest['platformFeeOverride']>, sendingCurrency: string): PlatformFee {
  if (sendingCurrency !== 'USD') {
    throw new ValidationError([
      { field: 'platformFeeOverride', constraint: {}, message: `platformFeeOverride is supported for USD sources only, not ${sendingCurrency}` },
    ]);
  }
  if (override.fixedFeeCurrency !== sendingCurrency) {
    throw new ValidationError([
      {
        field: 'platformFeeOverride.platformFixedFee.currency',
        constraint: { enum: [sendingCurrency] },
        message: `The fixed fee must be in the sending currency ${sendingCurrency}`,
      },
    ]);
  }
  if (override.variableFeeBps >= 10_000) {
    throw new DomainError('AMOUNT_OUT_OF_RANGE', 'A platform variable fee of 100% leaves nothing to send', { platformVariableFeeBps: override.variableFeeBps });
  }
  return { fixedFee: override.fixedFee, variableFeeRate: override.variableFeeBps / 10_000 };
}

export function assertWithinLimits(platform: PlatformConfig, currencyCode: string, amount: number): void {
  const limits = platform.supportedCurrencies.find((entry) => entry.currencyCode === currencyCode);
  if (limits && (amount < limits.minAmount || amount > limits.maxAmount)) {
    throw new DomainError('AMOUNT_OUT_OF_RANGE', `totalSendingAmount must be from ${limits.minAmount} to ${limits.maxAmount} for ${currencyCode}`, {
      minAmount: limits.minAmount,
      maxAmount: limits.maxAmount,
      totalSendingAmount: amount,
    });
  }
}

/**
 * REALTIME_FUNDING: where and how the payer sends the money. EMBEDDED_WALLET source: the exact
 * `payloadToSign` the wallet's session key signs for execute (binds quote, amounts, destination).
 */
export function paymentInstructionsFor(request: QuoteRequest, terms: QuoteTerms, source: ResolvedSource): PaymentInstructionsRecord[] | null {
  if (request.source.sourceType === 'REALTIME_FUNDING') {
    return buildPaymentInstructions({
      quoteId: terms.quoteId,
      method: request.source.method,
      amount: terms.totalSendingAmount,
      createdAt: terms.createdAt,
      expiresAt: terms.expiresAt,
      onBehalfOfCustomer: terms.customerId !== null,
    }) as unknown as PaymentInstructionsRecord[];
  }
  if (source.account?.accountType !== 'EMBEDDED_WALLET') return null;
  const payloadToSign = buildQuoteExecutionPayload({
    walletAccountId: source.account.accountId,
    quoteId: terms.quoteId,
    totalSendingAmount: terms.totalSendingAmount,
    sendingCurrency: terms.sendingCurrency,
    totalReceivingAmount: terms.totalReceivingAmount,
    receivingCurrency: terms.receivingCurrency,
    // The destination as the quote shows it: what the customer is shown is what they sign.
    destination: destinationView(terms.destination) as unknown as Record<string, unknown>,
    quoteCreatedAtMs: Date.parse(terms.createdAt),
  });
  return [
    {
      accountOrWalletInfo: { accountType: 'EMBEDDED_WALLET', payloadToSign },
      instructionsNotes: `Sign payloadToSign byte for byte with a session key of the wallet and send the result as Service-Wallet-Signature on POST /quotes/${terms.quoteId}/execute before ${terms.expiresAt}.`,
      isPlatformAccount: false,
    },
  ];
}
