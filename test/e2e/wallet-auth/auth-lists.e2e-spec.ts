import { SoftwarePasskey } from '../../../src/wallet-auth/client';
import { WalletClock } from '../../../src/wallet-auth/services/wallet-clock';
import { accountsByCurrency } from '../../support/customer-fixtures';
import { TestApp, TestPlatform, startTestApp } from '../../support/test-app';
import { SANDBOX_PASSKEY, TestWallet, createWallet } from './wallet-fixtures';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UNKNOWN_ACCOUNT = 'InternalAccount:0199a000-0000-7000-8000-00000000abcd';

/**
 * `GET /auth/credentials` and `GET /auth/sessions` (issue 24 part 5) against the reference: the
 * one filter (`accountId`, required), no pagination, the AuthMethod and AuthSession fields (a
 * passkey's `credentialId` on its credential and on its sessions), and an account with nothing
 * visible to the platform (unknown, another platform's, not a wallet) listing nothing.
 */
describe('embedded wallet credential and session lists', () => {
  let testApp: TestApp;
  let clock: WalletClock;
  let other: TestPlatform;

  beforeAll(async () => {
    testApp = await startTestApp();
    clock = testApp.app.get(WalletClock);
    other = await testApp.createPlatform();
  });

  afterEach(() => clock.reset());

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  const credentials = async (accountId: string, client = api()) => (await client.get('/auth/credentials').query({ accountId }).expect(200)).body;
  const sessions = async (accountId: string, client = api()) => (await client.get('/auth/sessions').query({ accountId }).expect(200)).body;

  async function walletWithPasskey(): Promise<{ wallet: TestWallet; passkeyCredential: any; emailSession: any; passkeySession: any }> {
    const wallet = await createWallet(testApp);
    const email = await wallet.client.loginWithOtp(wallet.emailCredentialId);
    const passkey = new SoftwarePasskey(SANDBOX_PASSKEY);
    const challenge = SoftwarePasskey.registrationChallenge();
    const passkeyCredential = await wallet.client.addCredential(
      { type: 'PASSKEY', accountId: wallet.accountId, nickname: 'Laptop', challenge, attestation: passkey.register(challenge) },
      email.sessionKey,
    );
    const passkeyLogin = await wallet.client.loginWithPasskey(passkeyCredential.id, passkey);
    return { wallet, passkeyCredential, emailSession: email.session, passkeySession: passkeyLogin.session };
  }

  it('credentials: every AuthMethod field, oldest first, credentialId for passkeys only, never a secret', async () => {
    const { wallet, passkeyCredential } = await walletWithPasskey();
    const listed = await credentials(wallet.accountId);
    expect(listed).toEqual({
      data: [
        { id: wallet.emailCredentialId, accountId: wallet.accountId, type: 'EMAIL_OTP', nickname: wallet.email, createdAt: expect.stringMatching(ISO), updatedAt: expect.stringMatching(ISO) },
        {
          id: passkeyCredential.id,
          accountId: wallet.accountId,
          type: 'PASSKEY',
          credentialId: passkeyCredential.credentialId,
          nickname: 'Laptop',
          createdAt: expect.stringMatching(ISO),
          updatedAt: expect.stringMatching(ISO),
        },
      ],
    });
    expect(listed.data[1]).toEqual(passkeyCredential);
  });

  it("sessions: every AuthSession field (a passkey session names its passkey's credentialId), live ones only, oldest first", async () => {
    const { wallet, passkeyCredential, emailSession, passkeySession } = await walletWithPasskey();
    expect(passkeySession.credentialId).toBe(passkeyCredential.credentialId);
    const listed = await sessions(wallet.accountId);
    expect(listed).toEqual({ data: [emailSession, passkeySession] });
    expect(Object.keys(listed.data[0])).toEqual(['id', 'accountId', 'type', 'nickname', 'createdAt', 'updatedAt', 'expiresAt']);
    expect(Object.keys(listed.data[1])).toEqual(['id', 'accountId', 'type', 'credentialId', 'nickname', 'createdAt', 'updatedAt', 'expiresAt']);
    expect(listed.data[1]).toMatchObject({ id: expect.stringMatching(/^Session:/), type: 'PASSKEY', nickname: 'Laptop', expiresAt: expect.stringMatching(ISO) });
    // Expired sessions sign nothing and are not listed; the credentials stay.
    clock.advanceBy(15 * 60 * 1000 + 1000);
    expect(await sessions(wallet.accountId)).toEqual({ data: [] });
    expect((await credentials(wallet.accountId)).data).toHaveLength(2);
  });

  it('an account with nothing visible to the platform lists nothing: unknown, another platform\'s wallet, an account that is no wallet', async () => {
    const wallet = await createWallet(testApp);
    await wallet.client.loginWithOtp(wallet.emailCredentialId);
    const fiat = (await accountsByCurrency(api(), wallet.customerId)).USD;
    for (const [accountId, client] of [[UNKNOWN_ACCOUNT, api()], [wallet.accountId, other.api], [fiat.id, api()]] as const) {
      expect(await credentials(accountId, client)).toEqual({ data: [] });
      expect(await sessions(accountId, client)).toEqual({ data: [] });
    }
    expect((await credentials(wallet.accountId)).data).toHaveLength(1);
    expect((await sessions(wallet.accountId)).data).toHaveLength(1);
  });

  it('accountId is required and must be an InternalAccount id; no other parameter (no pagination): 400 listing each', async () => {
    for (const path of ['/auth/credentials', '/auth/sessions']) {
      const missing = await api().get(path).expect(400);
      expect(missing.body).toEqual({
        status: 400,
        code: 'INVALID_INPUT',
        message: 'The request has invalid fields',
        details: { errors: [{ field: 'accountId', constraint: {}, message: 'accountId is required' }] },
      });
      const bad = await api().get(path).query({ accountId: 'Card:0199a000-0000-7000-8000-00000000abcd', cursor: 'x' }).expect(400);
      expect(bad.body.details.errors).toEqual([
        { field: 'cursor', constraint: {}, message: 'Unknown query parameter cursor' },
        { field: 'accountId', constraint: { format: 'InternalAccount-id' }, message: 'accountId must be an InternalAccount:<uuid> id' },
      ]);
    }
  });
});
