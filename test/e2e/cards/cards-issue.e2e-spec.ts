import { TestApp, eventually, startTestApp } from '../../support/test-app';
import { accountsByCurrency, createBusiness, createIndividual, uniqueId } from '../../support/customer-fixtures';
import { Cardholder, approvedCardholder, cardInState, cardRequest, issueCard } from './card-fixtures';

const CARD_ID = /^Card:[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** `POST /cards`: issuance, the sandbox issuer's suffix outcomes, cardholder and funding-source checks, bad input. */
describe('POST /cards', () => {
  let testApp: TestApp;
  let holder: Cardholder;

  beforeAll(async () => {
    testApp = await startTestApp();
    holder = await approvedCardholder(testApp.platform.api);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;

  it('201: a VIRTUAL card, PROCESSING; the sandbox issuer then issues it ACTIVE with last4 and expiry', async () => {
    const platformCardId = uniqueId('emp');
    const response = await api()
      .post('/cards')
      .send({
        cardholderId: holder.customer.id,
        form: 'VIRTUAL',
        fundingSources: [holder.accounts.USD.id, holder.accounts.USDB.id],
        platformCardId,
        maxSpendPerTransaction: 2_500,
      })
      .expect(201);
    const created = response.body;
    expect(created).toEqual({
      id: expect.stringMatching(CARD_ID),
      cardholderId: holder.customer.id,
      platformCardId,
      form: 'VIRTUAL',
      state: 'PROCESSING',
      currency: 'USD',
      fundingSources: [holder.accounts.USD.id, holder.accounts.USDB.id],
      maxSpendPerTransaction: 2_500,
      createdAt: expect.stringMatching(ISO),
      updatedAt: created.createdAt,
    });
    // Not issued yet: no stateReason, last4 or expiry (left out, not null).
    expect(Object.keys(created)).toEqual([
      'id', 'cardholderId', 'platformCardId', 'form', 'state', 'currency', 'fundingSources', 'maxSpendPerTransaction', 'createdAt', 'updatedAt',
    ]);
    const read = await api().get(`/cards/${created.id}`);
    // Read-your-writes: either still PROCESSING exactly as created, or already issued.
    if (read.body.state === 'PROCESSING') expect(read.body).toEqual(created);

    const active = await cardInState(api(), created.id, 'ACTIVE');
    const issuedAt = new Date(active.updatedAt);
    expect(active).toEqual({
      ...created,
      state: 'ACTIVE',
      last4: expect.stringMatching(/^\d{4}$/),
      expMonth: issuedAt.getUTCMonth() + 1,
      expYear: issuedAt.getUTCFullYear() + 3,
      updatedAt: expect.stringMatching(ISO),
    });
    expect(Date.parse(active.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.createdAt));
  });

  it('sandbox: platformCardId ending in 002 is rejected by the issuer: CLOSED with stateReason ISSUER_REJECTED', async () => {
    const created = await issueCard(api(), holder, { platformCardId: uniqueId('emp').concat('-002') });
    expect(created.state).toBe('PROCESSING');
    const rejected = await cardInState(api(), created.id, 'CLOSED');
    expect(rejected).toEqual({ ...created, state: 'CLOSED', stateReason: 'ISSUER_REJECTED', updatedAt: expect.stringMatching(ISO) });
  });

  it('sandbox: platformCardId ending in 001 stays PROCESSING (the issuer never answers)', async () => {
    const pending = await issueCard(api(), holder, { platformCardId: uniqueId('emp').concat('-001') });
    // A card requested after it is issued first; by then the 001 card would have been answered.
    const later = await issueCard(api(), holder);
    await cardInState(api(), later.id, 'ACTIVE');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await api().get(`/cards/${pending.id}`).expect(200)).body).toEqual(pending);
    const history = await api().get('/audit/events').query({ resourceId: pending.id }).expect(200);
    expect(history.body.data.map((entry: any) => entry.type)).toEqual(['CardIssuanceRequested']);
  });

  it('generates platformCardId when it is omitted (card-<12 hex>) and issues the card', async () => {
    const { platformCardId: _omitted, ...body } = cardRequest(holder);
    const created = (await api().post('/cards').send(body).expect(201)).body;
    expect(created.platformCardId).toMatch(/^card-[0-9a-f]{12}$/);
    expect(created.maxSpendPerTransaction).toBeNull();
    await cardInState(api(), created.id, 'ACTIVE');
  });

  it('400 CARDHOLDER_KYC_NOT_APPROVED unless the cardholder\'s KYC is APPROVED (sandbox name suffixes 001, 002, 003)', async () => {
    for (const [suffix, kycStatus] of [['001', 'PENDING'], ['002', 'REJECTED'], ['003', 'UNVERIFIED']]) {
      const customer = await createIndividual(api(), { fullName: `Card Holder${suffix}` });
      const { USD } = await accountsByCurrency(api(), customer.id);
      const response = await api().post('/cards').send({ cardholderId: customer.id, form: 'VIRTUAL', fundingSources: [USD.id] }).expect(400);
      expect(response.body).toEqual({
        status: 400,
        code: 'CARDHOLDER_KYC_NOT_APPROVED',
        message: `A card cannot be issued unless the cardholder's KYC status is APPROVED (it is ${kycStatus})`,
        details: { customerType: 'INDIVIDUAL', kycStatus },
      });
    }
    const cards = await api().get('/cards').query({ state: 'PROCESSING', limit: 100 }).expect(200);
    expect(cards.body.data.every((card: any) => card.cardholderId === holder.customer.id)).toBe(true);
  });

  it('400 CARDHOLDER_KYC_NOT_APPROVED for a business, which has no KYC status (cards need an individual)', async () => {
    const business = await createBusiness(api());
    const { USD } = await accountsByCurrency(api(), business.id);
    const response = await api().post('/cards').send({ cardholderId: business.id, form: 'VIRTUAL', fundingSources: [USD.id] }).expect(400);
    expect(response.body).toEqual({
      status: 400,
      code: 'CARDHOLDER_KYC_NOT_APPROVED',
      message: 'A card cannot be issued to a business customer: cards need an individual cardholder whose KYC status is APPROVED',
      details: { customerType: 'BUSINESS' },
    });
  });

  it('400 INVALID_INPUT on cardholderId for an unknown, another platform\'s or a deleted cardholder (the operation declares no 404 nor 410)', async () => {
    const unknown = await api()
      .post('/cards')
      .send(cardRequest(holder, { cardholderId: 'Customer:0199a000-0000-7000-8000-000000000999' }))
      .expect(400);
    expect(unknown.body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: 'No customer with this id exists',
      details: { errors: [{ field: 'cardholderId', constraint: {}, message: 'No customer with this id exists' }], reason: 'CARDHOLDER_NOT_FOUND' },
    });
    const other = await testApp.createPlatform();
    const foreigner = await approvedCardholder(other.api);
    const foreign = await api().post('/cards').send(cardRequest(foreigner)).expect(400);
    expect(foreign.body).toEqual(unknown.body);

    const leaving = await approvedCardholder(api());
    await api().delete(`/customers/${leaving.customer.id}`).expect(200);
    const deleted = await api().post('/cards').send(cardRequest(leaving)).expect(400);
    expect(deleted.body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: 'The cardholder was deleted',
      details: { errors: [{ field: 'cardholderId', constraint: {}, message: 'The cardholder was deleted' }], reason: 'CARDHOLDER_DELETED' },
    });
  });

  it('400 INVALID_INPUT on the entry for funding sources this platform does not know (unknown, or another platform\'s account)', async () => {
    const unknownId = 'InternalAccount:0199a000-0000-7000-8000-000000000aaa';
    const unknown = await api()
      .post('/cards')
      .send(cardRequest(holder, { fundingSources: [holder.accounts.USD.id, unknownId] }))
      .expect(400);
    expect(unknown.body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: expect.any(String),
      details: {
        errors: [{ field: 'fundingSources.1', constraint: {}, message: `${unknownId} is not an internal account of this platform` }],
        reason: 'FUNDING_SOURCE_INELIGIBLE',
      },
    });
    const other = await testApp.createPlatform();
    const foreigner = await approvedCardholder(other.api);
    const foreign = await api()
      .post('/cards')
      .send(cardRequest(holder, { fundingSources: [foreigner.accounts.USD.id] }))
      .expect(400);
    expect(foreign.body.details.errors.map((error: { field: string }) => error.field)).toEqual(['fundingSources.0']);
  });

  it('accepts threeDSecurePassword (forwarded to the issuer, never stored nor echoed) and refuses a malformed one', async () => {
    const created = await api().post('/cards').send(cardRequest(holder, { threeDSecurePassword: 'AbCd1234EfGh5678' })).expect(201);
    expect(created.body).not.toHaveProperty('threeDSecurePassword');
    expect(JSON.stringify((await api().get(`/cards/${created.body.id}`).expect(200)).body)).not.toContain('AbCd1234EfGh5678');
    const short = await api().post('/cards').send(cardRequest(holder, { threeDSecurePassword: 'short' })).expect(400);
    expect(short.body.details.errors.map((error: any) => error.field)).toEqual(['threeDSecurePassword']);
  });

  it('without maxSpendPerTransaction the card carries it as null (required and nullable in the contract)', async () => {
    const created = await api().post('/cards').send(cardRequest(holder)).expect(201);
    expect(created.body.maxSpendPerTransaction).toBeNull();
    expect((await api().get(`/cards/${created.body.id}`).expect(200)).body.maxSpendPerTransaction).toBeNull();
  });

  it('400 INVALID_INPUT for funding sources of another customer, of the platform itself, or in a non-dollar currency', async () => {
    const stranger = await approvedCardholder(api());
    const platformAccount = await eventually(async () => {
      const all = await api().get('/internal-accounts').query({ type: 'INTERNAL_FIAT', limit: 100 }).expect(200);
      return all.body.data.find((account: any) => account.customerId === undefined);
    });
    const response = await api()
      .post('/cards')
      .send(cardRequest(holder, { fundingSources: [holder.accounts.USDC.id, stranger.accounts.USD.id, platformAccount.id] }))
      .expect(400);
    expect(response.body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: 'Every funding source must be an internal account of the cardholder in a card-eligible currency',
      details: {
        errors: [
          { field: 'fundingSources.1', constraint: {}, message: `${stranger.accounts.USD.id} belongs to another customer` },
          { field: 'fundingSources.2', constraint: {}, message: `${platformAccount.id} is a platform account, not an account of the cardholder` },
        ],
        reason: 'FUNDING_SOURCE_INELIGIBLE',
      },
    });

    const euroPlatform = await testApp.createPlatform({
      supportedCurrencies: ['USD', 'EUR'].map((currencyCode) => ({ currencyCode, minAmount: 1, maxAmount: 1_000_000, requiredCounterpartyFields: [] })),
    });
    const european = await approvedCardholder(euroPlatform.api);
    const euro = await euroPlatform.api.post('/cards').send(cardRequest(european, { fundingSources: [european.accounts.EUR.id] })).expect(400);
    expect(euro.body.details.errors).toEqual([
      {
        field: 'fundingSources.0',
        constraint: {},
        message: `${european.accounts.EUR.id} holds EUR; cards are funded from USD, USDC, USDT, USDB accounts`,
      },
    ]);
    await euroPlatform.api.post('/cards').send(cardRequest(european)).expect(201);
  });

  it('400 INVALID_INPUT listing every bad field at once', async () => {
    const fieldsOf = (response: any) => response.body.details.errors.map((error: any) => [error.field, error.constraint]);
    const missing = await api().post('/cards').send({}).expect(400);
    expect(missing.body.code).toBe('INVALID_INPUT');
    expect(fieldsOf(missing)).toEqual([['cardholderId', {}], ['form', {}], ['fundingSources', {}]]);

    const wrong = await api()
      .post('/cards')
      .send({ cardholderId: 'Customer:nope', form: 'PHYSICAL', fundingSources: [], platformCardId: '', maxSpendPerTransaction: 0, nickname: 'x' })
      .expect(400);
    expect(fieldsOf(wrong)).toEqual([
      ['nickname', {}],
      ['form', { enum: ['VIRTUAL'] }],
      ['fundingSources', {}],
      ['platformCardId', { minLength: 1 }],
      ['maxSpendPerTransaction', {}],
      ['cardholderId', { format: 'Customer-id' }],
    ]);
    for (const error of wrong.body.details.errors) expect(error.message).toEqual(expect.any(String));

    const types = await api()
      .post('/cards')
      .send({ cardholderId: 7, form: 1, fundingSources: 'InternalAccount:x', platformCardId: 9, maxSpendPerTransaction: 1.5 })
      .expect(400);
    expect(fieldsOf(types)).toEqual([
      ['cardholderId', {}],
      ['form', {}],
      ['fundingSources', {}],
      ['platformCardId', {}],
      ['maxSpendPerTransaction', {}],
    ]);

    const usd = holder.accounts.USD.id;
    const entries = await api()
      .post('/cards')
      .send(cardRequest(holder, { fundingSources: [usd, 42, 'ExternalAccount:0199a000-0000-7000-8000-000000000001', usd], maxSpendPerTransaction: 9_000_000_000_000_001, platformCardId: 'x'.repeat(129) }))
      .expect(400);
    expect(fieldsOf(entries)).toEqual([
      ['platformCardId', { maxLength: 128 }],
      ['maxSpendPerTransaction', {}],
      ['fundingSources.1', {}],
      ['fundingSources.2', { format: 'InternalAccount-id' }],
      ['fundingSources.3', {}],
    ]);
    expect(entries.body.details.errors[4].message).toBe(`${usd} is listed twice`);

    const tooMany = await api()
      .post('/cards')
      .send(cardRequest(holder, { fundingSources: Array.from({ length: 11 }, () => usd) }))
      .expect(400);
    expect(fieldsOf(tooMany)).toEqual([['fundingSources', {}]]);

    const notAnObject = await api().post('/cards').send([cardRequest(holder)]).expect(400);
    expect(fieldsOf(notAnObject)).toEqual([['body', {}]]);
    const nulls = await api().post('/cards').send(cardRequest(holder, { platformCardId: null, maxSpendPerTransaction: null })).expect(400);
    expect(fieldsOf(nulls)).toEqual([['platformCardId', {}], ['maxSpendPerTransaction', {}]]);
  });

  it('400 INVALID_INPUT on platformCardId for one the platform already used (even on a closed card); another platform may use it', async () => {
    const platformCardId = uniqueId('dup');
    const first = await issueCard(api(), holder, { platformCardId });
    const again = await api().post('/cards').send(cardRequest(holder, { platformCardId })).expect(400);
    expect(again.body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: 'A card with this platformCardId already exists',
      details: {
        errors: [{ field: 'platformCardId', constraint: {}, message: 'A card with this platformCardId already exists' }],
        reason: 'PLATFORM_CARD_ID_EXISTS',
        platformCardId,
        cardId: first.id,
      },
    });
    await cardInState(api(), first.id, 'ACTIVE');
    await api().patch(`/cards/${first.id}`).send({ state: 'CLOSED' }).expect(200);
    await api().post('/cards').send(cardRequest(holder, { platformCardId })).expect(400);

    const other = await testApp.createPlatform();
    const foreigner = await approvedCardholder(other.api);
    await other.api.post('/cards').send(cardRequest(foreigner, { platformCardId })).expect(201);
  });

  it('concurrent issuances with one platformCardId: exactly one card', async () => {
    const platformCardId = uniqueId('race');
    const responses = await Promise.all(Array.from({ length: 8 }, () => api().post('/cards').send(cardRequest(holder, { platformCardId }))));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 400, 400, 400, 400, 400, 400, 400]);
    for (const response of responses.filter((candidate) => candidate.status === 400)) expect(response.body.details.reason).toBe('PLATFORM_CARD_ID_EXISTS');
    const listed = await api().get('/cards').query({ platformCardId }).expect(200);
    expect(listed.body.totalCount).toBe(1);
    expect(listed.body.data[0].id).toBe(responses.find((response) => response.status === 201)!.body.id);
  });

  it('honours Idempotency-Key: the same request replays the first card, a different one is 400 IDEMPOTENCY_KEY_REUSED', async () => {
    const idempotencyKey = crypto.randomUUID();
    const body = cardRequest(holder);
    const first = await api().post('/cards').set('Idempotency-Key', idempotencyKey).send(body).expect(201);
    const second = await api().post('/cards').set('Idempotency-Key', idempotencyKey).send(body).expect(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.text).toBe(first.text);
    const listed = await api().get('/cards').query({ platformCardId: body.platformCardId }).expect(200);
    expect(listed.body.totalCount).toBe(1);
    const different = await api().post('/cards').set('Idempotency-Key', idempotencyKey).send(cardRequest(holder)).expect(400);
    expect(different.body.details).toEqual({
      reason: 'IDEMPOTENCY_KEY_REUSED',
      errors: [{ field: 'Idempotency-Key', constraint: {}, message: 'This Idempotency-Key was used for a different request' }],
    });
  });
});
