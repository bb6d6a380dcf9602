import { createIndividual } from '../../support/customer-fixtures';
import { TestApp, startTestApp } from '../../support/test-app';

/** Production mode: no liveness provider is wired, so a 2FA reset cannot start (the wait alone must not gate a factor takeover). */
describe('SCA 2FA reset in production mode', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { SERVICE_MODE: 'production' } });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('POST /sca/factors/reset answers 409 LIVENESS_NOT_AVAILABLE', async () => {
    const customerId = (await createIndividual(testApp.platform.api, { region: 'NL' })).id;
    const response = await testApp.platform.api.post('/sca/factors/reset').query({ customerId }).send({ factor: 'SMS_OTP' }).expect(409);
    expect(response.body).toEqual({
      status: 409,
      code: 'CONFLICT',
      message: 'A 2FA reset needs a liveness check, and no liveness provider is configured',
      details: { reason: 'LIVENESS_NOT_AVAILABLE' },
    });
  });
});
