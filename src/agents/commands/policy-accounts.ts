import { Injectable } from '@nestjs/common';
import { InternalAccountsQuery } from '../../accounts';
import { FieldError } from '../../infra/domain/domain-error';
import { AgentAccountRestrictions } from '../domain/policy/agent-policy';

/**
 * A policy's account restrictions may name only the customer's own internal accounts. An id
 * this platform does not know (another platform's included) is a field error like another
 * customer's: the policy routes declare no 404 for a body id.
 */
@Injectable()
export class PolicyAccounts {
  constructor(private readonly internalAccounts: InternalAccountsQuery) {}

  /** One error per bad id, at `<prefix>.allowedAccountIds.<i>` and `<prefix>.accountRules.<i>.accountId`. */
  async check(platformId: string, customerId: string, restrictions: AgentAccountRestrictions | null | undefined, prefix: string): Promise<FieldError[]> {
    if (!restrictions) return [];
    const named = [
      ...(restrictions.allowedAccountIds ?? []).map((accountId, index) => ({ accountId, field: `${prefix}.allowedAccountIds.${index}` })),
      ...restrictions.accountRules.map((rule, index) => ({ accountId: rule.accountId, field: `${prefix}.accountRules.${index}.accountId` })),
    ];
    const problems = await Promise.all(named.map(({ accountId }) => this.problemWith(platformId, customerId, accountId)));
    return named.flatMap(({ field }, index) => {
      const message = problems[index];
      return message ? [{ field, constraint: {}, message }] : [];
    });
  }

  private async problemWith(platformId: string, customerId: string, accountId: string): Promise<string | null> {
    const account = await this.internalAccounts.findDetails(platformId, accountId);
    if (account === null) return `${accountId} is not an internal account of this platform`;
    if (account.customerId !== customerId) return `${accountId} is not an internal account of the agent's customer`;
    return null;
  }
}
