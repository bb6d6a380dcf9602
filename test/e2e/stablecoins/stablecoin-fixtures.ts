import { uniqueId } from '../../support/customer-fixtures';
import { PlatformClient, eventually } from '../../support/test-app';

/** Fixtures for the stablecoins e2e suites, all through the public HTTP API. */

/** A POST with a fresh Idempotency-Key (the reference requires one on every stablecoin POST). */
export function postWithKey(api: PlatformClient, path: string, body: unknown, key = uniqueId('idem')) {
  return api.post(path).set('Idempotency-Key', key).send(body as object);
}

export async function linkProvider(api: PlatformClient, apiClientId = uniqueId('client'), extra: Record<string, unknown> = {}): Promise<any> {
  const response = await postWithKey(api, '/stablecoin-provider-accounts', { provider: 'BRALE', apiClientId, apiClientSecret: 'provider-secret-456', ...extra });
  if (response.status !== 201) throw new Error(`linkProvider: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** A coin the sandbox provider knows: `usdb` is enabled for Grid operations (held in the USDB account), others are not. */
export async function registerCoin(api: PlatformClient, providerTokenIdentifier = uniqueId('acme'), extra: Record<string, unknown> = {}): Promise<any> {
  const response = await postWithKey(api, '/stablecoins', { providerTokenIdentifier, networkTokenIdentifier: `btkn1${providerTokenIdentifier}`, network: 'SPARK', ...extra });
  if (response.status !== 201) throw new Error(`registerCoin: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

export async function sparkWallet(api: PlatformClient): Promise<any> {
  const address = `sparkrt1${'qpzry9x8gf2tvdw0s3jn54khce6mua7l'.repeat(2)}`;
  const response = await api.post('/platform/external-accounts').send({ currency: 'USDB', platformAccountId: uniqueId('wallet'), accountInfo: { accountType: 'SPARK_WALLET', address } });
  if (response.status !== 201) throw new Error(`sparkWallet: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

export async function usdBank(api: PlatformClient, suffix = '789'): Promise<any> {
  const response = await api.post('/platform/external-accounts').send({
    currency: 'USD',
    platformAccountId: uniqueId('ops'),
    accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: `000123456${suffix}`, routingNumber: '021000021', beneficiary: { beneficiaryType: 'BUSINESS', legalName: 'Acme Ltd' } },
  });
  if (response.status !== 201) throw new Error(`usdBank: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** The platform's own internal account in `currency` (opened by platform provisioning). */
export async function platformAccount(api: PlatformClient, currency: string): Promise<any> {
  return eventually(async () => (await api.get('/platform/internal-accounts').query({ currency }).expect(200)).body.data[0]);
}

export async function balanceOf(api: PlatformClient, accountId: string): Promise<{ available: number; total: number }> {
  const account = (await api.get(`/internal-accounts/${accountId}`).expect(200)).body;
  return { available: account.balance.amount, total: account.totalBalance.amount };
}

/** Polls `GET /stablecoin-operations/{id}` until the operation is in `status`. */
export async function operationInStatus(api: PlatformClient, operationId: string, status: string): Promise<any> {
  return eventually(async () => {
    const response = await api.get(`/stablecoin-operations/${operationId}`).expect(200);
    return response.body.status === status && response.body;
  });
}

/** A completed provider-balance mint: the simplest way to put supply out. */
export async function mintedSupply(api: PlatformClient, coinId: string, amount: string, wallet: any): Promise<any> {
  const response = await postWithKey(api, `/stablecoins/${coinId}/mints`, { amount, fundingSource: { type: 'PROVIDER_INTERNAL_BALANCE', sourceTokenIdentifier: 'USDC', cryptoNetwork: 'SOLANA' }, destination: { accountId: wallet.id } });
  if (response.status !== 201) throw new Error(`mintedSupply: ${response.status} ${JSON.stringify(response.body)}`);
  return operationInStatus(api, response.body.id, 'COMPLETED');
}
