import { createIndividual } from '../../support/customer-fixtures';
import { SCA_PLATFORM_CONFIG, scaLogin } from '../../support/sca-client';
import { TestApp, TestPlatform, startTestApp } from '../../support/test-app';

const FIFTEEN_MINUTES_MS = 15 * 60 * 1000;

/** `POST /sca/record-event`: the platform's failed logins lock the customer; a password reset clears them and ends the SCA session. */
describe('SCA security events', () => {
  let testApp: TestApp;
  let other: TestPlatform;

  beforeAll(async () => {
    testApp = await startTestApp({ platformConfig: SCA_PLATFORM_CONFIG });
    other = await testApp.createPlatform(SCA_PLATFORM_CONFIG);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  const record = (customerId: string, eventType: string) => api().post('/sca/record-event').query({ customerId }).send({ eventType });

  it('counts failed logins, locks at the fifth (423 while locked, SCA too); a password reset clears it and ends the session', async () => {
    const customerId = (await createIndividual(api(), { region: 'ES' })).id;
    await scaLogin(api(), customerId);
    for (let n = 1; n <= 4; n++) {
      expect((await record(customerId, 'FAILED_LOGIN_ATTEMPT').expect(200)).body).toEqual({ eventType: 'FAILED_LOGIN_ATTEMPT', suspended: false, failedAttempts: n });
    }
    const fifth = (await record(customerId, 'FAILED_LOGIN_ATTEMPT').expect(200)).body;
    expect(fifth).toEqual({ eventType: 'FAILED_LOGIN_ATTEMPT', suspended: false, lockedUntil: expect.any(String), failedAttempts: 5 });
    expect(Date.parse(fifth.lockedUntil) - Date.now()).toBeGreaterThan(FIFTEEN_MINUTES_MS - 60_000);

    const locked = await record(customerId, 'FAILED_LOGIN_ATTEMPT').expect(423);
    expect(locked.body).toEqual({
      status: 423,
      code: 'ACCOUNT_LOCKED',
      message: "The customer's login is locked after too many failed login attempts",
      details: { suspended: false, lockedUntil: fifth.lockedUntil, failedAttempts: 5 },
    });
    // The login lock holds SCA too (login/start declares no 423: a 409 with the lock's details).
    const login = await api().post('/sca/login/start').query({ customerId }).send({ factor: 'SMS_OTP' }).expect(409);
    expect(login.body.details).toEqual({ reason: 'ACCOUNT_LOCKED', suspended: false, lockedUntil: fifth.lockedUntil, failedAttempts: 5 });

    expect((await record(customerId, 'RESET_PASSWORD_COMPLETED').expect(200)).body).toEqual({
      eventType: 'RESET_PASSWORD_COMPLETED',
      suspended: false,
      failedAttempts: 0,
    });
    // The SCA session opened before the reset is gone.
    expect((await api().post('/sca/factors').query({ customerId }).send({ type: 'TOTP' }).expect(409)).body.code).toBe('SCA_SESSION_REQUIRED');
    await scaLogin(api(), customerId);
  });

  it('refuses bad requests with 400 listing every field; 404 for unknown or other platforms\' customers; 409 outside SCA regions', async () => {
    const missing = await api().post('/sca/record-event').send({}).expect(400);
    expect(missing.body.details.errors.map((error: any) => error.field).sort()).toEqual(['customerId', 'eventType']);
    const customerId = (await createIndividual(api(), { region: 'IT' })).id;
    const unknown = await record(customerId, 'PASSWORD_CHANGED').expect(400);
    expect(unknown.body.details.errors).toEqual([expect.objectContaining({ field: 'eventType' })]);

    expect((await record('Customer:019542f5-b3e7-7d02-8000-000000000001', 'FAILED_LOGIN_ATTEMPT').expect(404)).body.code).toBe('USER_NOT_FOUND');
    const foreign = await other.api.post('/sca/record-event').query({ customerId }).send({ eventType: 'FAILED_LOGIN_ATTEMPT' }).expect(404);
    expect(foreign.body.code).toBe('USER_NOT_FOUND');

    const american = (await createIndividual(api(), { region: 'US' })).id;
    const outside = await record(american, 'FAILED_LOGIN_ATTEMPT').expect(409);
    expect(outside.body).toMatchObject({ code: 'CONFLICT', details: { reason: 'SCA_NOT_REQUIRED' } });
  });
});
