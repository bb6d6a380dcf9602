import { generateWalletKeyPair, stampPayload } from '../../../src/wallet-auth/client';
import { TestApp, TestPlatform, startTestApp } from '../../support/test-app';
import { FundedCard, createDelegatedKey, fiatAccountOf, issueWalletCard, signedRetry, walletCard } from './delegated-key-fixtures';

const NOT_FOUND = { status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Delegated key not found' };
const UNKNOWN_KEY = 'DelegatedKey:0199a000-0000-7000-8000-00000000abcd';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * Delegated signing keys (issue 24 part 4, docs/wallets.md "Delegated keys"): the three-leg
 * creation signed by the funding wallet's session, the list and get, revocation, one ACTIVE key
 * per card funding source, every refusal the reference lists, the audit history, and another
 * platform's ids answering like unknown ones.
 */
describe('delegated signing keys', () => {
  let testApp: TestApp;
  let other: TestPlatform;

  beforeAll(async () => {
    testApp = await startTestApp();
    other = await testApp.createPlatform();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;

  function expectError(response: { status: number; body: any }, status: number, code: string, details?: Record<string, unknown>) {
    expect({ status: response.status, code: response.body.code }).toEqual({ status, code });
    expect(response.body.status).toBe(status);
    if (details) expect(response.body.details).toMatchObject(details);
  }

  it('three legs with the same body: 202 (a payload naming the new key), signed 202 (the policy), signed 201 the ACTIVE key', async () => {
    const { wallet, sessionKey, card, body } = await walletCard(testApp);
    const { first, second, created } = await createDelegatedKey(api(), body, sessionKey);
    expect(Object.keys(first).sort()).toEqual(['expiresAt', 'payloadToSign', 'requestId']);
    const signer = JSON.parse(first.payloadToSign);
    expect(Object.keys(signer)).toEqual(['organizationId', 'parameters', 'timestampMs', 'type']);
    expect(signer).toMatchObject({ organizationId: wallet.accountId, type: 'ACTIVITY_TYPE_CREATE_USERS', parameters: { cardId: card.id, nickname: body.nickname, requestId: first.requestId } });
    expect(second.requestId).not.toBe(first.requestId);
    const policy = JSON.parse(second.payloadToSign);
    expect(policy).toMatchObject({ type: 'ACTIVITY_TYPE_CREATE_POLICIES', parameters: { delegatedKeyId: signer.parameters.delegatedKeyId, publicKey: signer.parameters.publicKey, requestId: second.requestId } });
    expect(created).toEqual({
      id: signer.parameters.delegatedKeyId,
      cardId: card.id,
      fundingSourceId: signer.parameters.fundingSourceId,
      accountId: wallet.accountId,
      publicKey: signer.parameters.publicKey,
      nickname: 'Card payments key',
      status: 'ACTIVE',
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    expect(created.id).toMatch(/^DelegatedKey:[0-9a-f]{8}-[0-9a-f]{4}-7/);
    expect(created.fundingSourceId).toMatch(/^CardFundingSource:[0-9a-f]{8}-[0-9a-f]{4}-7/);
    expect(created.publicKey).toMatch(/^0[23][0-9a-f]{64}$/);
    expect((await api().get(`/auth/delegated-keys/${created.id}`).expect(200)).body).toEqual(created);
    expect((await api().get('/auth/delegated-keys').query({ accountId: wallet.accountId }).expect(200)).body).toEqual({ data: [created] });
    expect((await api().get('/auth/delegated-keys').query({ fundingSourceId: created.fundingSourceId, accountId: wallet.accountId }).expect(200)).body).toEqual({ data: [created] });
    // The client toolkit runs the same three legs (after a revocation: one ACTIVE key at a time).
    await wallet.client.revokeDelegatedKey(created.id);
    expect(await wallet.client.createDelegatedKey(body, sessionKey)).toMatchObject({ status: 'ACTIVE', cardId: card.id });
  });

  it('one ACTIVE key per card funding source (409 CONFLICT); revocation is 204, then REVOKED, and a new key may be created', async () => {
    const { sessionKey, body } = await walletCard(testApp);
    const { created } = await createDelegatedKey(api(), body, sessionKey);
    const conflict = await api().post('/auth/delegated-keys').send({ ...body, nickname: 'Second key' }).expect(409);
    expect(conflict.body).toEqual({
      status: 409,
      code: 'CONFLICT',
      message: 'An ACTIVE delegated key already exists for this card funding source; revoke it before creating another',
      details: { reason: 'DELEGATED_KEY_ALREADY_ACTIVE', delegatedKeyId: created.id },
    });
    const revoked = await api().delete(`/auth/delegated-keys/${created.id}`).expect(204);
    expect(revoked.text).toBe('');
    const shown = (await api().get(`/auth/delegated-keys/${created.id}`).expect(200)).body;
    expect(shown).toEqual({ ...created, status: 'REVOKED', updatedAt: expect.stringMatching(ISO) });
    expect(Date.parse(shown.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
    const again = await api().delete(`/auth/delegated-keys/${created.id}`).expect(400);
    expect(again.body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: 'The delegated key is REVOKED; only an ACTIVE delegated key can be revoked',
      details: { reason: 'DELEGATED_KEY_NOT_ACTIVE', status: 'REVOKED' },
    });
    const next = (await createDelegatedKey(api(), { ...body, nickname: 'Second key' }, sessionKey)).created;
    expect(next).toMatchObject({ status: 'ACTIVE', fundingSourceId: created.fundingSourceId, nickname: 'Second key' });
    const listed = (await api().get('/auth/delegated-keys').query({ fundingSourceId: created.fundingSourceId }).expect(200)).body.data;
    expect(listed.map((key: { id: string; status: string }) => [key.id, key.status])).toEqual([[created.id, 'REVOKED'], [next.id, 'ACTIVE']]);
  });

  it('an abandoned creation leaves a PENDING key that blocks nothing and cannot be revoked; a used Request-Id is refused', async () => {
    const { sessionKey, body } = await walletCard(testApp);
    const first = (await api().post('/auth/delegated-keys').send(body).expect(202)).body;
    const second = (await signedRetry(api(), body, first, sessionKey).expect(202)).body;
    const replayed = await signedRetry(api(), body, first, sessionKey).expect(401);
    expectError(replayed, 401, 'UNAUTHORIZED', { reason: 'Request-Id was already used; request ids are single use' });
    const pending = (await api().get('/auth/delegated-keys').query({ accountId: body.internalAccountId }).expect(200)).body.data;
    expect(pending).toEqual([expect.objectContaining({ id: JSON.parse(second.payloadToSign).parameters.delegatedKeyId, status: 'PENDING' })]);
    expectError(await api().delete(`/auth/delegated-keys/${pending[0].id}`).expect(400), 400, 'INVALID_INPUT', { reason: 'DELEGATED_KEY_NOT_ACTIVE', status: 'PENDING' });
    const { created } = await createDelegatedKey(api(), body, sessionKey);
    expect(created.status).toBe('ACTIVE');
    // The abandoned policy leg can no longer activate its key: another key is ACTIVE.
    expectError(await signedRetry(api(), body, second, sessionKey).expect(409), 409, 'CONFLICT', { reason: 'DELEGATED_KEY_ALREADY_ACTIVE', delegatedKeyId: created.id });
  });

  it('every signed-leg refusal: half headers, a malformed or foreign stamp, another body, an unknown Request-Id', async () => {
    const { sessionKey, body } = await walletCard(testApp);
    const first = (await api().post('/auth/delegated-keys').send(body).expect(202)).body;
    const stamp = stampPayload(first.payloadToSign, sessionKey);
    const call = (headers: Record<string, string>, sent: object = body) => api().post('/auth/delegated-keys').set(headers).send(sent);
    expectError(await call({ 'Service-Wallet-Signature': stamp }), 401, 'REQUEST_ID_MISSING');
    expectError(await call({ 'Request-Id': first.requestId }), 401, 'WALLET_SIGNATURE_MISSING');
    expectError(await call({ 'Service-Wallet-Signature': 'not base64url!', 'Request-Id': first.requestId }), 401, 'WALLET_SIGNATURE_MALFORMED');
    expectError(await call({ 'Service-Wallet-Signature': stamp, 'Request-Id': first.requestId }, { ...body, nickname: 'Another' }), 401, 'WALLET_SIGNATURE_BODY_MISMATCH');
    expectError(await call({ 'Service-Wallet-Signature': stampPayload(`${first.payloadToSign} `, sessionKey), 'Request-Id': first.requestId }), 401, 'WALLET_SIGNATURE_INVALID', {
      reason: 'Wallet signature does not verify over payloadToSign',
    });
    expectError(await call({ 'Service-Wallet-Signature': stampPayload(first.payloadToSign, generateWalletKeyPair()), 'Request-Id': first.requestId }), 401, 'WALLET_SIGNATURE_INVALID', {
      reason: 'Wallet signature key is not an active session key of this wallet',
    });
    expectError(await call({ 'Service-Wallet-Signature': stamp, 'Request-Id': 'Request:0199a000-0000-7000-8000-00000000abcd' }), 401, 'UNAUTHORIZED', {
      reason: 'Request-Id does not name a pending request',
    });
    // None of the refusals used the request up.
    expect((await call({ 'Service-Wallet-Signature': stamp, 'Request-Id': first.requestId }).expect(202)).body.requestId).not.toBe(first.requestId);
  });

  it('the body: every bad field at once (400); an unknown or foreign card, an account that does not fund it (404); a CLOSED card, a fiat funding account (400)', async () => {
    const { wallet, card, body } = await walletCard(testApp);
    const bad = await api().post('/auth/delegated-keys').send({ cardId: 'nope', internalAccountId: 7, nickname: '', extra: true }).expect(400);
    expect(bad.body.code).toBe('INVALID_INPUT');
    expect(bad.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['cardId', 'extra', 'internalAccountId', 'nickname']);
    expect((await api().post('/auth/delegated-keys').send({ ...body, nickname: 'x'.repeat(257) }).expect(400)).body.details.errors).toEqual([
      { field: 'nickname', constraint: { maxLength: 256 }, message: expect.any(String) },
    ]);
    const unknownCard = await api().post('/auth/delegated-keys').send({ ...body, cardId: 'Card:0199a000-0000-7000-8000-00000000abcd' }).expect(404);
    expect(unknownCard.body).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Card not found' });
    const otherWallet = await walletCard(testApp);
    const notFunding = await api().post('/auth/delegated-keys').send({ ...body, internalAccountId: otherWallet.wallet.accountId }).expect(404);
    expect(notFunding.body).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Card funding source not found: the card is not funded by this internal account' });

    const fiat = await fiatAccountOf(api(), wallet.customerId);
    const mixed = await issueWalletCard(api(), wallet, [fiat.id]);
    const fiatFunded = await api().post('/auth/delegated-keys').send({ ...body, cardId: mixed.id, internalAccountId: fiat.id }).expect(400);
    expect(fiatFunded.body.details.errors).toEqual([{ field: 'internalAccountId', constraint: {}, message: 'internalAccountId must be an EMBEDDED_WALLET internal account' }]);

    await api().patch(`/cards/${card.id}`).send({ state: 'CLOSED' }).expect(200);
    const closed = await api().post('/auth/delegated-keys').send(body).expect(400);
    expect(closed.body.details.errors).toEqual([{ field: 'cardId', constraint: {}, message: `${card.id} is CLOSED: a closed card makes no payment for a delegated key to sign` }]);
  });

  it('list filters: one of accountId and fundingSourceId at least, each an id of its type, nothing else; unknown ids list nothing', async () => {
    const missing = await api().get('/auth/delegated-keys').expect(400);
    expect(missing.body.details.errors).toEqual([{ field: 'accountId', constraint: {}, message: 'Give accountId, fundingSourceId or both' }]);
    const bad = await api().get('/auth/delegated-keys').query({ accountId: 'Card:0199a000-0000-7000-8000-00000000abcd', fundingSourceId: 'x', limit: 5 }).expect(400);
    expect(bad.body.details.errors).toEqual([
      { field: 'limit', constraint: {}, message: 'Unknown query parameter limit' },
      { field: 'accountId', constraint: { format: 'InternalAccount-id' }, message: 'accountId must be a InternalAccount:<uuid> id' },
      { field: 'fundingSourceId', constraint: { format: 'CardFundingSource-id' }, message: 'fundingSourceId must be a CardFundingSource:<uuid> id' },
    ]);
    expect((await api().get('/auth/delegated-keys').query({ fundingSourceId: 'CardFundingSource:0199a000-0000-7000-8000-00000000abcd' }).expect(200)).body).toEqual({ data: [] });
  });

  it('path ids: GET of a malformed or unknown id is 404 (it declares no 400); DELETE of a malformed id is 400, of an unknown one 404', async () => {
    expect((await api().get('/auth/delegated-keys/nope').expect(404)).body).toEqual(NOT_FOUND);
    expect((await api().get(`/auth/delegated-keys/${UNKNOWN_KEY}`).expect(404)).body).toEqual(NOT_FOUND);
    expect((await api().delete('/auth/delegated-keys/nope').expect(400)).body.details.errors).toEqual([
      { field: 'id', constraint: { format: 'DelegatedKey-id' }, message: 'id must be a DelegatedKey:<uuid> id' },
    ]);
    expect((await api().delete(`/auth/delegated-keys/${UNKNOWN_KEY}`).expect(404)).body).toEqual(NOT_FOUND);
  });

  it("another platform's keys, cards and wallets answer like unknown ones", async () => {
    const funded: FundedCard = await walletCard(testApp);
    const { created } = await createDelegatedKey(api(), funded.body, funded.sessionKey);
    expect((await other.api.get(`/auth/delegated-keys/${created.id}`).expect(404)).body).toEqual(NOT_FOUND);
    expect((await other.api.delete(`/auth/delegated-keys/${created.id}`).expect(404)).body).toEqual(NOT_FOUND);
    expect((await other.api.get('/auth/delegated-keys').query({ accountId: funded.wallet.accountId, fundingSourceId: created.fundingSourceId }).expect(200)).body).toEqual({ data: [] });
    expect((await other.api.post('/auth/delegated-keys').send(funded.body).expect(404)).body).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Card not found' });
    await other.api.get('/audit/events').query({ resourceId: created.id }).expect(404);
    expect((await api().get(`/auth/delegated-keys/${created.id}`).expect(200)).body.status).toBe('ACTIVE');
  });

  it('audit history: creation, activation and revocation are events of the key, with who did them', async () => {
    const { sessionKey, body } = await walletCard(testApp);
    const { first, created } = await createDelegatedKey(api(), body, sessionKey);
    await api().delete(`/auth/delegated-keys/${created.id}`).expect(204);
    const history = (await api().get('/audit/events').query({ resourceId: created.id }).expect(200)).body;
    expect(history.data.map((entry: { type: string }) => entry.type)).toEqual(['DelegatedKeyCreated', 'DelegatedKeyActivated', 'DelegatedKeyRevoked']);
    expect(history.data.every((entry: { streamName: string }) => entry.streamName === `cardFundingSource-${created.fundingSourceId.split(':')[1]}`)).toBe(true);
    expect(history.data[0].data).toEqual({
      platformId: testApp.platform.platformId,
      cardId: created.cardId,
      fundingSourceId: created.fundingSourceId,
      accountId: created.accountId,
      delegatedKeyId: created.id,
      publicKey: created.publicKey,
      nickname: created.nickname,
      requestId: first.requestId,
      activationRequestId: expect.stringMatching(/^Request:/),
      signedBySessionId: expect.stringMatching(/^Session:/),
      createdAt: created.createdAt,
    });
    expect(history.data[2].data).toEqual({ platformId: testApp.platform.platformId, cardId: created.cardId, fundingSourceId: created.fundingSourceId, accountId: created.accountId, delegatedKeyId: created.id, revokedAt: expect.stringMatching(ISO) });
    for (const entry of history.data) expect(entry.metadata).toMatchObject({ platformId: testApp.platform.platformId, actor: expect.stringMatching(/^platform:/) });
    // The funding source's own history holds every key's events.
    const source = (await api().get('/audit/events').query({ resourceId: created.fundingSourceId }).expect(200)).body;
    expect(source.totalCount).toBe(3);
  });
});
