import { Injectable } from '@nestjs/common';
import { AccountsLedger, LedgerAccountSnapshot } from '../../accounts';
import { DomainError } from '../../infra/domain/domain-error';
import { DelegatedKeySigner } from '../../wallet-auth';
import { unitsPerCent } from '../domain/card-transaction/card-transaction.decider';

/** A funding account an authorization may try, with the delegated key that signed its pull (embedded wallets). */
export interface FundingCandidate {
  account: LedgerAccountSnapshot;
  amountUnits: number;
  delegatedKeyId: string | null;
}

/**
 * The card's funding accounts as an authorization meets them, in the card's order. An account
 * that is not ACTIVE (or no longer this platform's) is skipped; an EMBEDDED_WALLET account pays
 * only when the card funding source's delegated key stamps the pull (DelegatedKeySigner), and is
 * skipped when it refuses. Whether the money is there is the ledger's answer, not this one's.
 */
@Injectable()
export class CardFundingAccounts {
  constructor(
    private readonly ledger: AccountsLedger,
    private readonly signer: DelegatedKeySigner,
  ) {}

  async *debitCandidates(input: { platformId: string; cardId: string; transactionId: string; amountCents: number; fundingSources: string[] }): AsyncGenerator<FundingCandidate> {
    for (const accountId of input.fundingSources) {
      const account = await this.activeAccount(input.platformId, accountId);
      if (!account) continue;
      const amountUnits = input.amountCents * unitsPerCent(account.currency);
      if (account.accountType !== 'EMBEDDED_WALLET') {
        yield { account, amountUnits, delegatedKeyId: null };
        continue;
      }
      const stamp = await this.signer.stamp({
        platformId: input.platformId,
        cardId: input.cardId,
        accountId,
        payloadToSign: pullPayload({ transactionId: input.transactionId, cardId: input.cardId, accountId, amountUnits }),
      });
      if (stamp.ok) yield { account, amountUnits, delegatedKeyId: stamp.delegatedKeyId };
    }
  }

  /** Credits need no signature: every ACTIVE funding account, in the card's order. */
  async *creditCandidates(input: { platformId: string; amountCents: number; fundingSources: string[] }): AsyncGenerator<FundingCandidate> {
    for (const accountId of input.fundingSources) {
      const account = await this.activeAccount(input.platformId, accountId);
      if (account) yield { account, amountUnits: input.amountCents * unitsPerCent(account.currency), delegatedKeyId: null };
    }
  }

  /** What the card could spend now: the available balances of its ACTIVE funding accounts, in whole cents. */
  async availableCents(platformId: string, fundingSources: string[]): Promise<number> {
    let total = 0;
    for (const accountId of fundingSources) {
      const account = await this.activeAccount(platformId, accountId);
      if (account) total += Math.floor(account.available / unitsPerCent(account.currency));
    }
    return total;
  }

  private async activeAccount(platformId: string, accountId: string): Promise<LedgerAccountSnapshot | null> {
    try {
      // The ledger refuses a hold on an account that is no longer ACTIVE, so a recent view is enough here.
      const account = await this.ledger.recentSnapshot({ platformId, accountId });
      return account.status === 'ACTIVE' ? account : null;
    } catch (error) {
      if (error instanceof DomainError && error.code === 'NOT_FOUND') return null;
      throw error;
    }
  }
}

/** The canonical text a delegated key signs for a card pull: fixed key order, amounts in the account's units. */
export function pullPayload(pull: { transactionId: string; cardId: string; accountId: string; amountUnits: number }): string {
  return JSON.stringify({ type: 'CARD_FUNDING_PULL', transactionId: pull.transactionId, cardId: pull.cardId, accountId: pull.accountId, amountUnits: pull.amountUnits });
}
