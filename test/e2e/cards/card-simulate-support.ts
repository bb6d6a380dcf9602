import { fund, uniqueId } from '../../support/customer-fixtures';
import { PlatformClient, eventually } from '../../support/test-app';
import { Cardholder, activeCard } from './card-fixtures';

/** Helpers of the `card-simulate-*` suites, all through the public HTTP API. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function merchant(descriptor = 'BLUE BOTTLE COFFEE SF'): Record<string, string> {
  return { descriptor, mcc: '5814', country: 'US' };
}

/** A SandboxCardAuthorizationRequest of `amount` US cents. */
export function authorizationBody(amount: number, descriptor?: string): Record<string, unknown> {
  return { amount, currency: { code: 'USD' }, merchant: merchant(descriptor) };
}

/** `POST /sandbox/cards/{id}/simulate/<op>`, expecting 202; answers the issuer token. */
export async function simulate(api: PlatformClient, cardId: string, operation: string, body: Record<string, unknown>): Promise<string> {
  const response = await api.post(`/sandbox/cards/${cardId}/simulate/${operation}`).send(body);
  if (response.status !== 202) throw new Error(`simulate ${operation}: ${response.status} ${JSON.stringify(response.body)}`);
  expect(response.body).toEqual({ issuerTransactionToken: expect.stringMatching(UUID) });
  return response.body.issuerTransactionToken;
}

/** The token of a message that opened a transaction is its uuid. */
export function transactionIdOf(token: string): string {
  return `CardTransaction:${token}`;
}

/** Simulates an authorization-family message; answers the transaction id it opened (or declined). */
export async function authorize(api: PlatformClient, cardId: string, amount: number, descriptor?: string, operation = 'authorization'): Promise<string> {
  return transactionIdOf(await simulate(api, cardId, operation, authorizationBody(amount, descriptor)));
}

export async function history(api: PlatformClient, resourceId: string): Promise<any[]> {
  return (await api.get('/audit/events').query({ resourceId, limit: 100 }).expect(200)).body.data;
}

export async function eventTypes(api: PlatformClient, resourceId: string): Promise<string[]> {
  return (await history(api, resourceId)).map((event) => event.type);
}

/** The account's balances as GET shows them: available, and held (total less available). */
export async function balances(api: PlatformClient, accountId: string): Promise<{ available: number; held: number }> {
  const body = (await api.get(`/internal-accounts/${accountId}`).expect(200)).body;
  return { available: body.balance.amount, held: body.totalBalance.amount - body.balance.amount };
}

/** An ACTIVE card funded by the holder's USD account, which holds `usdCents` first. */
export async function fundedCard(api: PlatformClient, holder: Cardholder, usdCents: number, extra: Record<string, unknown> = {}): Promise<any> {
  if (usdCents > 0) await fund(api, holder.accounts.USD.id, usdCents);
  return activeCard(api, holder, { platformCardId: uniqueId('card'), ...extra });
}

/** Polls the transaction's audit history until it has an event of `type`. */
export async function eventOf(api: PlatformClient, transactionId: string, type: string, timeoutMs = 10_000): Promise<any> {
  return eventually(async () => (await history(api, transactionId)).find((event) => event.type === type), timeoutMs);
}

/** `GET /transactions/{id}`: the CardTransaction as the read model shows it right after the simulation. */
export async function cardTransaction(api: PlatformClient, transactionId: string): Promise<any> {
  return (await api.get(`/transactions/${transactionId}`).expect(200)).body;
}

/** The transaction's status and amounts (US cents) as GET shows them; absent amounts are undefined. */
export async function statusOf(api: PlatformClient, transactionId: string): Promise<{ status: string; authorized: number; settled?: number; refunded?: number }> {
  const body = await cardTransaction(api, transactionId);
  return { status: body.status, authorized: body.authorizedAmount.amount, settled: body.settledAmount?.amount, refunded: body.refundedAmount?.amount };
}
