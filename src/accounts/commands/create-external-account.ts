import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CustomersQuery } from '../../customers';
import { CommandStore } from '../../infra/commands/command-store';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { FieldError, ValidationError } from '../../infra/domain/domain-error';
import { newId, streamNameFor } from '../../infra/ids';
import { beneficiaryCheck } from '../../sandbox';
import { AccountInfo, beneficiaryName } from '../domain/external-account/external-account.events';
import { AccountHolder, counterpartyDeclarationErrors } from '../domain/external-account/ownership-rules';
import { ExternalAccountView, externalAccountView } from '../queries/external-account.view';
import { EXTERNAL_ACCOUNT_STREAM } from '../streams';
import { existing } from './external-account-guards';

export interface NewExternalAccount {
  /** Null: the platform's own account. */
  customerId: string | null;
  currency: string;
  platformAccountId: string | null;
  ownershipType?: 'FIRST_PARTY' | 'THIRD_PARTY';
  defaultUmaDepositAccount?: boolean;
  accountInfo: AccountInfo;
  primaryIdentifier: string;
}

/**
 * `POST /customers/external-accounts` and `POST /platform/external-accounts` (no customer: the
 * platform's own account): answers the account as created.
 */
export class CreateExternalAccount extends Command<ExternalAccountView> {
  constructor(
    readonly platformId: string,
    readonly input: NewExternalAccount,
    /** The field holding the primary identifier, named when the institution reports it invalid. */
    readonly primaryField: string,
  ) {
    super();
  }
}

/**
 * The customer, when there is one, must exist and not be deleted, and declare what the travel rule
 * asks of a wallet in its jurisdiction; in sandbox mode the beneficiary name check runs first (an
 * invalid account is refused, a PENDING answer is resolved later by ResolveBeneficiaryCheck,
 * scheduled by the `beneficiary-check` reactor: the account is UNDER_REVIEW until then, then
 * ACTIVE). A FIRST_PARTY self-custody wallet may start PENDING_OWNERSHIP_VERIFICATION instead
 * (ownership-rules.ts).
 */
@CommandHandler(CreateExternalAccount)
export class CreateExternalAccountHandler implements ICommandHandler<CreateExternalAccount, ExternalAccountView> {
  constructor(
    private readonly commands: CommandStore,
    private readonly customers: CustomersQuery,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ platformId, input, primaryField }: CreateExternalAccount): Promise<ExternalAccountView> {
    const holder = await this.holderOf(platformId, input.customerId);
    const declared = { ...input.accountInfo, ownershipType: input.ownershipType };
    const undeclared = counterpartyDeclarationErrors(declared, holder);
    if (undeclared.length > 0) throw new ValidationError(undeclared);
    const name = beneficiaryName(input.accountInfo.beneficiary);
    const check = this.config.mode === 'sandbox' ? beneficiaryCheck(input.primaryIdentifier, name) : null;
    if (check?.kind === 'INVALID_ACCOUNT') {
      const errors: FieldError[] = [{ field: primaryField, constraint: {}, message: 'The receiving institution reports this account as invalid' }];
      throw new ValidationError(errors, 'INVALID_BANK_ACCOUNT', 'The account cannot receive payments');
    }
    const externalAccountId = newId('ExternalAccount');
    const result = await this.commands.handle(EXTERNAL_ACCOUNT_STREAM, streamNameFor(externalAccountId), {
      type: 'CreateExternalAccount',
      created: {
        externalAccountId,
        platformId,
        customerId: input.customerId,
        currency: input.currency,
        platformAccountId: input.platformAccountId,
        ...(input.ownershipType ? { ownershipType: input.ownershipType } : {}),
        ...(input.defaultUmaDepositAccount !== undefined ? { defaultUmaDepositAccount: input.defaultUmaDepositAccount } : {}),
        accountInfo: input.accountInfo,
        primaryIdentifier: input.primaryIdentifier,
        beneficiaryVerification:
          input.accountInfo.beneficiary && check?.kind === 'RESULT' ? { status: check.status, verifiedFullName: check.verifiedFullName } : null,
        createdAt: new Date().toISOString(),
      },
      holder,
    });
    return externalAccountView(existing(result.state));
  }

  /** The platform itself, or the customer and its jurisdiction (400 on customerId: create declares neither 404 nor 410). */
  private async holderOf(platformId: string, customerId: string | null): Promise<AccountHolder> {
    if (customerId === null) return { kind: 'PLATFORM' };
    const customer = await this.customers.findById(platformId, customerId);
    if (!customer || customer.isDeleted) {
      const message = customer ? 'The customer was deleted' : 'No such customer';
      throw new ValidationError([{ field: 'customerId', constraint: {}, message }]);
    }
    return { kind: 'CUSTOMER', region: customer.region };
  }
}
