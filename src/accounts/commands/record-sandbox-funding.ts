import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CustomersQuery } from '../../customers';
import { CommandStore } from '../../infra/commands/command-store';
import { streamNameFor } from '../../infra/ids';
import { AccountsLedger } from '../ledger/accounts-ledger';
import { TRANSFER_STREAM } from '../streams';

export interface SandboxFunding {
  platformId: string;
  /** The credit's movement id, which is the transaction's id. */
  transactionId: string;
  accountId: string;
  /** The account's owner (null: the platform's own account); absent: read from the account's ledger stream. */
  customerId?: string | null;
  currency: string;
  amount: number;
  completedAt: string;
}

/**
 * The incoming transaction of a sandbox funding credit: sent by FundInternalAccount in the
 * request, and by the `transfer-process` reactor for a credit whose request died before it.
 */
export class RecordSandboxFunding extends Command<void> {
  constructor(readonly funding: SandboxFunding) {
    super();
  }
}

/**
 * Recorded once (the decider ignores a second record). When the reactor raced the request and
 * recorded it first, the store's read of that event makes the request's answer wait for it.
 */
@CommandHandler(RecordSandboxFunding)
export class RecordSandboxFundingHandler implements ICommandHandler<RecordSandboxFunding, void> {
  constructor(
    private readonly commands: CommandStore,
    private readonly ledger: AccountsLedger,
    private readonly customers: CustomersQuery,
  ) {}

  async execute({ funding }: RecordSandboxFunding): Promise<void> {
    const customerId = funding.customerId !== undefined ? funding.customerId : (await this.ledger.snapshot({ platformId: funding.platformId, accountId: funding.accountId })).customerId;
    const customer = customerId ? await this.customers.findById(funding.platformId, customerId) : null;
    await this.commands.handle(TRANSFER_STREAM, streamNameFor(funding.transactionId), {
      type: 'RecordSandboxFunding',
      transactionId: funding.transactionId,
      platformId: funding.platformId,
      customerId,
      platformCustomerId: customer?.platformCustomerId ?? null,
      accountId: funding.accountId,
      currency: funding.currency,
      amount: funding.amount,
      now: funding.completedAt,
    });
  }
}
