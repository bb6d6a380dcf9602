import { Injectable } from '@nestjs/common';
import { assertEndUserTermsAccepted, CustomersQuery } from '../../customers';
import { DomainError, ValidationError } from '../../infra/domain/domain-error';
import { newId } from '../../infra/ids';
import { PlatformConfig, PlatformConfigQuery } from '../../platforms';
import { lastThree } from '../../sandbox';
import { verificationRequiredRefusal } from '../domain/external-account/ownership-rules';
import { TransferParties } from '../domain/transaction/transaction.events';
import { AccountsLedger } from '../ledger/accounts-ledger';
import { insufficientFunds } from '../ledger/insufficient-funds';
import { ExternalAccountDetails } from '../queries/external-account.view';
import { ExternalAccountsQuery } from '../queries/external-accounts.query';
import { InternalAccountDetails, InternalAccountsQuery } from '../queries/internal-accounts.query';

export interface TransferRequest {
  sourceAccountId: string;
  destinationAccountId: string;
  paymentRail: string | null;
  /** Minor units; absent on a transfer-out: the source's whole available balance (a sweep). */
  amount?: number;
  remittanceInformation?: string;
  purposeOfPayment?: string;
}

/**
 * Checks a transfer request in either direction (OUT: internal -> external, IN: external ->
 * internal) and names its parties: both accounts this platform's, the same currency, a rail the
 * external account supports, the same customer, an approved customer, an amount in range, and
 * no more than the unverified allowance to a wallet whose ownership is unproven.
 * Used by TransferOut and TransferIn.
 */
@Injectable()
export class TransferPartiesResolver {
  constructor(
    private readonly ledger: AccountsLedger,
    private readonly internalAccounts: InternalAccountsQuery,
    private readonly externalAccounts: ExternalAccountsQuery,
    private readonly customers: CustomersQuery,
    private readonly platformConfig: PlatformConfigQuery,
  ) {}

  async resolve(platformId: string, request: TransferRequest, direction: 'IN' | 'OUT', transactionId: string = newId('Transaction')): Promise<TransferParties> {
    // The source is looked up (and reported missing) first, whichever kind it is.
    let internal: InternalAccountDetails;
    let external: ExternalAccountDetails;
    if (direction === 'OUT') {
      internal = await this.requireInternal(platformId, request.sourceAccountId, 'Source');
      external = await this.requireExternal(platformId, request.destinationAccountId, 'Destination');
    } else {
      external = await this.requireExternal(platformId, request.sourceAccountId, 'Source');
      internal = await this.requireInternal(platformId, request.destinationAccountId, 'Destination');
    }
    assertSameCurrency(internal.currency, external.currency);
    const paymentRail = pickRail(request.paymentRail, external.supportedRails, 'destination.paymentRail');
    // A platform's own internal account may move money to or from any of its external accounts; a
    // customer's only to or from that customer's (the platform's own accounts are not).
    if (internal.customerId && internal.customerId !== external.customerId) {
      const field = direction === 'OUT' ? 'destination.accountId' : 'source.accountId';
      const message = external.customerId ? 'The external account belongs to another customer' : "The external account is the platform's own, not the customer's";
      throw new ValidationError([{ field, constraint: {}, message }]);
    }
    const config = await this.platformConfig.findRaw(platformId);
    if (!config) throw new Error(`No platform configuration read model for ${platformId}`);
    const customer = internal.customerId ? await this.approvedCustomer(config, platformId, internal.customerId) : null;
    const amount = request.amount ?? (await this.sweepAmount(platformId, internal, direction));
    assertAmountInRange(config, internal.currency, amount);
    // A wallet whose ownership is unproven receives only up to the travel rule's threshold.
    const unverified = direction === 'OUT' ? verificationRequiredRefusal(external, amount) : null;
    if (unverified) throw unverified;
    return {
      transactionId,
      platformId,
      customerId: internal.customerId,
      platformCustomerId: customer?.platformCustomerId ?? null,
      sourceAccountId: direction === 'OUT' ? internal.accountId : external.id,
      destinationAccountId: direction === 'OUT' ? external.id : internal.accountId,
      paymentRail,
      currency: internal.currency,
      amount,
      counterpartySuffix: lastThree(external.primaryIdentifier),
      railSelectionMode: request.paymentRail === null ? 'AUTO' : 'MANUAL',
      ...(request.remittanceInformation !== undefined ? { remittanceInformation: request.remittanceInformation } : {}),
      ...(request.purposeOfPayment !== undefined ? { purposeOfPayment: request.purposeOfPayment } : {}),
    };
  }

