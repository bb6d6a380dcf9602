import { createIndividual } from '../../support/customer-fixtures';
import { END_USER_IP, SCA_PLATFORM_CONFIG, SMS_CODE } from '../../support/sca-client';
import { TestApp, startTestApp } from '../../support/test-app';

const DAY_MS = 24 * 60 * 60 * 1000;

/** `POST /sca/login/start` and `/sca/login/complete` with SMS codes; the lock after five wrong proofs. */
describe('SCA login', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ platformConfig: SCA_PLATFORM_CONFIG });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  const european = async () => (await createIndividual(api(), { region: 'FR' })).id as string;

  it('SMS_OTP: start issues a 5-minute challenge, complete with 123456 gives a 180-day session', async () => {
    const customerId = await european();
    const before = Date.now();
    const started = await api().post('/sca/login/start').send({ customerId, factor: 'SMS_OTP' }).expect(200);
    // The contract's ScaLoginStart (factor, challengeId, expiresAt), and the same challenge as an ScaChallenge.
    expect(started.body).toEqual({
      factor: 'SMS_OTP',
      challengeId: started.body.scaChallenge.id,
      expiresAt: started.body.scaChallenge.expiresAt,
      customerId,
      scaChallenge: { id: expect.stringMatching(/^ScaChallenge:[0-9a-f-]{36}$/), expiresAt: expect.any(String), factor: 'SMS_OTP', availableFactors: ['SMS_OTP'] },
    });
    const expiresInMs = Date.parse(started.body.scaChallenge.expiresAt) - before;
    expect(expiresInMs).toBeGreaterThan(4.9 * 60 * 1000);
    expect(expiresInMs).toBeLessThanOrEqual(5 * 60 * 1000 + 5000);

    const session = await api()
      .post('/sca/login/complete')
      .send({ customerId, factor: 'SMS_OTP', code: SMS_CODE, endUserIpAddress: END_USER_IP })
      .expect(200);
    expect(session.body).toEqual({
      status: 'SUCCESS',
      sessionExpiresAt: session.body.expiresAt,
      id: expect.stringMatching(/^Session:[0-9a-f-]{36}$/),
      customerId,
      factor: 'SMS_OTP',
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
    });
    const lifetimeMs = Date.parse(session.body.expiresAt) - Date.parse(session.body.createdAt);
    expect(lifetimeMs).toBe(180 * DAY_MS);

    // The code was accepted once: the login challenge is spent.
    const again = await api()
      .post('/sca/login/complete')
      .send({ customerId, factor: 'SMS_OTP', code: SMS_CODE, endUserIpAddress: END_USER_IP })
      .expect(409);
    expect(again.body).toEqual({ status: 409, code: 'CONFLICT', message: 'No SCA login is in progress; start one first', details: { reason: 'NO_PENDING_CHALLENGE' } });
  });

  it('a wrong code is 400 INVALID_INPUT naming the field, with the count of wrong proofs', async () => {
    const customerId = await european();
    await api().post('/sca/login/start').send({ customerId, factor: 'SMS_OTP' }).expect(200);
    const wrong = await api().post('/sca/login/complete').send({ customerId, factor: 'SMS_OTP', code: '000000', endUserIpAddress: END_USER_IP }).expect(400);
    expect(wrong.body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: 'The code is not valid for this challenge',
      details: {
        errors: [{ field: 'code', constraint: {}, message: 'The code is not valid for this challenge' }],
        reason: 'WRONG_CODE',
        failedAttempts: 1,
        remainingAttempts: 4,
      },
    });
    // A correct code still works, and ends the run of wrong ones.
    await api().post('/sca/login/complete').send({ customerId, factor: 'SMS_OTP', code: SMS_CODE, endUserIpAddress: END_USER_IP }).expect(200);
  });

  it('five wrong proofs in a row lock SCA: 423 ACCOUNT_LOCKED for 15 minutes, even for the right code', async () => {
    const customerId = await european();
    await api().post('/sca/login/start').send({ customerId, factor: 'SMS_OTP' }).expect(200);
    const body = { customerId, factor: 'SMS_OTP', code: '999999', endUserIpAddress: END_USER_IP };
    for (let attempt = 1; attempt <= 4; attempt++) {
      const response = await api().post('/sca/login/complete').send(body).expect(400);
      expect(response.body.details).toMatchObject({ failedAttempts: attempt, remainingAttempts: 5 - attempt });
    }
    const before = Date.now();
    const locked = await api().post('/sca/login/complete').send(body).expect(423);
    expect(locked.body).toEqual({
      status: 423,
      code: 'ACCOUNT_LOCKED',
      message: 'Strong Customer Authentication is locked for this customer after too many wrong proofs',
      details: { suspended: true, lockedUntil: expect.any(String), failedAttempts: 5 },
    });
    const lockMs = Date.parse(locked.body.details.lockedUntil) - before;
    expect(lockMs).toBeGreaterThan(14.9 * 60 * 1000);
    expect(lockMs).toBeLessThanOrEqual(15 * 60 * 1000 + 5000);

    const right = await api().post('/sca/login/complete').send({ ...body, code: SMS_CODE }).expect(423);
    expect(right.body.details).toEqual(locked.body.details);
    // /sca/login/start declares no 423: the lock is a 409 there, with the same details.
    const start = await api().post('/sca/login/start').send({ customerId, factor: 'SMS_OTP' }).expect(409);
    expect(start.body).toEqual({ status: 409, code: 'CONFLICT', message: locked.body.message, details: { reason: 'ACCOUNT_LOCKED', ...locked.body.details } });
  });

  it('takes the customer from the customerId query parameter (the contract), and refuses a body naming another one', async () => {
    const customerId = await european();
    const started = await api().post('/sca/login/start').query({ customerId }).send({ factor: 'SMS_OTP' }).expect(200);
    expect(started.body.customerId).toBe(customerId);
    const session = await api()
      .post('/sca/login/complete')
      .query({ customerId })
      .send({ factor: 'SMS_OTP', code: SMS_CODE, endUserIpAddress: END_USER_IP, challengeId: started.body.challengeId, passkeyAssertion: null, origin: null })
      .expect(200);
    expect(session.body).toEqual(expect.objectContaining({ status: 'SUCCESS', customerId }));
    const other = await european();
    const mismatch = await api().post('/sca/login/start').query({ customerId }).send({ customerId: other, factor: 'SMS_OTP' }).expect(400);
    expect(mismatch.body.details.errors).toEqual([{ field: 'customerId', constraint: {}, message: 'The customerId query parameter and body field name different customers' }]);
    const missing = await api().post('/sca/login/start').send({ factor: 'SMS_OTP' }).expect(400);
    expect(missing.body.details.errors).toEqual([{ field: 'customerId', constraint: {}, message: 'customerId is required (query parameter)' }]);
  });

  it('complete refuses a challengeId that is not the pending login challenge', async () => {
    const customerId = await european();
    await api().post('/sca/login/start').query({ customerId }).send({ factor: 'SMS_OTP' }).expect(200);
    const stale = await api()
      .post('/sca/login/complete')
      .query({ customerId })
      .send({ factor: 'SMS_OTP', code: SMS_CODE, endUserIpAddress: END_USER_IP, challengeId: 'ScaChallenge:0199a000-0000-7000-8000-000000000001' })
      .expect(400);
    expect(stale.body.details.errors.map((error: { field: string }) => error.field)).toEqual(['challengeId']);
  });

  it('customers outside SCA regions get 409 from every SCA endpoint', async () => {
    const american = (await createIndividual(api(), { region: 'US' })).id;
    const noRegion = (await createIndividual(api())).id;
    const expected = { status: 409, code: 'CONFLICT', message: 'Strong Customer Authentication does not apply to this customer', details: { reason: 'SCA_NOT_REQUIRED' } };
    for (const customerId of [american, noRegion]) {
      expect((await api().post('/sca/login/start').send({ customerId, factor: 'SMS_OTP' }).expect(409)).body).toEqual(expected);
      const complete = await api().post('/sca/login/complete').send({ customerId, factor: 'SMS_OTP', code: SMS_CODE, endUserIpAddress: END_USER_IP }).expect(409);
      expect(complete.body).toEqual(expected);
      expect((await api().get('/sca/factors').query({ customerId }).expect(409)).body).toEqual(expected);
      expect((await api().post('/sca/factors').send({ customerId }).expect(409)).body).toEqual(expected);
    }
  });

  it('unknown, deleted and other platforms\' customers', async () => {
    const unknown = 'Customer:0195f000-0000-7000-8000-000000000000';
    const notFound = await api().post('/sca/login/start').send({ customerId: unknown, factor: 'SMS_OTP' }).expect(404);
    expect(notFound.body).toEqual({ status: 404, code: 'USER_NOT_FOUND', message: 'Customer not found' });
    const customerId = await european();
    const other = await testApp.createPlatform();
    await other.api.post('/sca/login/start').send({ customerId, factor: 'SMS_OTP' }).expect(404);
    await api().delete(`/customers/${customerId}`).expect(200);
    // The SCA operations declare no 410: a deleted customer is not found, the reason says why.
    const gone = await api().post('/sca/login/start').send({ customerId, factor: 'SMS_OTP' }).expect(404);
    expect(gone.body).toEqual({ status: 404, code: 'USER_NOT_FOUND', message: 'The customer was deleted', details: { reason: 'CUSTOMER_DELETED' } });
  });

  it('TOTP and PASSKEY logins need an enrolled factor: 409', async () => {
    const customerId = await european();
    for (const factor of ['TOTP', 'PASSKEY']) {
      const response = await api().post('/sca/login/start').send({ customerId, factor }).expect(409);
      expect(response.body).toEqual({ status: 409, code: 'CONFLICT', message: `The customer has no enrolled ${factor} factor`, details: { reason: 'FACTOR_NOT_ENROLLED', factor } });
    }
  });

  it('complete needs a started login with the same factor and the proof that factor takes', async () => {
    const customerId = await european();
    const early = await api().post('/sca/login/complete').send({ customerId, factor: 'SMS_OTP', code: SMS_CODE, endUserIpAddress: END_USER_IP }).expect(409);
    expect(early.body.details).toEqual({ reason: 'NO_PENDING_CHALLENGE' });
    await api().post('/sca/login/start').send({ customerId, factor: 'SMS_OTP' }).expect(200);
    const otherFactor = await api().post('/sca/login/complete').send({ customerId, factor: 'PASSKEY', code: SMS_CODE, endUserIpAddress: END_USER_IP }).expect(400);
    expect(otherFactor.body.details.errors).toEqual([{ field: 'factor', constraint: { enum: ['SMS_OTP'] }, message: 'The pending login challenge was issued for SMS_OTP' }]);
    const noCode = await api()
      .post('/sca/login/complete')
      .send({ customerId, factor: 'SMS_OTP', origin: 'https://bank.example', endUserIpAddress: END_USER_IP })
      .expect(400);
    expect(noCode.body.details.errors).toEqual([
      { field: 'code', constraint: {}, message: 'code is required for an SMS_OTP challenge' },
      { field: 'origin', constraint: {}, message: 'origin is only for PASSKEY challenges' },
    ]);
    // Neither counted as a wrong proof.
    const ok = await api().post('/sca/login/complete').send({ customerId, factor: 'SMS_OTP', code: SMS_CODE, endUserIpAddress: END_USER_IP }).expect(200);
    expect(ok.body.factor).toBe('SMS_OTP');
  });

  it('validates bodies, listing every bad field', async () => {
    const start = await api().post('/sca/login/start').send({ customerId: 'nope', factor: 'EMAIL', extra: 1 }).expect(400);
    expect(start.body.code).toBe('INVALID_INPUT');
    expect(start.body.details.errors.map((error: { field: string; constraint: object }) => [error.field, error.constraint]).sort()).toEqual([
      ['customerId', { format: 'Customer-id' }],
      ['extra', {}],
      ['factor', { enum: ['SMS_OTP', 'TOTP', 'PASSKEY'] }],
    ]);
    const complete = await api().post('/sca/login/complete').send({ code: 123456, endUserIpAddress: '999.1.1.1' }).expect(400);
    expect(complete.body.details.errors.map((error: { field: string; constraint: object }) => [error.field, error.constraint]).sort()).toEqual([
      ['code', {}],
      ['customerId', {}],
      ['endUserIpAddress', { format: 'ip' }],
      ['factor', {}],
    ]);
    const missingIp = await api().post('/sca/login/complete').send({ customerId: 'Customer:0195f000-0000-7000-8000-000000000000', factor: 'SMS_OTP', code: SMS_CODE }).expect(400);
    expect(missingIp.body.details.errors).toEqual([{ field: 'endUserIpAddress', constraint: {}, message: expect.any(String) }]);
    await api().post('/sca/login/start').send([]).expect(400);
  });

  it('the platform credentials are checked first: 401, not an SCA answer', async () => {
    const response = await testApp.platform.api.post('/sca/login/start').auth('nobody', 'wrong').send({}).expect(401);
    expect(response.body.code).toBe('UNAUTHORIZED');
  });
});
