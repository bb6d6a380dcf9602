import { Injectable } from '@nestjs/common';
import { AccountsLedger, ExternalAccountsQuery, LedgerAccountSnapshot } from '../../accounts';
import type { ExternalAccountDetails } from '../../accounts';
import { DomainError } from '../../infra/domain/domain-error';
import { sandboxDepositAddress, sandboxWireInstructions } from '../../sandbox';
import { OperationDestination, OperationLedgerPlan, OperationSource } from '../domain/operation/operation.events';
import { ExistingStablecoin } from '../domain/stablecoin/stablecoin.decider';
import { fieldRefused } from '../domain/stablecoins.errors';

export interface MintInput {
  fundingSource: OperationSource;
  destination: { accountId: string };
}

export interface BurnInput {
  source: OperationSource;
  destination: { type: 'EXTERNAL_ACCOUNT'; externalAccountId: string; rail: NonNullable<OperationDestination['rail']> };
}

/** Where an operation starts and what it moves in the ledger, before anything is recorded. */
export interface OperationPlan {
  awaitsFunding: boolean;
  source: OperationSource;
  destination: OperationDestination;
  fundingInstructions: Record<string, string> | null;
  estimatedDelivery: Record<string, string> | null;
  ledger: OperationLedgerPlan;
}

/** The bank rail of the account each payout rail needs, and the provider's static timing guidance. */
const PAYOUT_RAILS: Record<BurnInput['destination']['rail'], { accountRail: string; timing: string }> = {
  WIRE: { accountRail: 'WIRE', timing: 'same business day' },
  ACH_CREDIT: { accountRail: 'ACH', timing: '1-3 business days' },
  SAME_DAY_ACH_CREDIT: { accountRail: 'ACH', timing: 'same business day' },
  RTP_CREDIT: { accountRail: 'RTP', timing: 'within minutes' },
};

/**
 * Resolves a mint's or burn's accounts against the platform's: unknown (or another platform's)
 * accounts are 404 REFERENCE_NOT_FOUND (both operations declare it); accounts of the wrong kind are
 * 400 naming the field. Internal accounts must be the platform's own (no customer): a mint is
 * funded from its account in the coin's base currency, a coin is held in its account in the coin's
 * currency (only for coins enabled for Grid operations).
 */
@Injectable()
export class OperationPlanner {
  constructor(
    private readonly ledger: AccountsLedger,
    private readonly externalAccounts: ExternalAccountsQuery,
  ) {}

  async mint(coin: ExistingStablecoin, operationId: string, input: MintInput, amounts: { coin: number; fiat: number }): Promise<OperationPlan> {
    const source = input.fundingSource;
    let hold: OperationLedgerPlan['hold'] = null;
    let fundingInstructions: Record<string, string> | null = null;
    if (source.type === 'WIRE') {
      fundingInstructions = { ...sandboxWireInstructions(operationId), amount: String(amounts.fiat), currency: coin.baseCurrency };
    } else if (source.type === 'ACH_DEBIT' || source.type === 'SAME_DAY_ACH_DEBIT') {
      await this.bankAccount(coin.platformId, source.externalAccountId as string, 'fundingSource.externalAccountId', coin.baseCurrency, 'ACH');
    } else if (source.type === 'GRID_INTERNAL_ACCOUNT') {
      const account = await this.platformAccount(coin.platformId, source.accountId as string, 'fundingSource.accountId', coin.baseCurrency);
      hold = { accountId: account.accountId, amount: amounts.fiat };
    }
    let credit: OperationLedgerPlan['credit'] = null;
    if (input.destination.accountId.startsWith('InternalAccount:')) {
      const account = await this.coinAccount(coin, input.destination.accountId, 'destination.accountId');
      credit = { accountId: account.accountId, amount: amounts.coin };
    } else {
      await this.sparkWallet(coin.platformId, input.destination.accountId);
    }
    return { awaitsFunding: source.type === 'WIRE', source, destination: { accountId: input.destination.accountId }, fundingInstructions, estimatedDelivery: null, ledger: { hold, credit } };
  }

