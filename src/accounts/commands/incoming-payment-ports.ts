import { Command } from '@nestjs/cqrs';
import { WireTransaction } from '../queries/transaction-wire';

/*
 * Ports to the receiving context: `POST /transactions/{id}/approve|reject` is served here, but an
 * incoming UMA payment lives on its own stream in the receiving context, which depends on
 * accounts (not the other way round). Accounts owns these commands; the receiving context handles
 * them. Each answers null when the transaction is not an incoming payment of this platform.
 */

/** Approve the incoming payment waiting for the platform (`receiverCustomerInfo` as the payer asked). */
export class ApproveIncomingPayment extends Command<WireTransaction | null> {
  constructor(
    readonly platformId: string,
    readonly transactionId: string,
    readonly receiverCustomerInfo: Record<string, unknown> | null,
  ) {
    super();
  }
}

/** Reject the incoming payment waiting for the platform, with the platform's own reason if any. */
export class RejectIncomingPayment extends Command<WireTransaction | null> {
  constructor(
    readonly platformId: string,
    readonly transactionId: string,
    readonly reason: string | null,
  ) {
    super();
  }
}
