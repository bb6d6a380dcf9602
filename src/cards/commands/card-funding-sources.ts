import { Injectable } from '@nestjs/common';
import { InternalAccountsQuery } from '../../accounts';
import { FieldError } from '../../infra/domain/domain-error';
import { fundingSourcesRefused } from '../domain/cards.errors';

/** Currencies a card can spend: US dollars and the dollar stablecoins, 1:1. */
export const CARD_ELIGIBLE_FUNDING_CURRENCIES = ['USD', 'USDC', 'USDT', 'USDB'];

/**
 * Funding sources must be the cardholder's own internal accounts in a card-eligible currency.
 * Every misfit is a field error (400 INVALID_INPUT): ids this platform does not know (including
 * other platforms' accounts) too, as `POST /cards` declares no 404 and on PATCH a 404 would read
 * as "no such card". Used by IssueCard and UpdateCard.
 */
@Injectable()
export class CardFundingSources {
  constructor(private readonly internalAccounts: InternalAccountsQuery) {}

  async assertUsable(platformId: string, cardholderId: string, accountIds: string[]): Promise<void> {
    const accounts = await Promise.all(accountIds.map((accountId) => this.internalAccounts.findDetails(platformId, accountId)));
    const errors: FieldError[] = [];
    accounts.forEach((account, index) => {
      const field = `fundingSources.${index}`;
      if (account === null) {
        errors.push({ field, constraint: {}, message: `${accountIds[index]} is not an internal account of this platform` });
      } else if (account.customerId === null) {
        errors.push({ field, constraint: {}, message: `${account.accountId} is a platform account, not an account of the cardholder` });
      } else if (account.customerId !== cardholderId) {
        errors.push({ field, constraint: {}, message: `${account.accountId} belongs to another customer` });
      } else if (!CARD_ELIGIBLE_FUNDING_CURRENCIES.includes(account.currency)) {
        errors.push({
          field,
          constraint: {},
          message: `${account.accountId} holds ${account.currency}; cards are funded from ${CARD_ELIGIBLE_FUNDING_CURRENCIES.join(', ')} accounts`,
        });
      }
    });
    if (errors.length > 0) throw fundingSourcesRefused(errors);
  }
}
