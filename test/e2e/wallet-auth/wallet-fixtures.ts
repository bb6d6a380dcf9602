import { WalletApi } from '../../../src/wallet-auth/client';
import { createIndividual, uniqueId } from '../../support/customer-fixtures';
import { TestApp, TestPlatform } from '../../support/test-app';

/**
 * Fixtures for the embedded-wallet e2e tests, all through the public HTTP API: a customer whose
 * embedded wallet opens with an EMAIL_OTP credential, and the client toolkit bound to its platform.
 */
export interface TestWallet {
  customerId: string;
  accountId: string;
  email: string;
  /** The initial EMAIL_OTP credential's id. */
  emailCredentialId: string;
  platform: TestPlatform;
  client: WalletApi;
}

export function walletApiFor(testApp: TestApp, platform: TestPlatform = testApp.platform): WalletApi {
  return new WalletApi({ baseUrl: testApp.baseUrl, clientId: platform.clientId, clientSecret: platform.clientSecret });
}

export async function createWallet(testApp: TestApp, platform: TestPlatform = testApp.platform, fields: Record<string, unknown> = {}): Promise<TestWallet> {
  const email = `${uniqueId('wallet')}@example.com`;
  const customer = await createIndividual(platform.api, { email, ...fields });
  const accounts = await platform.api.get('/internal-accounts').query({ customerId: customer.id, type: 'EMBEDDED_WALLET' }).expect(200);
  if (accounts.body.data.length !== 1) throw new Error(`expected one embedded wallet, got ${JSON.stringify(accounts.body)}`);
  const accountId = accounts.body.data[0].id as string;
  const credentials = await platform.api.get('/auth/credentials').query({ accountId }).expect(200);
  const emailCredentialId = credentials.body.data[0]?.id as string;
  return { customerId: customer.id, accountId, email, emailCredentialId, platform, client: walletApiFor(testApp, platform) };
}

/** The platform's WebAuthn settings the software passkey must use (sandbox defaults). */
export const SANDBOX_PASSKEY = { rpId: 'localhost', origin: 'http://localhost:3000' };
