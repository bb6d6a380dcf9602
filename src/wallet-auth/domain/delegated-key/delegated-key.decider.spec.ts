import { deciderSpec } from '../../../../test/support/decider-spec';
import { parseId } from '../../../infra/ids';
import { FundingSourceKeysCommand, fundingSourceKeysDecider, keyActivatedBy } from './delegated-key.decider';
import { DelegatedKeyEvent } from './delegated-key.events';
import { cardFundingSourceId, delegatedKeyIdFor } from './delegated-key.ids';

const CARD = 'Card:0199a000-0000-7000-8000-0000000000c1';
const ACCOUNT = 'InternalAccount:0199a000-0000-7000-8000-0000000000a1';
const scope = { platformId: 'Platform:p', cardId: CARD, fundingSourceId: cardFundingSourceId(CARD, ACCOUNT), accountId: ACCOUNT };
const KEY_1 = 'DelegatedKey:0199a000-0000-7000-8000-000000000d01';
const KEY_2 = 'DelegatedKey:0199a000-0000-7000-8000-000000000d02';

function create(delegatedKeyId: string, now: string): FundingSourceKeysCommand {
  return {
    type: 'CreateDelegatedKey',
    ...scope,
    delegatedKeyId,
    publicKey: `02${'ab'.repeat(32)}`,
    nickname: 'Card payments key',
    requestId: `Request:0199a000-0000-7000-8000-0000000001${delegatedKeyId.slice(-2)}`,
    activationRequestId: `Request:0199a000-0000-7000-8000-0000000002${delegatedKeyId.slice(-2)}`,
    signedBySessionId: 'Session:s',
    now,
  };
}

const activate = (delegatedKeyId: string, now: string): FundingSourceKeysCommand => ({ type: 'ActivateDelegatedKey', delegatedKeyId, requestId: 'Request:r', signedBySessionId: 'Session:s', now });
const revoke = (delegatedKeyId: string, now: string): FundingSourceKeysCommand => ({ type: 'RevokeDelegatedKey', delegatedKeyId, now });

const spec = deciderSpec(fundingSourceKeysDecider);

