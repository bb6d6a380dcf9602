import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateWalletKeyPair, stampPayload } from '../../../src/wallet-auth/client';
import { FreshDatabase, freshDatabase, freshRedisPrefix } from '../../support/database';
import { TestApp, platformClient, startTestApp } from '../../support/test-app';
import { createWallet } from './wallet-fixtures';

/**
 * Rate limits of `/challenge` and `/verify` (a small per-credential budget shared by every API
 * process: two app instances on one database here) and cross-platform isolation: another
 * platform's wallets, credentials, sessions and requests answer exactly like unknown ones.
 */
describe('embedded wallet rate limits and isolation', () => {
  let database: FreshDatabase;
  let dataDir: string;
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    database = await freshDatabase('wallet-limits');
    dataDir = mkdtempSync(join(tmpdir(), 'wallet-limits-'));
    const shared = { database, dataDir, queuePrefix: freshRedisPrefix('wallet-limits'), env: { MASTER_KEY: randomBytes(32).toString('hex') } };
    first = await startTestApp(shared);
    second = await startTestApp({ ...shared, roles: ['api'] });
  });

  afterAll(async () => {
    await second?.close({ keepDatabase: true });
    await first?.close({ keepDatabase: true });
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('past 10 challenges a minute for one credential, across API processes, the answer is 429 RATE_LIMITED with Retry-After', async () => {
    const wallet = await createWallet(first);
    const viaSecond = platformClient(second.baseUrl, first.platform.clientId, first.platform.clientSecret);
    for (let call = 0; call < 10; call++) {
      const api = call % 2 === 0 ? first.platform.api : viaSecond;
      await api.post(`/auth/credentials/${wallet.emailCredentialId}/challenge`).expect(200);
    }
    const limited = await viaSecond.post(`/auth/credentials/${wallet.emailCredentialId}/challenge`);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ status: 429, code: 'RATE_LIMITED', message: expect.any(String), details: { retryAfterSeconds: expect.any(Number) } });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.body.details.retryAfterSeconds).toBe(retryAfter);
    // The budget is per credential and per operation: verify and another wallet are untouched.
    const verify = await first.platform.api.post(`/auth/credentials/${wallet.emailCredentialId}/verify`).send({ type: 'EMAIL_OTP', encryptedOtpBundle: '{}' });
    expect(verify.status).toBe(400);
    const otherWallet = await createWallet(first);
    await first.platform.api.post(`/auth/credentials/${otherWallet.emailCredentialId}/challenge`).expect(200);
  });

  it('past 10 verify calls a minute for one credential the answer is 429, even for calls that would fail', async () => {
    const wallet = await createWallet(first);
    for (let call = 0; call < 10; call++) {
      await first.platform.api.post(`/auth/credentials/${wallet.emailCredentialId}/verify`).send({ type: 'EMAIL_OTP', encryptedOtpBundle: 'x' }).expect(401);
    }
    const limited = await first.platform.api.post(`/auth/credentials/${wallet.emailCredentialId}/verify`).send({ type: 'EMAIL_OTP', encryptedOtpBundle: 'x' });
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
  });

  it("another platform's wallets, credentials, sessions and Request-Ids answer like unknown ones", async () => {
    const wallet = await createWallet(first);
    const { session, sessionKey } = await wallet.client.loginWithOtp(wallet.emailCredentialId);
    const intruder = await first.createPlatform();
    const api = intruder.api;
    const unknownAccount = 'InternalAccount:0199a000-0000-7000-8000-00000000abcd';
    for (const accountId of [wallet.accountId, unknownAccount]) {
      // The lists declare no 404: an accountId naming no account visible to the platform lists nothing.
      expect((await api.get('/auth/credentials').query({ accountId }).expect(200)).body).toEqual({ data: [] });
      expect((await api.get('/auth/sessions').query({ accountId }).expect(200)).body).toEqual({ data: [] });
      const patched = await api.patch(`/internal-accounts/${accountId}`).send({ privateEnabled: true });
      expect(patched.body).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Internal account not found' });
      expect((await api.patch(`/internal-accounts/${accountId}`).send({ privateEnabled: true })).status).toBe(404);
      expect((await api.post(`/internal-accounts/${accountId}/export`).send({ clientPublicKey: generateWalletKeyPair().publicKeyUncompressed })).status).toBe(404);
      expect((await api.post('/auth/credentials').send({ type: 'SMS_OTP', accountId, phoneNumber: '+14155550100' })).status).toBe(404);
    }
    for (const credentialId of [wallet.emailCredentialId, 'AuthMethod:0199a000-0000-7000-8000-00000000abcd']) {
      for (const call of [api.post(`/auth/credentials/${credentialId}/challenge`), api.post(`/auth/credentials/${credentialId}/verify`).send({}), api.delete(`/auth/credentials/${credentialId}`)]) {
        const response = await call;
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Auth credential not found' });
      }
    }
    for (const sessionId of [session.id, 'Session:0199a000-0000-7000-8000-00000000abcd']) {
      expect((await api.delete(`/auth/sessions/${sessionId}`)).body).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Session not found' });
      expect((await api.post(`/auth/sessions/${sessionId}/refresh`).send({ clientPublicKey: generateWalletKeyPair().publicKey })).status).toBe(404);
    }
    // A pending request of the wallet's platform is no pending request for another platform's wallet.
    const intruderWallet = await createWallet(first, intruder);
    const intruderLogin = await intruderWallet.client.loginWithOtp(intruderWallet.emailCredentialId);
    const challenge = (await first.platform.api.patch(`/internal-accounts/${wallet.accountId}`).send({ privateEnabled: true }).expect(202)).body;
    const crossed = await api
      .patch(`/internal-accounts/${intruderWallet.accountId}`)
      .set({ 'Service-Wallet-Signature': stampPayload(challenge.payloadToSign, intruderLogin.sessionKey), 'Request-Id': challenge.requestId })
      .send({ privateEnabled: true });
    expect(crossed.status).toBe(401);
    expect(crossed.body.details.reason).toBe('Request-Id does not name a pending request for this operation');
    // The wallet's own session key signs nothing for the other platform's wallet.
    const own = (await api.patch(`/internal-accounts/${intruderWallet.accountId}`).send({ privateEnabled: true }).expect(202)).body;
    const foreignKey = await api
      .patch(`/internal-accounts/${intruderWallet.accountId}`)
      .set({ 'Service-Wallet-Signature': stampPayload(own.payloadToSign, sessionKey), 'Request-Id': own.requestId })
      .send({ privateEnabled: true });
    expect(foreignKey.status).toBe(401);
    expect(foreignKey.body.code).toBe('WALLET_SIGNATURE_INVALID');
  });

  it('list queries and ids are validated: accountId required and well formed, malformed path ids 400', async () => {
    const api = first.platform.api;
    const missing = await api.get('/auth/credentials');
    expect(missing.body.details.errors).toEqual([{ field: 'accountId', constraint: {}, message: 'accountId is required' }]);
    const bad = await api.get('/auth/sessions').query({ accountId: 'nope', limit: 5 });
    expect(bad.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['accountId', 'limit']);
    expect((await api.post('/auth/credentials/nope/challenge')).body.details.errors[0].field).toBe('credentialId');
    expect((await api.delete('/auth/sessions/nope')).status).toBe(400);
    const fiat = (await api.get('/internal-accounts').query({ type: 'INTERNAL_FIAT' }).expect(200)).body.data[0];
    const notWallet = await api.post('/auth/credentials').send({ type: 'SMS_OTP', accountId: fiat.id, phoneNumber: '+14155550100' });
    expect(notWallet.body.details.errors).toEqual([{ field: 'accountId', constraint: {}, message: 'accountId must be an EMBEDDED_WALLET internal account' }]);
    const body = await api.post('/auth/credentials').send({ type: 'FAX', accountId: fiat.id });
    expect(body.body.details.errors[0]).toEqual({ field: 'type', constraint: { enum: ['EMAIL_OTP', 'SMS_OTP', 'PASSKEY', 'OAUTH'] }, message: expect.any(String) });
    const fields = await api.post('/auth/credentials').send({ type: 'EMAIL_OTP', accountId: fiat.id, email: 'not-an-email', extra: 1 });
    expect(fields.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['email', 'extra']);
  });
});
