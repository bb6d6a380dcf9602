import { accountsByCurrency, createIndividual, uniqueId } from '../../support/customer-fixtures';
import { PlatformClient, eventually } from '../../support/test-app';

/** Fixtures for the cards e2e suites, all through the public HTTP API. */
export interface Cardholder {
  customer: any;
  /** The cardholder's internal accounts by currency code (USD, USDC, USDB by default). */
  accounts: Record<string, any>;
}

/** An individual with KYC APPROVED (no sandbox suffix) and the accounts provisioned with it. */
export async function approvedCardholder(api: PlatformClient, fields: Record<string, unknown> = {}): Promise<Cardholder> {
  const customer = await createIndividual(api, fields);
  return { customer, accounts: await accountsByCurrency(api, customer.id) };
}

export function cardRequest(holder: Cardholder, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { cardholderId: holder.customer.id, form: 'VIRTUAL', fundingSources: [holder.accounts.USD.id], platformCardId: uniqueId('card'), ...extra };
}

export async function issueCard(api: PlatformClient, holder: Cardholder, extra: Record<string, unknown> = {}): Promise<any> {
  const response = await api.post('/cards').send(cardRequest(holder, extra));
  if (response.status !== 201) throw new Error(`issueCard: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** Polls `GET /cards/{id}` until the card is in `state` (the issuer answers asynchronously). */
export async function cardInState(api: PlatformClient, cardId: string, state: string): Promise<any> {
  return eventually(async () => {
    const response = await api.get(`/cards/${cardId}`).expect(200);
    return response.body.state === state && response.body;
  });
}

/** A card the sandbox issuer issued (ACTIVE). */
export async function activeCard(api: PlatformClient, holder: Cardholder, extra: Record<string, unknown> = {}): Promise<any> {
  const card = await issueCard(api, holder, extra);
  return cardInState(api, card.id, 'ACTIVE');
}
