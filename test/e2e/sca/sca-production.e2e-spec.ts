import { createIndividual } from '../../support/customer-fixtures';
import { TestApp, startTestApp } from '../../support/test-app';

/** Production mode: no SMS provider is wired, so an SMS_OTP challenge cannot be issued (409, the operation declares no 501). */
describe('SCA in production mode', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { SERVICE_MODE: 'production' } });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('POST /sca/login/start with SMS_OTP answers 409 FACTOR_NOT_AVAILABLE; the sandbox code is not accepted', async () => {
    const customerId = (await createIndividual(testApp.platform.api, { region: 'AT' })).id;
    const response = await testApp.platform.api.post('/sca/login/start').send({ customerId, factor: 'SMS_OTP' }).expect(409);
    expect(response.body).toEqual({
      status: 409,
      code: 'CONFLICT',
      message: 'SMS delivery of SCA codes is not configured in production mode; use PASSKEY',
      details: { reason: 'FACTOR_NOT_AVAILABLE', factor: 'SMS_OTP' },
    });
    const complete = await testApp.platform.api
      .post('/sca/login/complete')
      .send({ customerId, factor: 'SMS_OTP', code: '123456', endUserIpAddress: '203.0.113.7' })
      .expect(409);
    expect(complete.body.details).toEqual({ reason: 'NO_PENDING_CHALLENGE' });
  });
});
