import { Pool } from 'pg';
import { createIndividual } from '../../support/customer-fixtures';
import { END_USER_IP, SCA_PLATFORM_CONFIG, SMS_CODE, enrollTotp, scaLogin, totpCodeOf } from '../../support/sca-client';
import { europeanSender, quoteTo } from '../../support/sca-quote-fixtures';
import { TestApp, startTestApp } from '../../support/test-app';

const RECOVERY_CODE = /^[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}$/;
const WRONG_CODE_MESSAGE = 'The code is not valid for this challenge';

/** The TOTP factor: enrollment (`POST /sca/factors`, `/sca/factors/confirm`), listing, TOTP logins, recovery codes and the lock. */
describe('SCA TOTP factor', () => {
  let testApp: TestApp;
  let pool: Pool;

  beforeAll(async () => {
    testApp = await startTestApp({ platformConfig: SCA_PLATFORM_CONFIG });
    pool = new Pool({ connectionString: testApp.databaseUrl, max: 2 });
  });

  afterAll(async () => {
    await pool?.end();
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  const loggedInEuropean = async () => {
    const customerId = (await createIndividual(api(), { region: 'DE', email: 'erika@example.de' })).id as string;
    await scaLogin(api(), customerId);
    return customerId;
  };
  const startLogin = (customerId: string) => api().post('/sca/login/start').query({ customerId }).send({ factor: 'TOTP' });
  const completeLogin = (customerId: string, code: string) =>
    api().post('/sca/login/complete').query({ customerId }).send({ factor: 'TOTP', code, endUserIpAddress: END_USER_IP });
  const wrongProof = (reason: string, failedAttempts: number, message = WRONG_CODE_MESSAGE) => ({
    status: 400,
    code: 'INVALID_INPUT',
    message,
    details: { errors: [{ field: 'code', constraint: {}, message }], reason, failedAttempts, remainingAttempts: 5 - failedAttempts },
  });

  it('enrolls: start answers the secret and otpauth URI, confirm checks the first code and answers the recovery codes once', async () => {
    const customerId = await loggedInEuropean();
    const started = await api().post('/sca/factors').query({ customerId }).send({ type: 'TOTP' }).expect(200);
    const secret: string = started.body.secret;
    // 160 bits in base32: 32 characters, no padding.
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(started.body).toEqual({
      type: 'TOTP',
      secret,
      secretBase32Encoded: secret,
      totpUri: `otpauth://totp/Service:erika%40example.de?secret=${secret}&issuer=Service`,
    });
    // Pending: not listed yet.
    expect((await api().get('/sca/factors').query({ customerId }).expect(200)).body.factors).toEqual([{ factor: 'SMS_OTP' }]);

    const confirm = (body: Record<string, unknown>) => api().post('/sca/factors/confirm').query({ customerId }).send({ type: 'TOTP', ...body });
    const wrongCode = await confirm({ secret, code: totpCodeOf(secret, 5) }).expect(400);
    expect(wrongCode.body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: 'The code is not valid for this TOTP secret',
      details: { errors: [{ field: 'code', constraint: {}, message: 'The code is not valid for this TOTP secret' }], reason: 'WRONG_CODE' },
    });
    const unknownSecret = await confirm({ secret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', code: totpCodeOf('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ') }).expect(400);
    expect(unknownSecret.body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: expect.any(String),
      details: { errors: [{ field: 'secret', constraint: {}, message: 'secret is not the secret of the pending TOTP enrollment: start one with POST /sca/factors' }] },
    });
    const notBase32 = await confirm({ secret: 'not base32!', code: '123456' }).expect(400);
    expect(notBase32.body.details).toEqual({ errors: [{ field: 'secret', constraint: {}, message: 'secret must be the base32 secret POST /sca/factors answered' }] });
    // Neither counted towards the lock.
    expect((await api().post('/sca/login/start').query({ customerId }).send({ factor: 'SMS_OTP' }).expect(200)).body.factor).toBe('SMS_OTP');

    // As an authenticator app shows it: grouped and lowercase is the same secret.
    const grouped = secret.toLowerCase().replace(/(.{4})/g, '$1 ').trim();
    const confirmed = await confirm({ secret: grouped, code: totpCodeOf(secret) }).expect(200);
    expect(confirmed.body).toEqual({ type: 'TOTP', recoveryCodes: expect.any(Array) });
    const recoveryCodes: string[] = confirmed.body.recoveryCodes;
    expect(recoveryCodes).toHaveLength(10);
    for (const code of recoveryCodes) expect(code).toMatch(RECOVERY_CODE);
    expect(new Set(recoveryCodes).size).toBe(10);

    // Listed as the contract shows TOTP: no credentialId. Per-transaction challenges never offer it.
    expect((await api().get('/sca/factors').query({ customerId }).expect(200)).body).toEqual({
      factors: [{ factor: 'SMS_OTP' }, { factor: 'TOTP' }],
      data: [],
      availableFactors: ['SMS_OTP'],
    });
    const again = await confirm({ secret, code: totpCodeOf(secret) }).expect(409);
    expect(again.body).toEqual({ status: 409, code: 'CONFLICT', message: 'The TOTP enrollment was already confirmed', details: { reason: 'FACTOR_ALREADY_CONFIRMED' } });

    // Neither the secret nor a recovery code is anywhere in the database in clear (events, read models, ...).
    const secretHex = Buffer.from(base32Bytes(secret)).toString('hex');
    const stored = await databaseText(pool);
    for (const needle of [secret, secretHex, ...recoveryCodes, ...recoveryCodes.map((code) => code.replace(/-/g, ''))]) expect(stored).not.toContain(needle);
    const types = await pool.query(`SELECT event_type FROM events WHERE stream_name = $1 AND event_type LIKE 'ScaTotp%' ORDER BY global_position`, [profileStream(customerId)]);
    expect(types.rows.map((row) => row.event_type)).toEqual(['ScaTotpEnrollmentStarted', 'ScaTotpEnrolled']);
  });

  it('enrollment needs a live SCA session; confirm validates the fields of each type, listing every bad one', async () => {
    const customerId = (await createIndividual(api(), { region: 'DE' })).id as string;
    const noSession = await api().post('/sca/factors').query({ customerId }).send({ type: 'TOTP' }).expect(409);
    expect(noSession.body.code).toBe('SCA_SESSION_REQUIRED');
    const missing = await api().post('/sca/factors/confirm').query({ customerId }).send({ type: 'TOTP', origin: 'https://bank.example' }).expect(400);
    expect(missing.body.details.errors).toEqual([
      { field: 'secret', constraint: {}, message: 'secret is required: the secret POST /sca/factors answered' },
      { field: 'code', constraint: {}, message: 'code is required: the code the authenticator app shows' },
      { field: 'origin', constraint: {}, message: 'origin is only for PASSKEY confirmations' },
    ]);
    const passkeyWithTotpFields = await api().post('/sca/factors/confirm').query({ customerId }).send({ type: 'PASSKEY', secret: 'ABC', code: '123456', credential: {} }).expect(400);
    expect(passkeyWithTotpFields.body.details.errors).toEqual([
      { field: 'secret', constraint: {}, message: 'secret is only for TOTP confirmations' },
      { field: 'code', constraint: {}, message: 'code is only for TOTP confirmations' },
      { field: 'origin', constraint: {}, message: 'origin is required: the origin the attestation ran against' },
    ]);
  });

  it('TOTP login: start answers only the factor; complete takes the code the app shows, once', async () => {
    const customerId = await loggedInEuropean();
    const { secret } = await enrollTotp(api(), customerId);
    const started = await startLogin(customerId).expect(200);
    expect(started.body).toEqual({ factor: 'TOTP', customerId });

    const wrong = await completeLogin(customerId, totpCodeOf(secret, -5)).expect(400);
    expect(wrong.body).toEqual(wrongProof('WRONG_CODE', 1));
    // The next step's code: the enrollment spent the current one.
    const code = totpCodeOf(secret, 1);
    const session = await completeLogin(customerId, code).expect(200);
    expect(session.body).toEqual({
      status: 'SUCCESS',
      sessionExpiresAt: session.body.expiresAt,
      id: expect.stringMatching(/^Session:[0-9a-f-]{36}$/),
      customerId,
      factor: 'TOTP',
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
    });
    // The login is used once, and so is the code (RFC 6238 section 5.2): a replay is a wrong proof.
    expect((await completeLogin(customerId, code).expect(409)).body.details).toEqual({ reason: 'NO_PENDING_CHALLENGE' });
    await startLogin(customerId).expect(200);
    const replayed = await completeLogin(customerId, code).expect(400);
    expect(replayed.body).toEqual(wrongProof('CODE_ALREADY_USED', 1, 'The code was already used; wait for the next one'));
    // The proof a TOTP login takes is a code.
    const passkeyProof = await api()
      .post('/sca/login/complete')
      .query({ customerId })
      .send({ factor: 'TOTP', passkeyAssertion: {}, origin: 'https://bank.example', endUserIpAddress: END_USER_IP })
      .expect(400);
    expect(passkeyProof.body.details.errors).toEqual([
      { field: 'code', constraint: {}, message: 'code is required for a TOTP challenge' },
      { field: 'passkeyAssertion', constraint: {}, message: 'passkeyAssertion is only for PASSKEY challenges' },
      { field: 'origin', constraint: {}, message: 'origin is only for PASSKEY challenges' },
    ]);
    const otherFactor = await api().post('/sca/login/complete').query({ customerId }).send({ factor: 'SMS_OTP', code: SMS_CODE, endUserIpAddress: END_USER_IP }).expect(400);
    expect(otherFactor.body.details.errors).toEqual([{ field: 'factor', constraint: { enum: ['TOTP'] }, message: 'The pending login challenge was issued for TOTP' }]);
  });

  it('sandbox: 123456 is also accepted, at confirm and at login', async () => {
    const customerId = await loggedInEuropean();
    const started = await api().post('/sca/factors').query({ customerId }).send({ type: 'TOTP' }).expect(200);
    await api().post('/sca/factors/confirm').query({ customerId }).send({ type: 'TOTP', secret: started.body.secret, code: SMS_CODE }).expect(200);
    await startLogin(customerId).expect(200);
    expect((await completeLogin(customerId, SMS_CODE).expect(200)).body.factor).toBe('TOTP');
    // Not a spent time step: the real code still opens the next login.
    await startLogin(customerId).expect(200);
    expect((await completeLogin(customerId, totpCodeOf(started.body.secret)).expect(200)).body.factor).toBe('TOTP');
  });

  it('a recovery code opens one login in place of a code, in any case and with or without dashes', async () => {
    const customerId = await loggedInEuropean();
    const { recoveryCodes } = await enrollTotp(api(), customerId);
    await startLogin(customerId).expect(200);
    const used = recoveryCodes[3];
    expect((await completeLogin(customerId, used.toLowerCase().replace(/-/g, '')).expect(200)).body.factor).toBe('TOTP');
    await startLogin(customerId).expect(200);
    expect((await completeLogin(customerId, used).expect(400)).body).toEqual(wrongProof('WRONG_CODE', 1));
    expect((await completeLogin(customerId, 'AAAA-BBBB-CCCC').expect(400)).body).toEqual(wrongProof('WRONG_CODE', 2));
    await completeLogin(customerId, recoveryCodes[4]).expect(200);
  });

  it('five wrong TOTP codes lock SCA: 423, even for the right code; login start answers 409 ACCOUNT_LOCKED', async () => {
    const customerId = await loggedInEuropean();
    const { secret } = await enrollTotp(api(), customerId);
    await startLogin(customerId).expect(200);
    for (let attempt = 1; attempt <= 4; attempt++) {
      expect((await completeLogin(customerId, '000000').expect(400)).body).toEqual(wrongProof('WRONG_CODE', attempt));
    }
    const locked = await completeLogin(customerId, '000000').expect(423);
    expect(locked.body).toEqual({
      status: 423,
      code: 'ACCOUNT_LOCKED',
      message: 'Strong Customer Authentication is locked for this customer after too many wrong proofs',
      details: { suspended: true, lockedUntil: expect.any(String), failedAttempts: 5 },
    });
    expect((await completeLogin(customerId, totpCodeOf(secret, 1)).expect(423)).body.details).toEqual(locked.body.details);
    const start = await startLogin(customerId).expect(409);
    expect(start.body).toEqual({ status: 409, code: 'CONFLICT', message: locked.body.message, details: { reason: 'ACCOUNT_LOCKED', ...locked.body.details } });
    const enroll = await api().post('/sca/factors').query({ customerId }).send({ type: 'TOTP' }).expect(409);
    expect(enroll.body.details).toEqual({ reason: 'ACCOUNT_LOCKED', ...locked.body.details });
  });

  it('a second enrollment: the old factor works until the new one is confirmed, which replaces the secret and recovery codes', async () => {
    const customerId = await loggedInEuropean();
    const first = await enrollTotp(api(), customerId);
    const second = (await api().post('/sca/factors').query({ customerId }).send({ type: 'TOTP' }).expect(200)).body;
    expect(second.secret).not.toBe(first.secret);
    await startLogin(customerId).expect(200);
    await completeLogin(customerId, first.recoveryCodes[0]).expect(200);

    const confirmed = await api()
      .post('/sca/factors/confirm')
      .query({ customerId })
      .send({ type: 'TOTP', secret: second.secret, code: totpCodeOf(second.secret) })
      .expect(200);
    expect((await api().get('/sca/factors').query({ customerId }).expect(200)).body.factors).toEqual([{ factor: 'SMS_OTP' }, { factor: 'TOTP' }]);
    await startLogin(customerId).expect(200);
    expect((await completeLogin(customerId, first.recoveryCodes[1]).expect(400)).body.details.reason).toBe('WRONG_CODE');
    expect((await completeLogin(customerId, totpCodeOf(first.secret, 1)).expect(400)).body.details.reason).toBe('WRONG_CODE');
    await completeLogin(customerId, totpCodeOf(second.secret, 1)).expect(200);
    await startLogin(customerId).expect(200);
    await completeLogin(customerId, confirmed.body.recoveryCodes[0]).expect(200);
    // The first secret is no longer kept; the second is, sealed.
    const enrolled = await pool.query(
      `SELECT data FROM events WHERE stream_name = $1 AND event_type = 'ScaTotpEnrolled' ORDER BY global_position`,
      [profileStream(customerId)],
    );
    const [firstId, secondId] = enrolled.rows.map((row) => row.data.enrollmentId as string);
    expect(enrolled.rows[1].data.replacedEnrollmentId).toBe(firstId);
    const sealed = await pool.query(`SELECT id FROM sealed_secrets WHERE id = ANY($1) ORDER BY id`, [[`sca-totp-secret:${firstId}`, `sca-totp-secret:${secondId}`]]);
    expect(sealed.rows).toEqual([{ id: `sca-totp-secret:${secondId}` }]);
  });

  it('per-transaction challenges never use TOTP: execute with scaFactor TOTP is 400, the challenge does not offer it', async () => {
    const sender = await europeanSender(api());
    await enrollTotp(api(), sender.customer.id);
    const quote = await quoteTo(api(), sender, sender.usdPayee);
    const totp = await api().post(`/quotes/${quote.id}/execute`).send({ scaFactor: 'TOTP' }).expect(400);
    expect(totp.body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: expect.any(String),
      details: {
        errors: [{ field: 'scaFactor', constraint: { enum: ['SMS_OTP', 'PASSKEY'] }, message: 'TOTP cannot authorize a transfer (it cannot carry dynamic linking); use SMS_OTP or PASSKEY' }],
      },
    });
    const executed = await api().post(`/quotes/${quote.id}/execute`).expect(200);
    expect(executed.body.scaChallenge).toMatchObject({ factor: 'SMS_OTP', availableFactors: ['SMS_OTP'] });
  });
});

function profileStream(customerId: string): string {
  return `scaProfile-${customerId.slice('Customer:'.length)}`;
}

function base32Bytes(text: string): number[] {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of text) bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  return (bits.match(/.{8}/g) ?? []).map((byte) => parseInt(byte, 2));
}

/** Every row of every table of the test database, as text. */
async function databaseText(pool: Pool): Promise<string> {
  const tables = await pool.query<{ schema: string; name: string }>(
    `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
  );
  const parts: string[] = [];
  for (const table of tables.rows) {
    const rows = await pool.query(`SELECT t::text AS row FROM "${table.schema}"."${table.name}" t`);
    parts.push(...rows.rows.map((row) => row.row as string));
  }
  return parts.join('\n');
}
