import { Command, CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '../../infra/domain/domain-error';
import { newId } from '../../infra/ids';
import { accountNotActive } from '../domain/internal-account/internal-account.decider';
import { AccountsLedger } from '../ledger/accounts-ledger';
import { InternalAccountView, internalAccountView } from '../queries/internal-account.view';
import { InternalAccountsQuery } from '../queries/internal-accounts.query';
import { RecordSandboxFunding } from './record-sandbox-funding';

/** `POST /sandbox/internal-accounts/{id}/fund`: answers the account with its new balance. */
export class FundInternalAccount extends Command<InternalAccountView> {
  constructor(
    readonly platformId: string,
    readonly accountId: string,
    /** Minor units of the account's currency. */
    readonly amount: number,
  ) {
    super();
  }
}

/**
 * A transfer in from nowhere: credit the account, then record the incoming transaction
 * (RecordSandboxFunding, which the `transfer-process` reactor sends too after a crash in between).
 */
@CommandHandler(FundInternalAccount)
export class FundInternalAccountHandler implements ICommandHandler<FundInternalAccount, InternalAccountView> {
  constructor(
    private readonly ledger: AccountsLedger,
    private readonly internalAccounts: InternalAccountsQuery,
    private readonly commandBus: CommandBus,
  ) {}

  async execute({ platformId, accountId, amount }: FundInternalAccount): Promise<InternalAccountView> {
    const account = await this.internalAccounts.findDetails(platformId, accountId);
    if (!account) throw new DomainError('REFERENCE_NOT_FOUND', 'Internal account not found');
    // A closed account receives no new payment (what was under way still lands: docs/accounts.md).
    if (account.status !== 'ACTIVE') throw accountNotActive(accountId, account.status);
    const transactionId = newId('Transaction');
    const credited = await this.ledger.credit({ platformId, accountId, movementId: transactionId, amount, reason: 'SANDBOX_FUNDING', reference: transactionId });
    await this.commandBus.execute(
      new RecordSandboxFunding({
        platformId,
        transactionId,
        accountId,
        customerId: credited.customerId,
        currency: credited.currency,
        amount,
        completedAt: credited.updatedAt,
      }),
    );
    // The ledger does not know a wallet's privacy setting; the read model row does.
    return internalAccountView({ ...credited, privateEnabled: account.privateEnabled });
  }
}
