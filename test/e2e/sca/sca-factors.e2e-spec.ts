import { createIndividual } from '../../support/customer-fixtures';
import {
  SCA_ORIGIN, SCA_OTHER_ALLOWED_ORIGIN, SCA_PLATFORM_CONFIG, SCA_RP_ID, assertFor, challengeHexOf, enrollPasskey, newAuthenticator, scaLogin,
} from '../../support/sca-client';
import { TestApp, startTestApp } from '../../support/test-app';
import { tamperSignature } from '../../support/webauthn-authenticator';

/** `GET|POST /sca/factors`, `POST /sca/factors/confirm`, `DELETE /sca/factors/{id}`, and passkey SCA login. */
describe('SCA factors and passkey login', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ platformConfig: SCA_PLATFORM_CONFIG });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  const loggedInEuropean = async () => {
    const customerId = (await createIndividual(api(), { region: 'DE', email: 'erika@example.de', fullName: 'Erika Mustermann' })).id as string;
    await scaLogin(api(), customerId);
    return customerId;
  };

  it('enrolls one passkey: POST answers the registration ceremony, confirm verifies the attestation', async () => {
    const customerId = await loggedInEuropean();
    const empty = await api().get('/sca/factors').query({ customerId }).expect(200);
    // `factors` is the contract's list (SMS_OTP is always there); `data` our enrollments.
    expect(empty.body).toEqual({ factors: [{ factor: 'SMS_OTP' }], data: [], availableFactors: ['SMS_OTP'] });

    // As the contract calls it: customer in the query, `type` in the body, 200.
    const started = await api().post('/sca/factors').query({ customerId }).send({ type: 'PASSKEY', nickname: 'Phone' }).expect(200);
    const creationOptions = {
      rp: { id: SCA_RP_ID, name: 'Sandbox platform' },
      user: { id: Buffer.from(customerId).toString('base64url'), name: 'erika@example.de', displayName: 'Erika Mustermann' },
      challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
      timeout: 300000,
      attestation: 'none',
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
      excludeCredentials: [],
    };
    expect(started.body).toEqual({
      id: expect.stringMatching(/^ScaFactor:[0-9a-f-]{36}$/),
      customerId,
      type: 'PASSKEY',
      status: 'PENDING_CONFIRMATION',
      nickname: 'Phone',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      options: creationOptions,
      allowedOrigins: [SCA_ORIGIN, SCA_OTHER_ALLOWED_ORIGIN],
      relyingPartyId: SCA_RP_ID,
      scaChallenge: {
        id: expect.stringMatching(/^ScaChallenge:/),
        expiresAt: expect.any(String),
        factor: 'PASSKEY',
        availableFactors: ['SMS_OTP'],
        passkeyAllowedOrigins: [SCA_ORIGIN, SCA_OTHER_ALLOWED_ORIGIN],
        passkeyCreationOptions: creationOptions,
      },
    });
    expect(started.body.options).toEqual(started.body.scaChallenge.passkeyCreationOptions);
    const { scaChallenge, options, allowedOrigins, relyingPartyId, ...pendingFactor } = started.body;
    expect((await api().get('/sca/factors').query({ customerId }).expect(200)).body).toEqual({
      factors: [{ factor: 'SMS_OTP' }],
      data: [pendingFactor],
      availableFactors: ['SMS_OTP'],
    });

    // Confirmed as the contract threads it: no factor id, the customer in the query, the attestation as `credential`.
    const authenticator = newAuthenticator();
    const attestation = authenticator.register({ challenge: options.challenge, origin: SCA_OTHER_ALLOWED_ORIGIN });
    const confirmed = await api()
      .post('/sca/factors/confirm')
      .query({ customerId })
      .send({ type: 'PASSKEY', credential: attestation, origin: SCA_OTHER_ALLOWED_ORIGIN })
      .expect(200);
    const passkeyFactor = { factor: 'PASSKEY', credentialId: authenticator.credentialId, name: 'Phone' };
    expect(confirmed.body).toEqual({
      ...pendingFactor,
      status: 'ACTIVE',
      credentialId: authenticator.credentialId,
      updatedAt: expect.any(String),
      factor: passkeyFactor,
    });
    const { factor: _enrolled, ...activeFactor } = confirmed.body;
    const listed = await api().get('/sca/factors').query({ customerId }).expect(200);
    expect(listed.body).toEqual({ factors: [{ factor: 'SMS_OTP' }, passkeyFactor], data: [activeFactor], availableFactors: ['SMS_OTP', 'PASSKEY'] });

    const second = await api().post('/sca/factors').send({ customerId }).expect(409);
    expect(second.body).toEqual({
      status: 409,
      code: 'PASSKEY_ALREADY_ENROLLED',
      message: 'The customer already has a passkey; delete it before enrolling another',
    });
    const again = await api()
      .post('/sca/factors/confirm')
      .send({ factorId: started.body.id, passkeyAttestation: attestation, origin: SCA_OTHER_ALLOWED_ORIGIN })
      .expect(409);
    expect(again.body.details).toEqual({ reason: 'FACTOR_ALREADY_CONFIRMED' });
  });

  it('enrolling needs a live SCA session: 409 SCA_SESSION_REQUIRED', async () => {
    const customerId = (await createIndividual(api(), { region: 'DE' })).id;
    const response = await api().post('/sca/factors').send({ customerId }).expect(409);
    expect(response.body).toEqual({
      status: 409,
      code: 'SCA_SESSION_REQUIRED',
      message: 'The customer has no live SCA session: complete an SCA login (POST /sca/login/start, /sca/login/complete) first',
    });
  });

  it('refuses attestations from other origins, for other challenges or relying parties, and forged ones', async () => {
    const customerId = await loggedInEuropean();
    const started = (await api().post('/sca/factors').send({ customerId }).expect(200)).body;
    const challenge = started.scaChallenge.passkeyCreationOptions.challenge;
    const authenticator = newAuthenticator();
    const confirm = (passkeyAttestation: unknown, origin = SCA_ORIGIN) =>
      api().post('/sca/factors/confirm').send({ factorId: started.id, passkeyAttestation, origin }).expect(400);

    const evil = await confirm(authenticator.register({ challenge, origin: 'https://evil.example' }), 'https://evil.example');
    expect(evil.body.details).toEqual({
      errors: [{ field: 'origin', constraint: {}, message: 'origin is not one of passkeyAllowedOrigins' }],
      reason: 'ORIGIN_NOT_ALLOWED',
    });
    const wrongRun = await confirm(authenticator.register({ challenge, origin: 'https://evil.example' }));
    expect(wrongRun.body.details.reason).toBe('ORIGIN_NOT_ALLOWED');
    const declaredOther = await confirm(authenticator.register({ challenge, origin: SCA_OTHER_ALLOWED_ORIGIN }), SCA_ORIGIN);
    expect(declaredOther.body.details.reason).toBe('ORIGIN_NOT_ALLOWED');
    const otherChallenge = await confirm(authenticator.register({ challenge: Buffer.alloc(32, 7).toString('base64url') }));
    expect(otherChallenge.body.details.reason).toBe('CHALLENGE_MISMATCH');
    const otherRp = await confirm(authenticator.register({ challenge, rpId: 'evil.example' }));
    expect(otherRp.body.details.reason).toBe('RP_ID_MISMATCH');
    const malformed = await confirm({ credentialId: 'x' });
    expect(malformed.body.details.reason).toBe('MALFORMED');
    // None of these enrolled anything, nor counted towards the lock.
    await confirm(authenticator.register({ challenge, userPresent: false }));
    const ok = await api().post('/sca/factors/confirm').send({ factorId: started.id, passkeyAttestation: authenticator.register({ challenge }), origin: SCA_ORIGIN }).expect(200);
    expect(ok.body.status).toBe('ACTIVE');
  });

  it('passkey login: assertion over the login challenge, origins from the enrollment, counter checked', async () => {
    const customerId = await loggedInEuropean();
    const authenticator = newAuthenticator();
    await enrollPasskey(api(), customerId, authenticator);

    const started = await api().post('/sca/login/start').send({ customerId, factor: 'PASSKEY' }).expect(200);
    const assertionOptions = {
      rpId: SCA_RP_ID,
      challenge: expect.any(String),
      allowCredentials: [{ type: 'public-key', id: authenticator.credentialId, transports: ['internal'] }],
      userVerification: 'preferred',
      timeout: 300000,
    };
    // The contract's ScaLoginStart for PASSKEY (passkeyOptions, allowedOrigins, relyingPartyId), and the same challenge as an ScaChallenge.
    expect(started.body).toEqual({
      factor: 'PASSKEY',
      challengeId: started.body.scaChallenge.id,
      expiresAt: started.body.scaChallenge.expiresAt,
      passkeyOptions: assertionOptions,
      allowedOrigins: [SCA_ORIGIN, SCA_OTHER_ALLOWED_ORIGIN],
      relyingPartyId: SCA_RP_ID,
      customerId,
      scaChallenge: {
        id: expect.stringMatching(/^ScaChallenge:/),
        expiresAt: expect.any(String),
        factor: 'PASSKEY',
        availableFactors: ['SMS_OTP', 'PASSKEY'],
        passkeyAssertionOptions: assertionOptions,
        passkeyAllowedOrigins: [SCA_ORIGIN, SCA_OTHER_ALLOWED_ORIGIN],
      },
    });
    expect(started.body.passkeyOptions.challenge).toBe(started.body.scaChallenge.passkeyAssertionOptions.challenge);
    const challenge = started.body.scaChallenge;
    expect(challengeHexOf(challenge)).toMatch(/^[0-9a-f]{64}$/);
    const complete = (passkeyAssertion: unknown, origin = SCA_ORIGIN) =>
      api().post('/sca/login/complete').send({ customerId, factor: 'PASSKEY', passkeyAssertion, origin, endUserIpAddress: '2001:db8::1' });

    const wrongOrigin = await complete(assertFor(authenticator, challenge, { origin: 'https://evil.example' }), 'https://evil.example').expect(400);
    expect(wrongOrigin.body.details).toMatchObject({ reason: 'ORIGIN_NOT_ALLOWED', failedAttempts: 1 });
    expect(wrongOrigin.body.details.errors).toEqual([{ field: 'origin', constraint: {}, message: expect.any(String) }]);
    const declaredOther = await complete(assertFor(authenticator, challenge, { origin: SCA_OTHER_ALLOWED_ORIGIN }), SCA_ORIGIN).expect(400);
    expect(declaredOther.body.details).toMatchObject({ reason: 'ORIGIN_NOT_ALLOWED', failedAttempts: 2 });
    const forged = await complete(tamperSignature(assertFor(authenticator, challenge))).expect(400);
    expect(forged.body.details).toMatchObject({ reason: 'SIGNATURE_INVALID', failedAttempts: 3 });
    const session = await complete(assertFor(authenticator, challenge)).expect(200);
    expect(session.body).toMatchObject({ customerId, factor: 'PASSKEY' });

    // A replayed assertion: a valid signature over the next challenge, but a counter already seen.
    const next = (await api().post('/sca/login/start').send({ customerId, factor: 'PASSKEY' }).expect(200)).body.scaChallenge;
    const replayed = await complete(assertFor(authenticator, next, { counter: authenticator.counter })).expect(400);
    expect(replayed.body.details).toMatchObject({ reason: 'COUNTER_NOT_INCREASING', failedAttempts: 1 });
    const stale = await complete(assertFor(authenticator, challenge)).expect(400);
    expect(stale.body.details).toMatchObject({ reason: 'CHALLENGE_MISMATCH', failedAttempts: 2 });
    await complete(assertFor(authenticator, next, { origin: SCA_OTHER_ALLOWED_ORIGIN }), SCA_OTHER_ALLOWED_ORIGIN).expect(200);
  });

  it('DELETE by the WebAuthn credential id and the customerId query parameter, as the contract names the factor', async () => {
    const customerId = await loggedInEuropean();
    const authenticator = newAuthenticator();
    await enrollPasskey(api(), customerId, authenticator);
    const stranger = (await createIndividual(api(), { region: 'DE' })).id;
    await api().delete(`/sca/factors/${authenticator.credentialId}`).query({ customerId: stranger }).expect(404);
    await api().delete(`/sca/factors/${authenticator.credentialId}`).query({ customerId }).expect(204);
    expect((await api().get('/sca/factors').query({ customerId }).expect(200)).body.factors).toEqual([{ factor: 'SMS_OTP' }]);
    await api().delete(`/sca/factors/${authenticator.credentialId}`).query({ customerId }).expect(404);
  });

  it('DELETE removes the passkey (with a live session); then PASSKEY is no longer available', async () => {
    const customerId = await loggedInEuropean();
    const factor = await enrollPasskey(api(), customerId, newAuthenticator());
    const other = await testApp.createPlatform();
    await other.api.delete(`/sca/factors/${factor.id}`).expect(404);
    // The delete declares no 400: what names no customer or no factor is a 404.
    const unnamed = await api().delete('/sca/factors/not-an-id').expect(404);
    expect(unnamed.body).toEqual({ status: 404, code: 'USER_NOT_FOUND', message: 'Customer not found', details: { reason: 'CUSTOMER_ID_MISSING' } });
    const malformedCustomer = await api().delete('/sca/factors/not-an-id').query({ customerId: 'nope' }).expect(404);
    expect(malformedCustomer.body).toEqual({ status: 404, code: 'USER_NOT_FOUND', message: 'Customer not found', details: { reason: 'CUSTOMER_ID_MALFORMED' } });
    const malformedFactor = await api().delete('/sca/factors/ScaFactor:nope').expect(404);
    expect(malformedFactor.body).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'SCA factor not found' });
    const removed = await api().delete(`/sca/factors/${factor.id}`).expect(204);
    expect(removed.text).toBe('');
    expect((await api().get('/sca/factors').query({ customerId }).expect(200)).body).toEqual({ factors: [{ factor: 'SMS_OTP' }], data: [], availableFactors: ['SMS_OTP'] });
    const gone = await api().delete(`/sca/factors/${factor.id}`).expect(404);
    expect(gone.body).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'SCA factor not found' });
    await api().post('/sca/login/start').send({ customerId, factor: 'PASSKEY' }).expect(409);
    // A new passkey may be enrolled once the old one is gone.
    await enrollPasskey(api(), customerId, newAuthenticator());
  });

  it('validates bodies and queries', async () => {
    // GET /sca/factors declares no 400: no usable customerId is a customer not found.
    const list = await api().get('/sca/factors').query({ other: 'x' }).expect(404);
    expect(list.body).toEqual({ status: 404, code: 'USER_NOT_FOUND', message: 'Customer not found', details: { reason: 'CUSTOMER_ID_MISSING' } });
    const malformed = await api().get('/sca/factors').query({ customerId: 'Customer:nope' }).expect(404);
    expect(malformed.body.details).toEqual({ reason: 'CUSTOMER_ID_MALFORMED' });
    const post = await api().post('/sca/factors').send({ customerId: 'Customer:0195f000-0000-7000-8000-000000000000', type: 'SMS_OTP', nickname: '' }).expect(400);
    expect(post.body.details.errors.map((error: { field: string; constraint: object }) => [error.field, error.constraint]).sort()).toEqual([
      ['nickname', { minLength: 1 }],
      ['type', { enum: ['TOTP', 'PASSKEY'] }],
    ]);
    const confirm = await api().post('/sca/factors/confirm').send({ factorId: 'ScaFactor:x', passkeyAttestation: 'text' }).expect(400);
    expect(confirm.body.details.errors.map((error: { field: string; constraint: object }) => [error.field, error.constraint]).sort()).toEqual([
      ['factorId', { format: 'ScaFactor-id' }],
      ['origin', {}],
      ['passkeyAttestation', {}],
    ]);
    const unknown = await api()
      .post('/sca/factors/confirm')
      .send({ factorId: 'ScaFactor:0195f000-0000-7000-8000-000000000000', passkeyAttestation: {}, origin: SCA_ORIGIN })
      .expect(404);
    expect(unknown.body.code).toBe('REFERENCE_NOT_FOUND');
  });

  it('SCA sessions are per customer', async () => {
    const first = await loggedInEuropean();
    const second = (await createIndividual(api(), { region: 'IT' })).id;
    await enrollPasskey(api(), first, newAuthenticator());
    await api().post('/sca/factors').send({ customerId: second }).expect(409);
    await scaLogin(api(), second);
    await api().post('/sca/factors').send({ customerId: second }).expect(200);
  });
});
