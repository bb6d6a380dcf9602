import { TestApp, anonymousClient } from '../../support/test-app';
import { accountQuoteBody } from '../../support/quote-fixtures';
import { createAgent, redeem } from './agent-fixtures';

/** Fixtures for the agents' action and approval suites, all through the public HTTP API. */
export const ACTION_ID = /^AgentAction:[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Every money permission; $500 a transaction, $2,000 a day, approval above $300. */
export function actionPolicy(extra: Record<string, unknown> = {}): Record<string, any> {
  return {
    permissions: ['VIEW_TRANSACTIONS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'CREATE_TRANSFERS'],
    defaultExecutionMode: 'AUTO',
    spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 200_000, dailyTransactionLimit: 50 },
    approvalThresholds: { currency: 'USD', amount: 30_000 },
    ...extra,
  };
}

export type BearerClient = Record<'get' | 'post' | 'patch' | 'delete', (path: string) => ReturnType<ReturnType<typeof anonymousClient>['get']>>;

/** Calls with the agent's Bearer token (checked against the contracts like every answer). */
export function bearerClient(baseUrl: string, token: string): BearerClient {
  const client = () => anonymousClient(baseUrl);
  const authorized = (method: 'get' | 'post' | 'patch' | 'delete') => (path: string) => client()[method](path).set('Authorization', `Bearer ${token}`);
  return { get: authorized('get'), post: authorized('post'), patch: authorized('patch'), delete: authorized('delete') };
}

/** An installed agent of `customerId` with `policy`, and its Bearer client. */
export async function connectedAgent(testApp: TestApp, customerId: string, policy = actionPolicy()): Promise<{ agent: any; me: BearerClient }> {
  const { agent, deviceCode } = await createAgent(testApp.platform.api, customerId, { policy });
  const token = await redeem(testApp.baseUrl, deviceCode.code);
  return { agent, me: bearerClient(testApp.baseUrl, token) };
}

/** A PENDING quote the agent created, `amount` cents sent from `sourceId`. */
export async function agentQuote(me: BearerClient, sourceId: string, destinationId: string, amount: number): Promise<any> {
  const response = await me.post('/agents/me/quotes').send(accountQuoteBody(sourceId, destinationId, amount));
  if (response.status !== 201) throw new Error(`agentQuote: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}
