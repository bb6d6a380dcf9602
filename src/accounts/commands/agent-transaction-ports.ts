import { Command } from '@nestjs/cqrs';
import { WireTransaction } from '../queries/transaction-wire';

/*
 * Ports to the agents context: `POST /transactions/{id}/approve|reject` is served here, but a
 * transaction an agent's pending action covers (the quote an agent asked to execute) waits on the
 * agent's stream, in the agents context, which depends on accounts (not the other way round).
 * Accounts owns these commands; the agents context handles them. Each answers null when no
 * pending agent action of this platform covers the transaction.
 */

/** Approve the agent action waiting for the platform that covers this transaction (it then runs). */
export class ApproveAgentTransaction extends Command<WireTransaction | null> {
  constructor(
    readonly platformId: string,
    readonly transactionId: string,
  ) {
    super();
  }
}

/** Reject the agent action waiting for the platform that covers this transaction, with the platform's reason if any. */
export class RejectAgentTransaction extends Command<WireTransaction | null> {
  constructor(
    readonly platformId: string,
    readonly transactionId: string,
    readonly reason: string | null,
  ) {
    super();
  }
}
