import { PlatformClient, anonymousClient } from '../../support/test-app';

/** Fixtures for the agents e2e suites, all through the public HTTP API. */
export const AGENT_ID = /^Agent:[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const DEVICE_CODE = /^AGENT-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;
export const ACCESS_TOKEN = /^gat_[0-9a-f]{40}$/;
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A policy with every optional part: $500 a transfer, $5,000 a day, approval above $1,000. */
export function fullPolicy(extra: Record<string, unknown> = {}): Record<string, any> {
  return {
    permissions: ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS'],
    defaultExecutionMode: 'AUTO',
    spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 500_000, dailyTransactionLimit: 10 },
    approvalThresholds: { currency: 'USD', amount: 100_000 },
    ...extra,
  };
}

export function minimalPolicy(): Record<string, any> {
  return { permissions: ['VIEW_TRANSACTIONS'], defaultExecutionMode: 'APPROVAL_REQUIRED', spendingLimits: { currency: 'USD', perTransactionLimit: 0 } };
}

export async function createAgent(api: PlatformClient, customerId: string, extra: Record<string, unknown> = {}): Promise<{ agent: any; deviceCode: any }> {
  const response = await api.post('/agents').send({ name: 'Payroll Automation Agent', customerId, policy: minimalPolicy(), ...extra });
  if (response.status !== 201) throw new Error(`createAgent: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** Redeems a code (no credentials) and answers the access token. */
export async function redeem(baseUrl: string, code: string): Promise<string> {
  const response = await anonymousClient(baseUrl).post(`/agents/device-codes/${code}/redeem`);
  if (response.status !== 200) throw new Error(`redeem: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.accessToken;
}

/** `GET /agents/me` with a Bearer token (checked against the contracts like every answer). */
export function getMe(baseUrl: string, token: string) {
  return anonymousClient(baseUrl).get('/agents/me').set('Authorization', `Bearer ${token}`);
}

/** The `field`s of a 400's `details.errors`, sorted. */
export function fieldsOf(body: any): string[] {
  return (body.details?.errors ?? []).map((error: { field: string }) => error.field).sort();
}
