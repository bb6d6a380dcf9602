import { createIndividual } from '../../support/customer-fixtures';
import { SCA_PLATFORM_CONFIG, enrollPasskey, enrollTotp, newAuthenticator, scaLogin } from '../../support/sca-client';
import { TestApp, TestPlatform, eventually, startTestApp } from '../../support/test-app';

/** Short enough for a test, long enough to see the reset refused before the wait ends. */
const WAIT_MS = 1500;
const WINDOW_MS = 4000;

/**
 * The 2FA reset: `POST /sca/factors/reset`, `GET /sca/factors/reset/{id}`,
 * `POST /sca/factors/reset/{id}/complete`; the waiting period and the window as scheduled tasks,
 * the factor replaced only at completion, every step in the reset's audit history.
 */
describe('SCA 2FA reset', () => {
  let testApp: TestApp;
  let other: TestPlatform;

  beforeAll(async () => {
    testApp = await startTestApp({
      platformConfig: SCA_PLATFORM_CONFIG,
      env: { SCA_FACTOR_RESET_WAIT_MS: String(WAIT_MS), SCA_FACTOR_RESET_WINDOW_MS: String(WINDOW_MS) },
    });
    other = await testApp.createPlatform(SCA_PLATFORM_CONFIG);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  const european = async () => (await createIndividual(api(), { region: 'DE' })).id as string;
  const start = (customerId: string, factor: string) => api().post('/sca/factors/reset').query({ customerId }).send({ factor });
  const status = (customerId: string, resetId: string) => api().get(`/sca/factors/reset/${resetId}`).query({ customerId });
  const complete = (customerId: string, resetId: string, body?: object) => {
    const request = api().post(`/sca/factors/reset/${resetId}/complete`).query({ customerId });
    return body === undefined ? request : request.send(body);
  };
  const untilStatus = (customerId: string, resetId: string, wanted: string) =>
    eventually(async () => {
      const response = await status(customerId, resetId).expect(200);
      return response.body.status === wanted ? response.body : null;
    }, WAIT_MS + WINDOW_MS + 5000);

  it('resets TOTP: refused during the wait, completed after it; the factor goes and the customer enrolls again', async () => {
    const customerId = await european();
    await scaLogin(api(), customerId);
    await enrollTotp(api(), customerId);

    const started = await start(customerId, 'TOTP').expect(201);
    expect(started.body).toEqual({ resetId: expect.stringMatching(/^ScaFactorReset:[0-9a-f-]{36}$/), expiresAt: expect.any(String) });
    const { resetId, expiresAt } = started.body;
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(WINDOW_MS);
    expect((await status(customerId, resetId).expect(200)).body).toEqual({ status: 'INITIATED', factor: 'TOTP', expiresAt });

    // Too early: the waiting period has not ended, nothing changes.
    const early = await complete(customerId, resetId).expect(400);
    expect(early.body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: 'The reset is not ready: its waiting period has not ended',
      details: { reason: 'RESET_NOT_READY', livenessAvailableAt: expect.any(String) },
    });
    expect((await api().get('/sca/factors').query({ customerId }).expect(200)).body.factors).toEqual([{ factor: 'SMS_OTP' }, { factor: 'TOTP' }]);

    await untilStatus(customerId, resetId, 'LIVENESS_PASSED');
    await complete(customerId, resetId).expect(204);
    const completed = (await status(customerId, resetId).expect(200)).body;
    expect(completed).toEqual({ status: 'COMPLETED', factor: 'TOTP', enrollmentStatus: 'PENDING', expiresAt, completedAt: expect.any(String) });
    expect((await api().get('/sca/factors').query({ customerId }).expect(200)).body.factors).toEqual([{ factor: 'SMS_OTP' }]);
    // The completion ended the SCA session: enrolling again starts with a login.
    const noSession = await api().post('/sca/factors').query({ customerId }).send({ type: 'TOTP' }).expect(409);
    expect(noSession.body.code).toBe('SCA_SESSION_REQUIRED');
    await scaLogin(api(), customerId);
    await enrollTotp(api(), customerId);
    expect((await status(customerId, resetId).expect(200)).body.enrollmentStatus).toBe('COMPLETED');

    const again = await complete(customerId, resetId).expect(409);
    expect(again.body).toMatchObject({ code: 'CONFLICT', details: { reason: 'RESET_ALREADY_COMPLETED' } });

    // Every step is in the reset's history, with who did it.
    const history = (await api().get('/audit/events').query({ resourceId: resetId }).expect(200)).body;
    expect(history.data.map((entry: any) => [entry.type, entry.metadata.actor])).toEqual([
      ['ScaFactorResetStarted', expect.stringMatching(/^platform:/)],
      ['ScaFactorResetLivenessPassed', 'system:task:sca.factor-reset.pass-wait'],
      ['ScaFactorResetCompleted', expect.stringMatching(/^platform:/)],
    ]);
    await other.api.get('/audit/events').query({ resourceId: resetId }).expect(404);
  });

  it('resets a passkey: the passkey is removed at completion', async () => {
    const customerId = await european();
    await scaLogin(api(), customerId);
    await enrollPasskey(api(), customerId, newAuthenticator());
    const { resetId } = (await start(customerId, 'PASSKEY').expect(201)).body;
    await untilStatus(customerId, resetId, 'LIVENESS_PASSED');
    expect((await api().get('/sca/factors').query({ customerId }).expect(200)).body.availableFactors).toEqual(['SMS_OTP', 'PASSKEY']);
    await complete(customerId, resetId).expect(204);
    expect((await api().get('/sca/factors').query({ customerId }).expect(200)).body).toEqual({
      factors: [{ factor: 'SMS_OTP' }],
      data: [],
      availableFactors: ['SMS_OTP'],
    });
    expect((await status(customerId, resetId).expect(200)).body.enrollmentStatus).toBe('PENDING');
  });

  it('resets SMS_OTP with the new number: mobile is required and checked', async () => {
    const customerId = await european();
    const { resetId } = (await start(customerId, 'SMS_OTP').expect(201)).body;
    await untilStatus(customerId, resetId, 'LIVENESS_PASSED');
    const missing = await complete(customerId, resetId).expect(400);
    expect(missing.body).toMatchObject({ code: 'INVALID_INPUT', details: { errors: [expect.objectContaining({ field: 'mobile' })] } });
    const bad = await complete(customerId, resetId, { mobile: { countryCode: '49', number: 'x' } }).expect(400);
    expect(bad.body.details.errors.map((error: any) => error.field).sort()).toEqual(['mobile.countryCode', 'mobile.number']);
    await complete(customerId, resetId, { mobile: { countryCode: '+49', number: '15123456789' } }).expect(204);
    const done = (await status(customerId, resetId).expect(200)).body;
    expect(done).toEqual({ status: 'COMPLETED', factor: 'SMS_OTP', expiresAt: expect.any(String), completedAt: expect.any(String) });
    const history = (await api().get('/audit/events').query({ resourceId: resetId }).expect(200)).body;
    // The number is sealed: the history shows its last digits only.
    expect(history.data[2].data).toMatchObject({ mobileVaultId: `sca-sms-mobile:${resetId}`, mobileLast4: '6789' });
    expect(JSON.stringify(history)).not.toContain('15123456789');
  });

  it('expires a reset not completed within its window (a scheduled task); completing it then is 409', async () => {
    const customerId = await european();
    const { resetId } = (await start(customerId, 'SMS_OTP').expect(201)).body;
    await untilStatus(customerId, resetId, 'EXPIRED');
    const late = await complete(customerId, resetId, { mobile: { countryCode: '+49', number: '15123456789' } }).expect(409);
    expect(late.body).toMatchObject({ code: 'CONFLICT', details: { reason: 'RESET_EXPIRED' } });
    const history = (await api().get('/audit/events').query({ resourceId: resetId }).expect(200)).body;
    expect(history.data.map((entry: any) => [entry.type, entry.metadata.actor])).toEqual([
      ['ScaFactorResetStarted', expect.stringMatching(/^platform:/)],
      ['ScaFactorResetLivenessPassed', 'system:task:sca.factor-reset.pass-wait'],
      ['ScaFactorResetExpired', 'system:task:sca.factor-reset.expire'],
    ]);
  });

  it('refuses bad requests with 400, listing every bad field; a factor not enrolled is 400', async () => {
    const customerId = await european();
    const missing = await api().post('/sca/factors/reset').send({}).expect(400);
    expect(missing.body.details.errors.map((error: any) => error.field).sort()).toEqual(['customerId', 'factor']);
    const unknown = await start(customerId, 'EMAIL').expect(400);
    expect(unknown.body.details.errors).toEqual([expect.objectContaining({ field: 'factor' })]);
    for (const factor of ['TOTP', 'PASSKEY']) {
      const notEnrolled = await start(customerId, factor).expect(400);
      expect(notEnrolled.body.details.errors).toEqual([{ field: 'factor', constraint: {}, message: `The customer has no enrolled ${factor} factor to reset` }]);
    }
    const someReset = 'ScaFactorReset:019542f5-b3e7-7d02-8000-000000000001';
    const completeMissing = await api().post(`/sca/factors/reset/${someReset}/complete`).expect(400);
    expect(completeMissing.body.details.errors).toEqual([expect.objectContaining({ field: 'customerId' })]);
    // The status declares no 400: without a customer it names none.
    const statusMissing = await api().get(`/sca/factors/reset/${someReset}`).expect(404);
    expect(statusMissing.body).toMatchObject({ code: 'USER_NOT_FOUND', details: { reason: 'CUSTOMER_ID_MISSING' } });
  });

  it('answers 404 for unknown customers and resets and for those of another customer or platform; 409 outside SCA regions', async () => {
    const customerId = await european();
    const { resetId } = (await start(customerId, 'SMS_OTP').expect(201)).body;
    const unknownCustomer = 'Customer:019542f5-b3e7-7d02-8000-000000000001';
    expect((await start(unknownCustomer, 'SMS_OTP').expect(404)).body.code).toBe('USER_NOT_FOUND');
    expect((await status(unknownCustomer, resetId).expect(404)).body.code).toBe('USER_NOT_FOUND');
    expect((await complete(unknownCustomer, resetId).expect(404)).body.code).toBe('USER_NOT_FOUND');
    for (const id of ['ScaFactorReset:019542f5-b3e7-7d02-8000-000000000009', 'not-a-reset']) {
      expect((await status(customerId, id).expect(404)).body.code).toBe('REFERENCE_NOT_FOUND');
      expect((await complete(customerId, id).expect(404)).body.code).toBe('REFERENCE_NOT_FOUND');
    }
    // Another customer of the same platform does not see it.
    const neighbour = await european();
    expect((await status(neighbour, resetId).expect(404)).body.code).toBe('REFERENCE_NOT_FOUND');
    // Another platform sees neither the customer nor the reset.
    expect((await other.api.get(`/sca/factors/reset/${resetId}`).query({ customerId }).expect(404)).body.code).toBe('USER_NOT_FOUND');
    expect((await other.api.post(`/sca/factors/reset/${resetId}/complete`).query({ customerId }).expect(404)).body.code).toBe('USER_NOT_FOUND');
    expect((await other.api.post('/sca/factors/reset').query({ customerId }).send({ factor: 'SMS_OTP' }).expect(404)).body.code).toBe('USER_NOT_FOUND');
    const foreigner = (await createIndividual(other.api, { region: 'FR' })).id;
    const foreignReset = (await other.api.post('/sca/factors/reset').query({ customerId: foreigner }).send({ factor: 'SMS_OTP' }).expect(201)).body.resetId;
    expect((await status(customerId, foreignReset).expect(404)).body.code).toBe('REFERENCE_NOT_FOUND');

    const american = (await createIndividual(api(), { region: 'US' })).id;
    for (const response of [await start(american, 'SMS_OTP'), await status(american, resetId), await complete(american, resetId)]) {
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ code: 'CONFLICT', details: { reason: 'SCA_NOT_REQUIRED' } });
    }
  });

  it('allows 5 reset starts per customer per 24 hours, then 429 with Retry-After', async () => {
    const customerId = await european();
    for (let n = 0; n < 5; n++) await start(customerId, 'SMS_OTP').expect(201);
    const limited = await start(customerId, 'SMS_OTP').expect(429);
    expect(limited.body).toMatchObject({ status: 429, code: 'RATE_LIMITED', details: { reason: 'FACTOR_RESET_LIMIT_REACHED' } });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});
