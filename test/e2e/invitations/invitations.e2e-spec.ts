import { randomUUID } from 'node:crypto';
import { EventStoreService } from '../../../src/infra/event-store/event-store.service';
import { TestApp, TestPlatform, startTestApp } from '../../support/test-app';
import { createIndividual } from '../../support/customer-fixtures';
import { WebhookReceiver } from '../../support/webhook-receiver';

const UMA_DOMAIN = 'pay.example.com';
const CODE = /^[0-9a-f]{32}$/;
const USD = { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 };
const NOT_FOUND = { status: 404, code: 'INVITATION_NOT_FOUND', message: 'Invitation not found' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The invitation's id (audit history, its stream) is its code with the uuid's dashes. */
const invitationIdOf = (code: string) => `Invitation:${code.slice(0, 8)}-${code.slice(8, 12)}-${code.slice(12, 16)}-${code.slice(16, 20)}-${code.slice(20)}`;

/**
 * UMA invitations (issue 23 part 5, docs/invitations.md): create, get, claim, cancel; the
 * platform's umaDomain enables them; INVITATION.CLAIMED signed and delivered; claim and cancel
 * racing (one wins); another platform's codes are 404.
 */
describe('invitations', () => {
  let testApp: TestApp;
  let receiver: WebhookReceiver;
  let other: TestPlatform;
  let inviter: any;

  beforeAll(async () => {
    testApp = await startTestApp();
    await testApp.platform.api.patch('/config').send({ umaDomain: UMA_DOMAIN }).expect(200);
    receiver = await WebhookReceiver.forPlatform(testApp.platform.api);
    other = await testApp.createPlatform();
    await other.api.patch('/config').send({ umaDomain: 'other.example.com' }).expect(200);
    inviter = await createIndividual(testApp.platform.api);
  });

  afterAll(async () => {
    await receiver?.close();
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  const create = async (extra: Record<string, unknown> = {}) => (await api().post('/invitations').send({ inviterUma: inviter.umaAddress, ...extra }).expect(201)).body;
  const claim = (code: string, inviteeUma = '$bob@other.example.com') => api().post(`/invitations/${code}/claim`).send({ inviteeUma });
  const cancel = (code: string) => api().post(`/invitations/${code}/cancel`);
  const streamTypes = async (code: string) => (await testApp.app.get(EventStoreService).readStream(`invitation-${invitationIdOf(code).slice('Invitation:'.length)}`)).map((event) => event.type);

  it('POST /invitations: 201 with the reference\'s UmaInvitation, its url on the platform\'s UMA domain; GET answers the same', async () => {
    const before = Date.now();
    const expiresAt = new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString();
    const created = await create({ firstName: 'Bob', amountToSend: 2500, expiresAt });
    expect(created).toEqual({
      code: expect.stringMatching(CODE),
      createdAt: expect.any(String),
      url: `https://${UMA_DOMAIN}/i/${created.code}`,
      expiresAt,
      inviterUma: inviter.umaAddress.toLowerCase(),
      status: 'PENDING',
      firstName: 'Bob',
      amountToSend: { amount: 2500, currency: USD },
    });
    expect(Date.parse(created.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    expect((await api().get(`/invitations/${created.code}`).expect(200)).body).toEqual(created);
    // The code is case-insensitive.
    expect((await api().get(`/invitations/${created.code.toUpperCase()}`).expect(200)).body).toEqual(created);

    const minimal = await create();
    expect(minimal).toEqual({ code: expect.stringMatching(CODE), createdAt: expect.any(String), url: `https://${UMA_DOMAIN}/i/${minimal.code}`, inviterUma: inviter.umaAddress.toLowerCase(), status: 'PENDING' });
    expect(minimal.code).not.toBe(created.code);
  });

  it('400 INVITATIONS_NOT_CONFIGURED until the platform sets its umaDomain (PATCH /config)', async () => {
    const bare = await testApp.createPlatform();
    const customer = await createIndividual(bare.api);
    expect((await bare.api.get('/config').expect(200)).body.umaDomain).toBeUndefined();
    expect((await bare.api.post('/invitations').send({ inviterUma: customer.umaAddress }).expect(400)).body).toEqual({
      status: 400, code: 'INVITATIONS_NOT_CONFIGURED', message: 'Invitations are not configured: set the platform\'s umaDomain with PATCH /config',
    });
    await bare.api.patch('/config').send({ umaDomain: 'bare.example.com' }).expect(200);
    const created = (await bare.api.post('/invitations').send({ inviterUma: customer.umaAddress }).expect(201)).body;
    expect(created.url).toBe(`https://bare.example.com/i/${created.code}`);
  });

  it('400s: every bad field at once (INVALID_INPUT); only a malformed address is INVALID_UMA_ADDRESS; the inviter must be the platform\'s customer', async () => {
    const bad = (await api().post('/invitations').send({ firstName: '', amountToSend: 0, expiresAt: '2020-01-01T00:00:00Z', extra: 1 }).expect(400)).body;
    expect(bad.code).toBe('INVALID_INPUT');
    expect(bad.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['amountToSend', 'expiresAt', 'extra', 'firstName', 'inviterUma']);
    expect((await api().post('/invitations').send({ inviterUma: 'alice@example.com' }).expect(400)).body).toEqual({
      status: 400, code: 'INVALID_UMA_ADDRESS', message: 'UMA addresses must look like $user@domain.com',
      details: { errors: [{ field: 'inviterUma', constraint: { format: 'uma-address' }, message: 'inviterUma must look like $user@domain.com' }] },
    });
    expect((await api().post('/invitations').send({ inviterUma: '$nobody@elsewhere.example.com' }).expect(400)).body).toEqual({
      status: 400, code: 'INVALID_INPUT', message: 'No customer of this platform has this UMA address',
      details: { reason: 'INVITER_NOT_FOUND', errors: [{ field: 'inviterUma', constraint: {}, message: 'No customer of this platform has this UMA address' }] },
    });
    // Another platform's customer is not this platform's inviter.
    const foreign = await createIndividual(other.api);
    expect((await api().post('/invitations').send({ inviterUma: foreign.umaAddress }).expect(400)).body.details.reason).toBe('INVITER_NOT_FOUND');
  });

  it('claim: 200 CLAIMED with the invitee; INVITATION.CLAIMED signed and delivered with the same body; claim twice and cancel after: INVITATION_ALREADY_CLAIMED', async () => {
    const created = await create({ firstName: 'Bob' });
    const claimed = (await claim(created.code, '$Bob@Other.Example.com').expect(200)).body;
    expect(claimed).toEqual({ ...created, status: 'CLAIMED', inviteeUma: '$bob@other.example.com', claimedAt: expect.any(String) });
    expect((await api().get(`/invitations/${created.code}`).expect(200)).body).toEqual(claimed);

    const hook = await receiver.waitFor((entry) => entry.body.type === 'INVITATION.CLAIMED' && entry.body.data?.code === created.code);
    expect(hook.signatureValid).toBe(true);
    expect(hook.body).toEqual({ id: expect.stringMatching(/^Webhook:[0-9a-f-]{36}$/), type: 'INVITATION.CLAIMED', timestamp: expect.any(String), data: claimed });

    const again = (await claim(created.code).expect(400)).body;
    expect(again).toEqual({ status: 400, code: 'INVITATION_ALREADY_CLAIMED', message: 'Invitation has already been claimed', details: { claimedAt: claimed.claimedAt } });
    expect((await cancel(created.code).expect(400)).body).toEqual(again);
    expect(await streamTypes(created.code)).toEqual(['InvitationCreated', 'InvitationClaimed']);
  });

  it('cancel: 200 CANCELLED; claim after and cancel again: INVITATION_CANCELLED; no webhook', async () => {
    const created = await create();
    const cancelled = (await cancel(created.code).expect(200)).body;
    expect(cancelled).toEqual({ ...created, status: 'CANCELLED' });
    expect((await api().get(`/invitations/${created.code}`).expect(200)).body).toEqual(cancelled);
    const refused = (await claim(created.code).expect(400)).body;
    expect(refused).toEqual({ status: 400, code: 'INVITATION_CANCELLED', message: 'Invitation has been cancelled', details: { cancelledAt: expect.any(String) } });
    expect((await cancel(created.code).expect(400)).body).toEqual(refused);
    expect(receiver.received.filter((entry) => entry.body.data?.code === created.code)).toEqual([]);
  });

  it('claim and cancel racing: exactly one wins, the other is refused with the winner\'s code', async () => {
    for (let round = 0; round < 5; round += 1) {
      const { code } = await create();
      const [claimAnswer, cancelAnswer] = await Promise.all([claim(code), cancel(code)]);
      expect([claimAnswer.status, cancelAnswer.status].sort()).toEqual([200, 400]);
      const types = await streamTypes(code);
      expect(types).toHaveLength(2);
      const shown = (await api().get(`/invitations/${code}`).expect(200)).body;
      if (claimAnswer.status === 200) {
        expect([cancelAnswer.body.code, shown.status, types[1]]).toEqual(['INVITATION_ALREADY_CLAIMED', 'CLAIMED', 'InvitationClaimed']);
      } else {
        expect([claimAnswer.body.code, shown.status, types[1]]).toEqual(['INVITATION_CANCELLED', 'CANCELLED', 'InvitationCancelled']);
      }
    }
  });

  it('claim body: INVALID_UMA_ADDRESS for a malformed address, INVALID_INPUT when missing or the inviter\'s own', async () => {
    const { code } = await create();
    expect((await claim(code, 'bob').expect(400)).body.code).toBe('INVALID_UMA_ADDRESS');
    expect((await api().post(`/invitations/${code}/claim`).send({}).expect(400)).body.details.errors.map((error: { field: string }) => error.field)).toEqual(['inviteeUma']);
    expect((await claim(code, inviter.umaAddress).expect(400)).body).toEqual({
      status: 400, code: 'INVALID_INPUT', message: 'An invitation cannot be claimed by its inviter',
      details: { reason: 'SELF_CLAIM', errors: [{ field: 'inviteeUma', constraint: {}, message: 'An invitation cannot be claimed by its inviter' }] },
    });
    expect((await api().get(`/invitations/${code}`).expect(200)).body.status).toBe('PENDING');
  });

  it('past expiresAt: shown EXPIRED, neither claimed nor cancelled (INVALID_INPUT, reason INVITATION_EXPIRED)', async () => {
    const expiresAt = new Date(Date.now() + 1500).toISOString();
    const { code } = await create({ expiresAt });
    await sleep(Date.parse(expiresAt) - Date.now() + 50);
    expect((await api().get(`/invitations/${code}`).expect(200)).body.status).toBe('EXPIRED');
    const expired = { status: 400, code: 'INVALID_INPUT', message: `Invitation expired at ${expiresAt}`, details: { reason: 'INVITATION_EXPIRED', expiresAt } };
    expect((await claim(code).expect(400)).body).toEqual(expired);
    expect((await cancel(code).expect(400)).body).toEqual(expired);
  });

  it('404 INVITATION_NOT_FOUND: an unknown code, a text that cannot be a code, another platform\'s invitation', async () => {
    const { code } = await create();
    const unknown = randomUUID().replace(/-/g, '');
    for (const text of [unknown, '019542f5']) {
      expect((await api().get(`/invitations/${text}`).expect(404)).body).toEqual(NOT_FOUND);
      expect((await claim(text).expect(404)).body).toEqual(NOT_FOUND);
      expect((await cancel(text).expect(404)).body).toEqual(NOT_FOUND);
    }
    expect((await other.api.get(`/invitations/${code}`).expect(404)).body).toEqual(NOT_FOUND);
    expect((await other.api.post(`/invitations/${code}/claim`).send({ inviteeUma: '$bob@other.example.com' }).expect(404)).body).toEqual(NOT_FOUND);
    expect((await other.api.post(`/invitations/${code}/cancel`).expect(404)).body).toEqual(NOT_FOUND);
    expect((await api().get(`/invitations/${code}`).expect(200)).body.status).toBe('PENDING');
  });

  it('honours Idempotency-Key on POST /invitations: the same request replays the first invitation', async () => {
    const idempotencyKey = randomUUID();
    const body = { inviterUma: inviter.umaAddress, firstName: 'Carol' };
    const first = await api().post('/invitations').set('Idempotency-Key', idempotencyKey).send(body).expect(201);
    const second = await api().post('/invitations').set('Idempotency-Key', idempotencyKey).send(body).expect(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.text).toBe(first.text);
    const different = await api().post('/invitations').set('Idempotency-Key', idempotencyKey).send({ ...body, firstName: 'Dave' }).expect(400);
    expect(different.body.details.reason).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('audit history: every state change is an event (GET /audit/events?resourceId=Invitation:<uuid>); not another platform\'s', async () => {
    const { code } = await create();
    await claim(code).expect(200);
    const history = (await api().get('/audit/events').query({ resourceId: invitationIdOf(code) }).expect(200)).body;
    expect(history.data.map((entry: { type: string }) => entry.type)).toEqual(['InvitationCreated', 'InvitationClaimed']);
    expect(history.data[1].data).toEqual({ invitationId: invitationIdOf(code), platformId: testApp.platform.platformId, code, inviteeUma: '$bob@other.example.com', claimedAt: expect.any(String) });
    await other.api.get('/audit/events').query({ resourceId: invitationIdOf(code) }).expect(404);
  });
});
