import { Injectable } from '@nestjs/common';
import { InternalAccountsQuery } from '../../accounts';
import { DomainError } from '../../infra/domain/domain-error';
import { PlatformConfigQuery } from '../../platforms';
import { priceQuote, rateSnapshotAt, sendingBounds } from '../../quotes';
import { WITHDRAWAL_CURRENCIES, WithdrawalNetwork, networkFeeInAsset } from '../tables/withdrawal-networks';

export interface WithdrawalFeeRequest {
  internalAccountId: string;
  currency: string;
  network: WithdrawalNetwork;
  /** Minor units of `currency`. */
  amount: number;
}

/** The reference's EstimateCryptoWithdrawalFeeResponse. */
export interface WithdrawalFeeEstimate {
  networkFee: number;
  networkFeeAsset: string;
  applicationFee: number;
  totalFee: number;
  netAmount: number;
}

/**
 * Estimates a withdrawal from a crypto internal account exactly as a quote would price it: a
 * same-currency payout on the network's rail, SENDING-locked at `amount`. The network fee is the
 * quote's counterparty fee, the application fee the service's and the platform's (none today for a
 * same-currency crypto payout), and the amount must lie within the corridor's sending bounds and
 * the platform's limits for the currency. A read: nothing is recorded and no balance is held (the
 * estimate may come before the account is funded).
 */
@Injectable()
export class WithdrawalFeesQuery {
  constructor(
    private readonly internalAccounts: InternalAccountsQuery,
    private readonly platformConfig: PlatformConfigQuery,
  ) {}

  async estimate(platformId: string, request: WithdrawalFeeRequest): Promise<WithdrawalFeeEstimate> {
    const account = await this.internalAccounts.findDetails(platformId, request.internalAccountId);
    if (!account) throw new DomainError('REFERENCE_NOT_FOUND', 'Internal account not found');
    if (!WITHDRAWAL_CURRENCIES.includes(account.currency)) {
      throw new DomainError('INVALID_INPUT', `${request.internalAccountId} holds ${account.currency}: only crypto accounts withdraw to a blockchain address`, {
        errors: [{ field: 'internalAccountId', constraint: {}, message: `${request.internalAccountId} is not a crypto account` }],
      });
    }
    if (account.currency !== request.currency) {
      throw new DomainError('INVALID_CURRENCY', `${request.internalAccountId} holds ${account.currency}, not ${request.currency}`, {
        errors: [{ field: 'currency', constraint: { enum: [account.currency] }, message: `The account holds ${account.currency}` }],
      });
    }
    // Same currency on both sides: the rate is 1 in every snapshot, the current one will do.
    const snapshot = rateSnapshotAt(new Date());
    const corridor = { snapshot, sendingCurrency: request.currency, receivingCurrency: request.currency, rail: request.network.network };
    await this.assertWithinBounds(platformId, corridor, request.amount);
    const priced = priceQuote({ ...corridor, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: request.amount });
    return {
      networkFee: networkFeeInAsset(request.network),
      networkFeeAsset: request.network.feeAsset.code,
      applicationFee: priced.feesIncluded - priced.counterpartyFeeInSendingCurrency,
      totalFee: priced.feesIncluded,
      netAmount: priced.totalReceivingAmount,
    };
  }

  /** 400 AMOUNT_OUT_OF_RANGE outside what the network's fee leaves positive and the platform allows. */
  private async assertWithinBounds(platformId: string, corridor: Parameters<typeof sendingBounds>[0], amount: number): Promise<void> {
    const config = await this.platformConfig.findRaw(platformId);
    const limits = config?.supportedCurrencies.find((entry) => entry.currencyCode === corridor.sendingCurrency) ?? null;
    const bounds = sendingBounds(corridor, limits);
    if (bounds && amount >= bounds.minSendingAmount && amount <= bounds.maxSendingAmount) return;
    const range = bounds ? `from ${bounds.minSendingAmount} to ${bounds.maxSendingAmount}` : 'not available';
    throw new DomainError('AMOUNT_OUT_OF_RANGE', `A ${corridor.sendingCurrency} withdrawal on ${corridor.rail} must be ${range} (minor units)`, {
      ...(bounds ? { minAmount: bounds.minSendingAmount, maxAmount: bounds.maxSendingAmount } : {}),
      amount,
    });
  }
}
