import { createIndividual } from '../../support/customer-fixtures';
import { END_USER_IP, SCA_ORIGIN, SCA_PLATFORM_CONFIG, SMS_CODE, newAuthenticator, scaLogin } from '../../support/sca-client';
import { TestApp, eventually, startTestApp } from '../../support/test-app';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Lifetimes, shortened through the SCA_* settings: login and enrollment challenges, sessions and
 * the lock run out (defaults: 5 minutes, 180 days, 15 minutes).
 */
describe('SCA lifetimes', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({
      platformConfig: SCA_PLATFORM_CONFIG,
      env: { SCA_CHALLENGE_TTL_MS: '800', SCA_SESSION_TTL_MS: '2500', SCA_LOCKOUT_MS: '1200' },
    });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  const european = async () => (await createIndividual(api(), { region: 'NL' })).id as string;

  it('a login challenge cannot be completed after its expiresAt: 409', async () => {
    const customerId = await european();
    const started = await api().post('/sca/login/start').send({ customerId, factor: 'SMS_OTP' }).expect(200);
    await sleep(Date.parse(started.body.scaChallenge.expiresAt) - Date.now() + 50);
    const late = await api().post('/sca/login/complete').send({ customerId, factor: 'SMS_OTP', code: SMS_CODE, endUserIpAddress: END_USER_IP }).expect(409);
    expect(late.body).toEqual({
      status: 409,
      code: 'CONFLICT',
      message: 'The SCA challenge expired and can no longer be authorized',
      details: { reason: 'SCA_CHALLENGE_EXPIRED', expiresAt: started.body.scaChallenge.expiresAt },
    });
  });

  it('a session runs out: SCA_SESSION_REQUIRED again until the next login', async () => {
    const customerId = await european();
    const session = await scaLogin(api(), customerId);
    await sleep(Date.parse(session.expiresAt) - Date.now() + 50);
    const response = await api().post('/sca/factors').send({ customerId }).expect(409);
    expect(response.body.code).toBe('SCA_SESSION_REQUIRED');
    await scaLogin(api(), customerId);
    await api().post('/sca/factors').send({ customerId }).expect(200);
  });

  it('an enrollment left unconfirmed expires: 409 ENROLLMENT_EXPIRED, and it is no longer listed', async () => {
    const customerId = await european();
    await scaLogin(api(), customerId);
    const started = (await api().post('/sca/factors').send({ customerId }).expect(200)).body;
    await sleep(Date.parse(started.scaChallenge.expiresAt) - Date.now() + 50);
    const attestation = newAuthenticator().register({ challenge: started.scaChallenge.passkeyCreationOptions.challenge });
    const late = await api().post('/sca/factors/confirm').send({ factorId: started.id, passkeyAttestation: attestation, origin: SCA_ORIGIN }).expect(409);
    expect(late.body.details).toEqual({ reason: 'ENROLLMENT_EXPIRED', expiresAt: started.scaChallenge.expiresAt });
    expect((await api().get('/sca/factors').query({ customerId }).expect(200)).body.data).toEqual([]);
  });

  it('the lock runs out: then the count of wrong proofs starts again', async () => {
    const customerId = await european();
    const wrong = { customerId, factor: 'SMS_OTP', code: '111111', endUserIpAddress: END_USER_IP };
    await api().post('/sca/login/start').send({ customerId, factor: 'SMS_OTP' }).expect(200);
    for (let attempt = 1; attempt <= 4; attempt++) await api().post('/sca/login/complete').send(wrong).expect(400);
    const locked = await api().post('/sca/login/complete').send(wrong).expect(423);
    await sleep(Date.parse(locked.body.details.lockedUntil) - Date.now() + 50);
    await eventually(async () => (await api().post('/sca/login/start').send({ customerId, factor: 'SMS_OTP' })).status === 200);
    const again = await api().post('/sca/login/complete').send(wrong).expect(400);
    expect(again.body.details).toMatchObject({ failedAttempts: 1, remainingAttempts: 4 });
    await api().post('/sca/login/complete').send({ ...wrong, code: SMS_CODE }).expect(200);
  });
});
