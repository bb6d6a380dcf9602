import { TestApp, TestPlatform, startTestApp } from '../../support/test-app';
import { createIndividual } from '../../support/customer-fixtures';

const CODE_TTL_MS = 4000;
const LOCKOUT_MS = 2500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const NOT_FOUND = { status: 404, code: 'USER_NOT_FOUND', message: 'Customer not found' };
const MISSING_ID = 'Customer:0199a000-0000-7000-8000-00000000dead';

/** The sandbox provider rule: the email's user part ending `201` (both), `202` (email) or `203` (phone). */
const withProvider = (api: TestApp['platform']['api'], suffix: string, fields: Record<string, unknown> = {}) =>
  createIndividual(api, { email: `jane.${suffix}@example.com`, phoneNumber: '+4915112345678', region: 'DE', ...fields });

/**
 * Contact verification (issue 25 part 4, docs/customers.md): `contactVerification` on the
 * customer, the four operations, sandbox code 123456, the code's expiry and the wrong-code lock
 * (SCA's timing config, shortened here), KYC held back until every required channel is verified,
 * another platform's customer 404.
 */
describe('contact verification', () => {
  let testApp: TestApp;
  let other: TestPlatform;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { SCA_CHALLENGE_TTL_MS: String(CODE_TTL_MS), SCA_LOCKOUT_MS: String(LOCKOUT_MS), SCA_MAX_FAILED_ATTEMPTS: '3' } });
    other = await testApp.createPlatform();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;

  it('shows only the channels the provider requires, PENDING at creation; none for other customers', async () => {
    const both = await withProvider(api(), '201');
    expect(both.contactVerification).toEqual({ email: 'PENDING', phone: 'PENDING' });
    expect((await withProvider(api(), '202')).contactVerification).toEqual({ email: 'PENDING' });
    expect((await withProvider(api(), '203')).contactVerification).toEqual({ phone: 'PENDING' });
    const plain = await createIndividual(api(), { region: 'DE' });
    expect(plain).not.toHaveProperty('contactVerification');
    expect((await api().get(`/customers/${both.id}`).expect(200)).body).toEqual(both);
  });

  it('verifies the email with the sandbox code: 204 on send, 200 with the customer on confirm, then 409 ALREADY_VERIFIED', async () => {
    const customer = await withProvider(api(), '201');
    const sent = await api().post(`/customers/${customer.id}/verify-email`).expect(204);
    expect(sent.text).toBe('');
    const confirmed = await api().post(`/customers/${customer.id}/verify-email/confirm`).send({ code: '123456' }).expect(200);
    expect(confirmed.body).toEqual({ ...customer, contactVerification: { email: 'VERIFIED', phone: 'PENDING' }, updatedAt: expect.any(String) });
    expect(Date.parse(confirmed.body.updatedAt)).toBeGreaterThan(Date.parse(customer.updatedAt));
    expect((await api().get(`/customers/${customer.id}`).expect(200)).body).toEqual(confirmed.body);
    const again = await api().post(`/customers/${customer.id}/verify-email/confirm`).send({ code: '123456' }).expect(409);
    expect(again.body).toEqual({
      status: 409, code: 'CONFLICT', message: "The customer's email is already verified", details: { reason: 'ALREADY_VERIFIED', channel: 'EMAIL' },
    });
    await api().post(`/customers/${customer.id}/verify-email`).expect(409);
  });

  it('verifies the phone the same way', async () => {
    const customer = await withProvider(api(), '203');
    await api().post(`/customers/${customer.id}/verify-phone`).expect(204);
    const confirmed = await api().post(`/customers/${customer.id}/verify-phone/confirm`).send({ code: '123456' }).expect(200);
    expect(confirmed.body.contactVerification).toEqual({ phone: 'VERIFIED' });
  });

  it('answers 409 CONTACT_VERIFICATION_NOT_REQUIRED for a channel the provider does not require', async () => {
    const plain = await createIndividual(api());
    const refused = await api().post(`/customers/${plain.id}/verify-email`).expect(409);
    expect(refused.body).toEqual({
      status: 409, code: 'CONFLICT', message: "The customer's provider does not require email verification",
      details: { reason: 'CONTACT_VERIFICATION_NOT_REQUIRED', channel: 'EMAIL' },
    });
    const emailOnly = await withProvider(api(), '202');
    const phone = await api().post(`/customers/${emailOnly.id}/verify-phone`).expect(409);
    expect(phone.body.details).toEqual({ reason: 'CONTACT_VERIFICATION_NOT_REQUIRED', channel: 'PHONE' });
    await api().post(`/customers/${emailOnly.id}/verify-phone/confirm`).send({ code: '123456' }).expect(409);
  });

  it('a required phone with no number on file is 409 PHONE_NUMBER_MISSING until a PATCH sets one', async () => {
    const customer = await createIndividual(api(), { email: `nophone.203@example.com` });
    const refused = await api().post(`/customers/${customer.id}/verify-phone`).expect(409);
    expect(refused.body.details).toEqual({ reason: 'PHONE_NUMBER_MISSING' });
    await api().patch(`/customers/${customer.id}`).send({ phoneNumber: '+4915112345679' }).expect(200);
    await api().post(`/customers/${customer.id}/verify-phone`).expect(204);
  });

  it('refuses a confirmation without a code, with no code sent, or after the code expired (400, not counted)', async () => {
    const customer = await withProvider(api(), '202');
    const shape = await api().post(`/customers/${customer.id}/verify-email/confirm`).send({}).expect(400);
    expect(shape.body).toEqual(expect.objectContaining({ status: 400, code: 'INVALID_INPUT' }));
    expect(shape.body.details.errors.map((error: { field: string }) => error.field)).toEqual(['code']);
    const none = await api().post(`/customers/${customer.id}/verify-email/confirm`).send({ code: '123456' }).expect(400);
    expect(none.body).toEqual({
      status: 400, code: 'INVALID_INPUT', message: 'No code was sent: call POST /customers/{customerId}/verify-email first',
      details: { reason: 'NO_CODE_SENT', errors: [{ field: 'code', constraint: {}, message: 'No code was sent: call POST /customers/{customerId}/verify-email first' }] },
    });
    await api().post(`/customers/${customer.id}/verify-email`).expect(204);
    await sleep(CODE_TTL_MS + 200);
    const expired = await api().post(`/customers/${customer.id}/verify-email/confirm`).send({ code: '123456' }).expect(400);
    expect(expired.body).toEqual({
      status: 400, code: 'INVALID_INPUT', message: 'The code expired: request a new one',
      details: { reason: 'CODE_EXPIRED', expiresAt: expect.any(String), errors: [{ field: 'code', constraint: {}, message: 'The code expired: request a new one' }] },
    });
    // A new code works.
    await api().post(`/customers/${customer.id}/verify-email`).expect(204);
    await api().post(`/customers/${customer.id}/verify-email/confirm`).send({ code: '123456' }).expect(200);
  });

  it('counts wrong codes and locks the channel on the third; the right code waits for the lock to run out', async () => {
    const customer = await withProvider(api(), '202');
    await api().post(`/customers/${customer.id}/verify-email`).expect(204);
    const wrong = await api().post(`/customers/${customer.id}/verify-email/confirm`).send({ code: '000000' }).expect(400);
    expect(wrong.body).toEqual({
      status: 400, code: 'INVALID_INPUT', message: 'The code is not the one sent',
      details: { reason: 'WRONG_CODE', failedAttempts: 1, remainingAttempts: 2, errors: [{ field: 'code', constraint: {}, message: 'The code is not the one sent' }] },
    });
    await api().post(`/customers/${customer.id}/verify-email/confirm`).send({ code: '000001' }).expect(400);
    const locked = await api().post(`/customers/${customer.id}/verify-email/confirm`).send({ code: '000002' }).expect(409);
    expect(locked.body).toEqual({
      status: 409, code: 'CONFLICT', message: 'email verification is locked after too many wrong codes; retry after lockedUntil',
      details: { reason: 'VERIFICATION_LOCKED', channel: 'EMAIL', lockedUntil: expect.any(String), failedAttempts: 3 },
    });
    const stillLocked = await api().post(`/customers/${customer.id}/verify-email/confirm`).send({ code: '123456' }).expect(409);
    expect(stillLocked.body.details.reason).toBe('VERIFICATION_LOCKED');
    expect((await api().post(`/customers/${customer.id}/verify-email`).expect(409)).body.details.reason).toBe('VERIFICATION_LOCKED');
    await sleep(Date.parse(locked.body.details.lockedUntil) - Date.now() + 200);
    await api().post(`/customers/${customer.id}/verify-email`).expect(204);
    // The lock ran out: the count starts again.
    const fresh = await api().post(`/customers/${customer.id}/verify-email/confirm`).send({ code: '999999' }).expect(400);
    expect(fresh.body.details).toEqual(expect.objectContaining({ failedAttempts: 1, remainingAttempts: 2 }));
    await api().post(`/customers/${customer.id}/verify-email/confirm`).send({ code: '123456' }).expect(200);
  });

  it('a PATCH that changes a verified email sends it back to PENDING', async () => {
    const customer = await withProvider(api(), '202');
    await api().post(`/customers/${customer.id}/verify-email`).expect(204);
    await api().post(`/customers/${customer.id}/verify-email/confirm`).send({ code: '123456' }).expect(200);
    const patched = await api().patch(`/customers/${customer.id}`).send({ email: 'moved.202@example.com' }).expect(200);
    expect(patched.body.contactVerification).toEqual({ email: 'PENDING' });
  });

  it('holds KYC back (POST /verifications: RESOLVE_ERRORS) until every required channel is VERIFIED', async () => {
    const customer = await withProvider(api(), '203', { fullName: 'Jane Doe001' });
    const held = await api().post('/verifications').send({ customerId: customer.id }).expect(200);
    expect(held.body.verificationStatus).toBe('RESOLVE_ERRORS');
    const phoneError = {
      resourceId: customer.id, type: 'INVALID_FIELD', field: 'phoneNumber',
      reason: 'The phone must be verified first (POST /customers/{customerId}/verify-phone and its /confirm)',
    };
    expect(held.body.errors).toContainEqual(phoneError);
    await api().post(`/customers/${customer.id}/verify-phone`).expect(204);
    await api().post(`/customers/${customer.id}/verify-phone/confirm`).send({ code: '123456' }).expect(200);
    const next = await api().post('/verifications').send({ customerId: customer.id }).expect(200);
    expect(next.body.errors).not.toContainEqual(phoneError);
    expect(next.body.errors.length).toBeGreaterThan(0);
  });

  it("answers 404 for another platform's customer, an unknown id and a malformed one; 409 for a deleted customer", async () => {
    const customer = await withProvider(api(), '201');
    for (const path of ['verify-email', 'verify-phone']) {
      expect((await other.api.post(`/customers/${customer.id}/${path}`).expect(404)).body).toEqual(NOT_FOUND);
      expect((await other.api.post(`/customers/${customer.id}/${path}/confirm`).send({ code: '123456' }).expect(404)).body).toEqual(NOT_FOUND);
      expect((await api().post(`/customers/${MISSING_ID}/${path}`).expect(404)).body).toEqual(NOT_FOUND);
      expect((await api().post(`/customers/not-an-id/${path}/confirm`).send({ code: '123456' }).expect(404)).body).toEqual(NOT_FOUND);
    }
    // The other platform's attempts changed nothing.
    expect((await api().get(`/customers/${customer.id}`).expect(200)).body.contactVerification).toEqual({ email: 'PENDING', phone: 'PENDING' });
    await api().delete(`/customers/${customer.id}`).expect(200);
    const deleted = await api().post(`/customers/${customer.id}/verify-email`).expect(409);
    expect(deleted.body).toEqual({ status: 409, code: 'CONFLICT', message: 'The customer was deleted', details: { reason: 'CUSTOMER_DELETED' } });
  });
});
