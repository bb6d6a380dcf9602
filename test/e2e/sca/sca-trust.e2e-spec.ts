import { createIndividual, germanIban } from '../../support/customer-fixtures';
import { SCA_PLATFORM_CONFIG, SMS_CODE } from '../../support/sca-client';
import { TestApp, startTestApp } from '../../support/test-app';

/**
 * Beneficiary trust runs on the SCA challenge engine: its code is accepted once, and its wrong
 * codes count towards the same lock as every other SCA ceremony of the customer.
 */
describe('SCA challenge engine behind beneficiary trust', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ platformConfig: SCA_PLATFORM_CONFIG });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  async function europeanWithAccount(): Promise<{ customerId: string; base: string }> {
    const customerId = (await createIndividual(api(), { region: 'ES' })).id;
    const account = await api()
      .post('/customers/external-accounts')
      .send({
        customerId,
        currency: 'EUR',
        accountInfo: { accountType: 'EUR_ACCOUNT', iban: germanIban('789'), beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ana Ruiz', countryOfResidence: 'ES' } },
      })
      .expect(201);
    return { customerId, base: `/customers/external-accounts/${account.body.id}` };
  }

  it('concurrent confirmations with the same code: one trusts, the others are refused', async () => {
    const { base } = await europeanWithAccount();
    await api().post(`${base}/trust`).expect(200);
    const responses = await Promise.all([1, 2, 3, 4].map(() => api().post(`${base}/trust/confirm`).send({ code: SMS_CODE })));
    expect(responses.map((response) => response.status).sort()).toEqual([200, 409, 409, 409]);
    for (const response of responses.filter((candidate) => candidate.status === 409)) {
      expect(['SCA_CHALLENGE_ALREADY_AUTHORIZED', 'NO_PENDING_CHALLENGE']).toContain(response.body.details.reason);
    }
    const history = await api().get('/audit/events').query({ resourceId: base.split('/').pop() }).expect(200);
    expect(history.body.data.map((entry: { type: string }) => entry.type)).toEqual(['ExternalAccountCreated', 'BeneficiaryTrustChallengeIssued', 'BeneficiaryTrusted']);
  });

  it('wrong trust codes lock SCA for the customer: the fifth is 409 ACCOUNT_LOCKED (trust declares no 423), and login is locked too', async () => {
    const { customerId, base } = await europeanWithAccount();
    await api().post(`${base}/trust`).expect(200);
    for (let attempt = 1; attempt <= 4; attempt++) {
      const wrong = await api().post(`${base}/trust/confirm`).send({ code: '000000' }).expect(400);
      expect(wrong.body.details).toMatchObject({ reason: 'WRONG_CODE', failedAttempts: attempt });
      expect(wrong.body.details.errors).toEqual([{ field: 'code', constraint: {}, message: expect.any(String) }]);
    }
    const locked = await api().post(`${base}/trust/confirm`).send({ code: '000000' }).expect(409);
    expect(locked.body).toMatchObject({
      code: 'CONFLICT',
      details: { reason: 'ACCOUNT_LOCKED', suspended: true, failedAttempts: 5, lockedUntil: expect.any(String) },
    });
    expect((await api().post(`${base}/trust/confirm`).send({ code: SMS_CODE }).expect(409)).body.details.reason).toBe('ACCOUNT_LOCKED');
    expect((await api().post(`${base}/trust`).expect(409)).body.details.reason).toBe('ACCOUNT_LOCKED');
    // How the SCA login answers a lock is the SCA context's (423, or 409 where 423 is not declared).
    const login = await api().post('/sca/login/start').send({ customerId, factor: 'SMS_OTP' });
    expect([409, 423]).toContain(login.status);
  });
});
