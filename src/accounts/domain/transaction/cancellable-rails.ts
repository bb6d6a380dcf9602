/**
 * The bank rails whose transfers can still be cancelled before they settle: batch and deferred
 * rails (ACH, wires, SEPA credit transfers, ...), where the settling bank keeps a cancellation
 * window. Instant rails (RTP, FedNow, SEPA Instant, Faster Payments, PIX, SPEI, UPI, ...) are
 * final once sent, and UMA, Lightning, crypto and book transfers are no bank transfers at all.
 * Both the transfers' and the quotes' deciders read it (quotes through the command).
 */
const CANCELLABLE_RAILS: ReadonlySet<string> = new Set([
  'ACH', 'ACH_COLOMBIA', 'BANK_TRANSFER', 'CIPS', 'NEFT', 'PESONET', 'RTGS', 'SEPA', 'SWIFT', 'WIRE',
]);

export function isCancellableRail(rail: string | null | undefined): boolean {
  return typeof rail === 'string' && CANCELLABLE_RAILS.has(rail);
}