  async burn(coin: ExistingStablecoin, operationId: string, input: BurnInput, amounts: { coin: number; fiat: number }): Promise<OperationPlan> {
    const { source, destination } = input;
    const payout = PAYOUT_RAILS[destination.rail];
    await this.bankAccount(coin.platformId, destination.externalAccountId, 'destination.externalAccountId', coin.baseCurrency, payout.accountRail, 'destination.rail');
    let hold: OperationLedgerPlan['hold'] = null;
    if (source.type === 'GRID_INTERNAL_ACCOUNT') {
      const account = await this.coinAccount(coin, source.accountId as string, 'source.accountId');
      hold = { accountId: account.accountId, amount: amounts.coin };
    }
    const awaitsFunding = source.type === 'EXTERNAL_ACCOUNT';
    return {
      awaitsFunding,
      source,
      destination: { accountId: destination.externalAccountId, rail: destination.rail },
      fundingInstructions: awaitsFunding ? { rail: 'SPARK', network: 'SPARK', address: sandboxDepositAddress(operationId), valueType: coin.providerTokenIdentifier } : null,
      estimatedDelivery: { rail: destination.rail, amount: String(amounts.fiat), currency: coin.baseCurrency, timing: payout.timing },
      ledger: { hold, credit: null },
    };
  }

  /** The platform's own internal account in `currency`. */
  private async platformAccount(platformId: string, accountId: string, field: string, currency: string): Promise<LedgerAccountSnapshot> {
    const account = await this.internalAccount(platformId, accountId);
    if (account.customerId !== null || account.currency !== currency || account.status !== 'ACTIVE') {
      throw fieldRefused(field, `${field} must be an active internal account of the platform itself in ${currency}`, 'ACCOUNT_INELIGIBLE', { accountId });
    }
    return account;
  }

  /** The platform's own internal account in the coin's currency: the coin must be enabled for Grid operations. */
  private async coinAccount(coin: ExistingStablecoin, accountId: string, field: string): Promise<LedgerAccountSnapshot> {
    if (coin.gridOperationsStatus !== 'ENABLED' || coin.currency === null) {
      throw fieldRefused(field, `${coin.symbol} is not enabled for Grid operations, so no internal account holds it`, 'STABLECOIN_NOT_ENABLED', {
        gridOperationsStatus: coin.gridOperationsStatus,
      });
    }
    return this.platformAccount(coin.platformId, accountId, field, coin.currency);
  }

  private async internalAccount(platformId: string, accountId: string): Promise<LedgerAccountSnapshot> {
    try {
      return await this.ledger.snapshot({ platformId, accountId });
    } catch (error) {
      if (error instanceof DomainError && error.code === 'NOT_FOUND') throw new DomainError('REFERENCE_NOT_FOUND', 'Internal account not found', { accountId });
      throw error;
    }
  }

  private async externalAccount(platformId: string, externalAccountId: string): Promise<ExternalAccountDetails> {
    const account = await this.externalAccounts.findById(platformId, externalAccountId);
    if (!account) throw new DomainError('REFERENCE_NOT_FOUND', 'External account not found', { externalAccountId });
    return account;
  }

  /** An active bank account in the coin's base currency that carries `rail`. */
  private async bankAccount(platformId: string, externalAccountId: string, field: string, currency: string, rail: string, railField = field): Promise<void> {
    const account = await this.externalAccount(platformId, externalAccountId);
    if (account.currency !== currency || account.status !== 'ACTIVE') {
      throw fieldRefused(field, `${field} must be an active ${currency} bank account`, 'ACCOUNT_INELIGIBLE', { externalAccountId });
    }
    if (!account.supportedRails.includes(rail)) {
      throw fieldRefused(railField, `The account does not take ${rail} payments`, 'RAIL_NOT_SUPPORTED', { externalAccountId, supportedRails: account.supportedRails });
    }
  }

  /** Mints go to an active Spark wallet (the initial provider flow of the reference). */
  private async sparkWallet(platformId: string, externalAccountId: string): Promise<void> {
    const account = await this.externalAccount(platformId, externalAccountId);
    if (account.accountType !== 'SPARK_WALLET' || account.status !== 'ACTIVE') {
      throw fieldRefused('destination.accountId', 'destination.accountId must be an active Spark wallet external account', 'ACCOUNT_INELIGIBLE', { accountId: externalAccountId });
    }
  }
}