describe('card funding source delegated keys decider', () => {
  const created1 = spec.given([]).when(create(KEY_1, '2025-10-13T12:00:00.000Z')).events;
  const active1 = [...created1, ...spec.given(created1).when(activate(KEY_1, '2025-10-13T12:00:30.000Z')).events];
  const revoked1 = [...active1, ...spec.given(active1).when(revoke(KEY_1, '2025-10-13T13:00:00.000Z')).events];

  it('creates a PENDING key with its public key and the Request-Id that activates it; a replay is a no-op', () => {
    const { type: _type, now: _now, ...data } = create(KEY_1, '2025-10-13T12:00:00.000Z') as Extract<FundingSourceKeysCommand, { type: 'CreateDelegatedKey' }>;
    spec.given([]).when(create(KEY_1, '2025-10-13T12:00:00.000Z')).then([{ type: 'DelegatedKeyCreated', data: { ...data, createdAt: '2025-10-13T12:00:00.000Z' } }]);
    spec.given(created1).when(create(KEY_1, '2025-10-13T12:00:09.000Z')).then([]);
    const state = spec.state(created1);
    expect(state.keys[KEY_1]).toMatchObject({ status: 'PENDING', createdAt: '2025-10-13T12:00:00.000Z', updatedAt: '2025-10-13T12:00:00.000Z' });
    expect(keyActivatedBy(state, 'Request:0199a000-0000-7000-8000-000000000201')?.delegatedKeyId).toBe(KEY_1);
    expect(keyActivatedBy(state, 'Request:0199a000-0000-7000-8000-000000000101')).toBeNull();
  });

  it('activation makes the key ACTIVE (updatedAt moves) and is done once', () => {
    spec.given(created1).when(activate(KEY_1, '2025-10-13T12:00:30.000Z')).then([
      { type: 'DelegatedKeyActivated', data: { ...scope, delegatedKeyId: KEY_1, requestId: 'Request:r', signedBySessionId: 'Session:s', activatedAt: '2025-10-13T12:00:30.000Z' } },
    ]);
    const state = spec.state(active1);
    expect(state).toMatchObject({ activeKeyId: KEY_1, keys: { [KEY_1]: { status: 'ACTIVE', createdAt: '2025-10-13T12:00:00.000Z', updatedAt: '2025-10-13T12:00:30.000Z' } } });
    expect(keyActivatedBy(state, 'Request:0199a000-0000-7000-8000-000000000201')?.status).toBe('ACTIVE');
    spec.given(active1).when(activate(KEY_1, '2025-10-13T12:00:40.000Z')).then([]);
    spec.given([]).when(activate(KEY_1, '2025-10-13T12:00:40.000Z')).thenError('REFERENCE_NOT_FOUND');
  });

  it('one ACTIVE key per funding source: another is neither created nor activated while it lives (409 CONFLICT)', () => {
    spec.given(active1).when(create(KEY_2, '2025-10-13T12:01:00.000Z')).thenError('CONFLICT', { reason: 'DELEGATED_KEY_ALREADY_ACTIVE', delegatedKeyId: KEY_1 });
    // Two creations raced: both PENDING, the first activated wins, the second is refused.
    const bothPending = [...created1, ...spec.given(created1).when(create(KEY_2, '2025-10-13T12:00:01.000Z')).events];
    const firstWins = [...bothPending, ...spec.given(bothPending).when(activate(KEY_1, '2025-10-13T12:00:30.000Z')).events];
    spec.given(firstWins).when(activate(KEY_2, '2025-10-13T12:00:31.000Z')).thenError('CONFLICT', { reason: 'DELEGATED_KEY_ALREADY_ACTIVE' });
  });

  it('abandoned PENDING keys block nothing; after a revocation a new key may be created and activated', () => {
    const created2 = spec.given(created1).when(create(KEY_2, '2025-10-13T12:05:00.000Z')).events;
    expect(created2).toHaveLength(1);
    const afterRevocation = [...revoked1, ...spec.given(revoked1).when(create(KEY_2, '2025-10-13T13:01:00.000Z')).events];
    expect(spec.given(afterRevocation).when(activate(KEY_2, '2025-10-13T13:01:30.000Z')).events.map((event: DelegatedKeyEvent) => event.type)).toEqual(['DelegatedKeyActivated']);
  });

  it('revokes only an ACTIVE key: PENDING and REVOKED keys are 400 INVALID_INPUT, unknown ids 404', () => {
    spec.given(active1).when(revoke(KEY_1, '2025-10-13T13:00:00.000Z')).then([
      { type: 'DelegatedKeyRevoked', data: { ...scope, delegatedKeyId: KEY_1, revokedAt: '2025-10-13T13:00:00.000Z' } },
    ]);
    expect(spec.state(revoked1)).toMatchObject({ activeKeyId: null, keys: { [KEY_1]: { status: 'REVOKED', updatedAt: '2025-10-13T13:00:00.000Z' } } });
    spec.given(revoked1).when(revoke(KEY_1, '2025-10-13T13:00:01.000Z')).thenError('INVALID_INPUT', { reason: 'DELEGATED_KEY_NOT_ACTIVE', status: 'REVOKED' });
    spec.given(created1).when(revoke(KEY_1, '2025-10-13T13:00:01.000Z')).thenError('INVALID_INPUT', { reason: 'DELEGATED_KEY_NOT_ACTIVE', status: 'PENDING' });
    spec.given([]).when(revoke(KEY_1, '2025-10-13T13:00:01.000Z')).thenError('REFERENCE_NOT_FOUND');
    // A revoked key is never activated again.
    spec.given(revoked1).when(activate(KEY_1, '2025-10-13T13:00:02.000Z')).then([]);
  });

  it('names the binding and the key deterministically, as uuid v7 ids', () => {
    expect(cardFundingSourceId(CARD, ACCOUNT)).toBe(scope.fundingSourceId);
    expect(parseId('CardFundingSource', scope.fundingSourceId)).not.toBeNull();
    expect(cardFundingSourceId(CARD, 'InternalAccount:0199a000-0000-7000-8000-0000000000a2')).not.toBe(scope.fundingSourceId);
    const key = delegatedKeyIdFor('Request:0199a000-0000-7000-8000-000000000101');
    expect(key).toMatch(/^DelegatedKey:0199a000-0000-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(delegatedKeyIdFor('Request:0199a000-0000-7000-8000-000000000101')).toBe(key);
  });
});
