import { Projection } from '../src/infra/projections/projection';
import { agentActionsProjection } from './agents/agent-actions.projection';
import { agentsProjection } from './agents/agents.projection';
import { apiTokensProjection } from './api-tokens/api-tokens.projection';
import { bulkImportJobsProjection } from './bulk-import-jobs/bulk-import-jobs.projection';
import { cardsProjection } from './cards/cards.projection';
import { customersProjection } from './customers/customers.projection';
import { externalAccountsProjection } from './external-accounts/external-accounts.projection';
import { invitationsProjection } from './invitations/invitations.projection';
import { internalAccountsProjection } from './internal-accounts/internal-accounts.projection';
import { platformConfigProjection } from './platform-config/platform-config.projection';
import { quotesProjection } from './quotes/quotes.projection';
import { scaFactorsProjection } from './sca-factors/sca-factors.projection';
import { stablecoinsProjection } from './stablecoins/stablecoins.projection';
import { transactionsProjection } from './transactions/transactions.projection';
import { delegatedKeysProjection } from './wallet-auth/delegated-keys.projection';
import { walletAuthProjection } from './wallet-auth/wallet-auth.projection';

/**
 * Every read model. Add a projection here (one line) and the runner creates, catches up and
 * rebuilds it; `npm run projections:*` operate on this list.
 */
export const ALL_PROJECTIONS: Projection[] = [
  platformConfigProjection,
  customersProjection,
  internalAccountsProjection,
  externalAccountsProjection,
  transactionsProjection,
  cardsProjection,
  quotesProjection,
  walletAuthProjection,
  delegatedKeysProjection,
  scaFactorsProjection,
  invitationsProjection,
  apiTokensProjection,
  bulkImportJobsProjection,
  agentsProjection,
  agentActionsProjection,
  stablecoinsProjection,
];