  /**
   * The customer behind a transfer, who must be approved to transact (and, on an unregulated
   * platform, have accepted the End User Terms). The transfer operations declare no 403 or 410: a
   * customer not (yet) approved is a request that cannot be carried out as it stands (400
   * INVALID_INPUT, the status or the code as `details.reason`), a deleted one is gone (404).
   */
  private async approvedCustomer(platform: PlatformConfig, platformId: string, customerId: string) {
    try {
      const customer = await this.customers.findApprovedToTransact(platformId, customerId);
      assertEndUserTermsAccepted(platform, customer);
      return customer;
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if (error.code === 'FORBIDDEN') throw new DomainError('INVALID_INPUT', error.message, error.details);
      if (error.code === 'END_USER_TERMS_NOT_ACCEPTED') throw new DomainError('INVALID_INPUT', error.message, { ...error.details, reason: error.code });
      if (error.code === 'CUSTOMER_DELETED') throw new DomainError('USER_NOT_FOUND', 'Customer not found');
      throw error;
    }
  }

  /**
   * A transfer without `amount` (the reference makes it optional). A transfer-out then sweeps
   * what the source holds available now, exact from the ledger; nothing to sweep is 400. A
   * transfer-in pulls from an account whose balance we cannot see, so it needs the amount.
   */
  private async sweepAmount(platformId: string, internal: InternalAccountDetails, direction: 'IN' | 'OUT'): Promise<number> {
    if (direction === 'IN') {
      throw new ValidationError([{ field: 'amount', constraint: {}, message: 'amount is required to pull from an external account' }]);
    }
    const { available } = await this.ledger.snapshot({ platformId, accountId: internal.accountId });
    if (available <= 0) throw insufficientFunds({ accountId: internal.accountId, requested: 0, available });
    return available;
  }

  private async requireInternal(platformId: string, accountId: string, side: 'Source' | 'Destination'): Promise<InternalAccountDetails> {
    const found = await this.internalAccounts.findDetails(platformId, accountId);
    if (!found) throw new DomainError('REFERENCE_NOT_FOUND', `${side} internal account not found`);
    return found;
  }

  private async requireExternal(platformId: string, accountId: string, side: 'Source' | 'Destination'): Promise<ExternalAccountDetails> {
    const found = await this.externalAccounts.findById(platformId, accountId);
    if (!found) throw new DomainError('REFERENCE_NOT_FOUND', `${side} external account not found`);
    return found;
  }

}

function assertAmountInRange(config: PlatformConfig, currency: string, amount: number): void {
  const limits = config.supportedCurrencies.find((entry) => entry.currencyCode === currency);
  if (limits && (amount < limits.minAmount || amount > limits.maxAmount)) {
    throw new DomainError('AMOUNT_OUT_OF_RANGE', `amount must be from ${limits.minAmount} to ${limits.maxAmount} for ${currency}`, {
      minAmount: limits.minAmount,
      maxAmount: limits.maxAmount,
    });
  }
}

/** The requested rail, which the external account must support, or the first it supports. */
function pickRail(requested: string | null, supported: string[], field: string): string {
  if (requested === null) return supported[0];
  if (!supported.includes(requested)) {
    throw new ValidationError([{ field, constraint: { enum: supported }, message: `${field} must be one the external account supports: ${supported.join(', ')}` }]);
  }
  return requested;
}

function assertSameCurrency(source: string, destination: string): void {
  if (source !== destination) {
    throw new DomainError('INVALID_CURRENCY', `Transfers move one currency: the source holds ${source}, the destination ${destination}`, {
      sourceCurrency: source,
      destinationCurrency: destination,
    });
  }
}
