import request from 'supertest';
import { createIndividual } from '../../support/customer-fixtures';
import { TestApp, anonymousClient, startTestApp } from '../../support/test-app';
import { ACCESS_TOKEN, DEVICE_CODE, ISO, createAgent, fullPolicy, getMe, redeem } from './agent-fixtures';

/**
 * Installation by device code and the agent's Bearer token: status polling, redemption (single
 * use, newest code only, expiry), `GET /agents/me`, token replacement on reinstall and revocation
 * on delete, tenancy, and the audit history with its actors.
 */
describe('agents: installation and Bearer token', () => {
  let testApp: TestApp;
  let customer: any;

  beforeAll(async () => {
    testApp = await startTestApp();
    customer = await createIndividual(testApp.platform.api);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  const anonymous = () => anonymousClient(testApp.baseUrl);
  const status = (code: string) => api().get(`/agents/device-codes/${code}/status`);

  it('end to end: status false, redeem, status true, GET /agents/me, redeem again refused', async () => {
    const { agent, deviceCode } = await createAgent(api(), customer.id, { policy: fullPolicy() });
    expect((await status(deviceCode.code).expect(200)).body).toEqual({ code: deviceCode.code, redeemed: false });

    const redeemed = (await anonymous().post(`/agents/device-codes/${deviceCode.code}/redeem`).expect(200)).body;
    expect(redeemed).toEqual({ agentId: agent.id, agentName: agent.name, accessToken: expect.stringMatching(ACCESS_TOKEN), policy: agent.policy });
    expect((await status(deviceCode.code).expect(200)).body).toEqual({ code: deviceCode.code, redeemed: true });

    const me = (await getMe(testApp.baseUrl, redeemed.accessToken).expect(200)).body;
    expect(me).toEqual({ ...agent, isConnected: true, updatedAt: expect.stringMatching(ISO) });
    expect((await api().get(`/agents/${agent.id}`).expect(200)).body).toEqual(me);

    const again = await anonymous().post(`/agents/device-codes/${deviceCode.code}/redeem`).expect(400);
    expect(again.body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: 'This device code was already redeemed; ask the platform for a new one',
      details: { reason: 'DEVICE_CODE_ALREADY_REDEEMED' },
    });
  });

  it('concurrent redemptions of one code: one token, the others refused as already redeemed', async () => {
    const { deviceCode } = await createAgent(api(), customer.id);
    const answers = await Promise.all(Array.from({ length: 5 }, () => anonymous().post(`/agents/device-codes/${deviceCode.code}/redeem`)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400, 400, 400, 400]);
    for (const refused of answers.filter((answer) => answer.status === 400)) expect(refused.body.details).toEqual({ reason: 'DEVICE_CODE_ALREADY_REDEEMED' });
    const token = answers.find((answer) => answer.status === 200)!.body.accessToken;
    await getMe(testApp.baseUrl, token).expect(200);
  });

  it('codes are read case-insensitively, O as 0 and I or L as 1', async () => {
    const { deviceCode } = await createAgent(api(), customer.id);
    const typed = deviceCode.code.toLowerCase().replace(/0/g, 'o').replace(/1/g, 'l');
    expect((await status(typed).expect(200)).body).toEqual({ code: deviceCode.code, redeemed: false });
    expect(await redeem(testApp.baseUrl, typed)).toMatch(ACCESS_TOKEN);
  });

  it('a new code invalidates the unredeemed one; on an installed agent its redemption replaces the token', async () => {
    const { agent, deviceCode: first } = await createAgent(api(), customer.id);
    const second = (await api().post(`/agents/${agent.id}/device-codes`).expect(201)).body;
    expect(second).toEqual({ code: expect.stringMatching(DEVICE_CODE), agentId: agent.id, expiresAt: expect.stringMatching(ISO), redeemed: false });
    const invalidated = await anonymous().post(`/agents/device-codes/${first.code}/redeem`).expect(400);
    expect(invalidated.body.details).toEqual({ reason: 'DEVICE_CODE_INVALIDATED' });
    const firstToken = await redeem(testApp.baseUrl, second.code);

    // Reinstall: the old token works until the new code is redeemed, then only the new one does.
    const third = (await api().post(`/agents/${agent.id}/device-codes`).expect(201)).body;
    await getMe(testApp.baseUrl, firstToken).expect(200);
    const secondToken = await redeem(testApp.baseUrl, third.code);
    await getMe(testApp.baseUrl, firstToken).expect(401);
    expect((await getMe(testApp.baseUrl, secondToken).expect(200)).body).toMatchObject({ id: agent.id, isConnected: true });
  });

  it('a paused agent still authenticates and sees itself paused', async () => {
    const { agent, deviceCode } = await createAgent(api(), customer.id);
    const token = await redeem(testApp.baseUrl, deviceCode.code);
    await api().patch(`/agents/${agent.id}`).send({ isPaused: true }).expect(200);
    expect((await getMe(testApp.baseUrl, token).expect(200)).body).toMatchObject({ id: agent.id, isPaused: true });
  });

  it('DELETE stops the token at once (401) and forgets its codes (404)', async () => {
    const { agent, deviceCode } = await createAgent(api(), customer.id);
    const token = await redeem(testApp.baseUrl, deviceCode.code);
    const spare = (await api().post(`/agents/${agent.id}/device-codes`).expect(201)).body;
    await api().delete(`/agents/${agent.id}`).expect(204);
    await getMe(testApp.baseUrl, token).expect(401);
    await status(deviceCode.code).expect(404);
    await anonymous().post(`/agents/device-codes/${spare.code}/redeem`).expect(404);
  });

  it('401 with a Bearer challenge: no token, an unknown one, a malformed one, platform Basic credentials', async () => {
    const missing = await anonymous().get('/agents/me').expect(401);
    expect(missing.body).toEqual({ status: 401, code: 'UNAUTHORIZED', message: 'Missing or invalid agent access token' });
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="Payments API"');
    const unknown = await getMe(testApp.baseUrl, `gat_${'0'.repeat(40)}`).expect(401);
    expect(unknown.headers['www-authenticate']).toBe('Bearer realm="Payments API", error="invalid_token"');
    await getMe(testApp.baseUrl, 'not-a-token').expect(401);
    await api().get('/agents/me').expect(401);
  });

  it("404: unknown and malformed codes; another platform's code and agent", async () => {
    expect((await anonymous().post('/agents/device-codes/AGENT-0000-0000/redeem').expect(404)).body).toEqual({
      status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Device code not found',
    });
    await anonymous().post('/agents/device-codes/whatever/redeem').expect(404);
    await status('AGENT-0000-0000').expect(404);
    await status('whatever').expect(404);
    const { agent, deviceCode } = await createAgent(api(), customer.id);
    const other = await testApp.createPlatform();
    await other.api.get(`/agents/device-codes/${deviceCode.code}/status`).expect(404);
    await other.api.post(`/agents/${agent.id}/device-codes`).expect(404);
    // Still usable by its own platform's agent software.
    expect(await redeem(testApp.baseUrl, deviceCode.code)).toMatch(ACCESS_TOKEN);
  });

  it("audit: the agent's history with who did each step; another platform's 404", async () => {
    const { agent, deviceCode } = await createAgent(api(), customer.id);
    await api().patch(`/agents/${agent.id}/policy`).send({ defaultExecutionMode: 'AUTO' }).expect(200);
    await redeem(testApp.baseUrl, deviceCode.code);
    await api().delete(`/agents/${agent.id}`).expect(204);
    const history = (await api().get('/audit/events').query({ resourceId: agent.id }).expect(200)).body;
    const platformActor = `platform:${testApp.platform.clientId}`;
    expect(history.data.map((entry: any) => [entry.type, entry.metadata.actor])).toEqual([
      ['AgentCreated', platformActor],
      ['AgentDeviceCodeIssued', platformActor],
      ['AgentPolicyChanged', platformActor],
      ['AgentDeviceCodeRedeemed', `agent:${agent.id}`],
      ['AgentDeleted', platformActor],
    ]);
    // Hashes only: neither the code nor the token is in the history.
    expect(JSON.stringify(history)).not.toContain(deviceCode.code);
    const other = await testApp.createPlatform();
    await other.api.get('/audit/events').query({ resourceId: agent.id }).expect(404);
  });
});

/** Expiry and the failed-redemption limit, on an app with 1-second codes and 3 failures a minute. */
describe('agents: code expiry and failed redemptions', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { AGENT_DEVICE_CODE_LIFETIME_MS: '1000', AGENT_REDEEM_MAX_FAILURES_PER_ADDRESS: '3' } });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('an expired code is refused with DEVICE_CODE_EXPIRED; a new one works', async () => {
    const customer = await createIndividual(testApp.platform.api);
    const { agent, deviceCode } = await createAgent(testApp.platform.api, customer.id);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const expired = await anonymousClient(testApp.baseUrl).post(`/agents/device-codes/${deviceCode.code}/redeem`).expect(400);
    expect(expired.body).toEqual({
      status: 400, code: 'INVALID_INPUT', message: 'This device code has expired; ask the platform for a new one', details: { reason: 'DEVICE_CODE_EXPIRED' },
    });
    const fresh = (await testApp.platform.api.post(`/agents/${agent.id}/device-codes`).expect(201)).body;
    expect(await redeem(testApp.baseUrl, fresh.code)).toMatch(ACCESS_TOKEN);
  });

  it('past the failure budget an address gets 429 with Retry-After, a valid code included', async () => {
    const customer = await createIndividual(testApp.platform.api);
    const { deviceCode } = await createAgent(testApp.platform.api, customer.id);
    // The reference declares no 429 on redeem: this answer is checked by hand, not by the contract client.
    const attempt = (code: string) => request(testApp.baseUrl).post(`/agents/device-codes/${code}/redeem`);
    let answer = await attempt('AGENT-0000-0000');
    for (let tries = 0; answer.status === 404 && tries < 5; tries++) answer = await attempt('AGENT-0000-0000');
    expect(answer.status).toBe(429);
    expect(answer.body).toMatchObject({ status: 429, code: 'RATE_LIMITED', details: { retryAfterSeconds: expect.any(Number) } });
    expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    expect((await attempt(deviceCode.code)).status).toBe(429);
  });
});
