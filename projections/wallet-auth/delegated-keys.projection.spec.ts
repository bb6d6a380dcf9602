import { GivenEvent, ProjectionSpec, projectionSpec } from '../../test/support/projection-spec';
import { delegatedKeysProjection } from './delegated-keys.projection';

const PLATFORM = 'Platform:0199a000-0000-7000-8000-0000000000f1';
const CARD = 'Card:0199a000-0000-7000-8000-0000000000c1';
const WALLET = 'InternalAccount:0199a000-0000-7000-8000-0000000000a1';
const FIAT = 'InternalAccount:0199a000-0000-7000-8000-0000000000a2';
const SOURCE = 'CardFundingSource:0199a000-0000-7000-8000-0000000000b1';
const KEY = 'DelegatedKey:0199a000-0000-7000-8000-0000000000d1';
const T0 = '2025-10-13T12:00:00.000Z';
const T1 = '2025-10-13T12:00:30.000Z';
const T2 = '2025-10-13T13:00:00.000Z';

const cardRef = { cardId: CARD, platformId: PLATFORM };
const cardStream = 'card-0199a000-0000-7000-8000-0000000000c1';
const keyStream = 'cardFundingSource-0199a000-0000-7000-8000-0000000000b1';
const scope = { platformId: PLATFORM, cardId: CARD, fundingSourceId: SOURCE, accountId: WALLET };

const requested: GivenEvent = {
  stream: cardStream,
  type: 'CardIssuanceRequested',
  data: {
    ...cardRef, cardholderId: 'Customer:c', platformCardId: 'card-1', form: 'VIRTUAL', currency: 'USD', fundingSources: [WALLET],
    maxSpendPerTransaction: null, issuerScenario: 'ISSUE', requestedAt: T0,
  },
};
const created: GivenEvent = {
  stream: keyStream,
  type: 'DelegatedKeyCreated',
  data: {
    ...scope, delegatedKeyId: KEY, publicKey: `02${'ab'.repeat(32)}`, nickname: 'Card payments key', requestId: 'Request:1',
    activationRequestId: 'Request:2', signedBySessionId: 'Session:s', createdAt: T0,
  },
};
const activated: GivenEvent = { stream: keyStream, type: 'DelegatedKeyActivated', data: { ...scope, delegatedKeyId: KEY, requestId: 'Request:2', signedBySessionId: 'Session:s', activatedAt: T1 } };
const revoked: GivenEvent = { stream: keyStream, type: 'DelegatedKeyRevoked', data: { ...scope, delegatedKeyId: KEY, revokedAt: T2 } };

const KEYS = `SELECT delegated_key_id, platform_id, account_id, funding_source_id, public_key, status, view::json AS view, created_at FROM wallet_delegated_keys`;
const CARDS = `SELECT card_id, platform_id, state, funding_sources::json AS funding_sources FROM wallet_card_funding`;

describe('wallet-delegated-keys projection', () => {
  let spec: ProjectionSpec;
  beforeEach(async () => {
    spec = await projectionSpec(delegatedKeysProjection);
  });
  afterEach(async () => {
    await spec.close();
  });

  it('a created key is a PENDING row with its lookup columns and the GET /auth/delegated-keys/{id} view', async () => {
    await spec.given([created]);
    expect(await spec.rows(KEYS)).toEqual([
      {
        delegated_key_id: KEY, platform_id: PLATFORM, account_id: WALLET, funding_source_id: SOURCE, public_key: `02${'ab'.repeat(32)}`, status: 'PENDING',
        view: {
          id: KEY, cardId: CARD, fundingSourceId: SOURCE, accountId: WALLET, publicKey: `02${'ab'.repeat(32)}`, nickname: 'Card payments key',
          status: 'PENDING', createdAt: T0, updatedAt: T0,
        },
        created_at: new Date(T0),
      },
    ]);
  });

  it('activation and revocation update status and updatedAt; createdAt stays', async () => {
    await spec.given([created, activated]);
    expect((await spec.rows(KEYS))[0]).toMatchObject({ status: 'ACTIVE', view: { status: 'ACTIVE', createdAt: T0, updatedAt: T1 } });
    await spec.given([revoked]);
    expect((await spec.rows(KEYS))[0]).toMatchObject({ status: 'REVOKED', view: { status: 'REVOKED', createdAt: T0, updatedAt: T2 }, created_at: new Date(T0) });
  });

  it('ignores activations and revocations of keys it never saw', async () => {
    await spec.given([activated, revoked]);
    expect(await spec.rows(KEYS)).toEqual([]);
  });

  it("follows each card's state and funding accounts from the cards context's events", async () => {
    await spec.given([requested]);
    expect(await spec.rows(CARDS)).toEqual([{ card_id: CARD, platform_id: PLATFORM, state: 'PROCESSING', funding_sources: [WALLET] }]);
    await spec.given([
      { stream: cardStream, type: 'CardIssued', data: { ...cardRef, last4: '4242', expMonth: 10, expYear: 2028, issuedAt: T0 } },
      { stream: cardStream, type: 'CardFundingSourcesChanged', data: { ...cardRef, previousFundingSources: [WALLET], fundingSources: [FIAT, WALLET], changedAt: T1 } },
      { stream: cardStream, type: 'CardFrozen', data: { ...cardRef, frozenAt: T1 } },
    ]);
    expect(await spec.rows(CARDS)).toEqual([{ card_id: CARD, platform_id: PLATFORM, state: 'FROZEN', funding_sources: [FIAT, WALLET] }]);
    await spec.given([
      { stream: cardStream, type: 'CardUnfrozen', data: { ...cardRef, unfrozenAt: T1 } },
      { stream: cardStream, type: 'CardClosed', data: { ...cardRef, previousState: 'ACTIVE', reason: 'CLOSED_BY_PLATFORM', closedAt: T2 } },
    ]);
    expect((await spec.rows(CARDS))[0]).toMatchObject({ state: 'CLOSED', funding_sources: [FIAT, WALLET] });
  });

  it('a card the issuer rejected is CLOSED; card events before the card is known are skipped', async () => {
    await spec.given([
      { stream: 'card-x', type: 'CardIssued', data: { cardId: 'Card:x', platformId: PLATFORM, last4: '1', expMonth: 1, expYear: 2030, issuedAt: T0 } },
      requested,
      { stream: cardStream, type: 'CardIssuanceRejected', data: { ...cardRef, reason: 'ISSUER_REJECTED', rejectedAt: T1 } },
    ]);
    expect(await spec.rows(CARDS)).toEqual([{ card_id: CARD, platform_id: PLATFORM, state: 'CLOSED', funding_sources: [WALLET] }]);
  });
});
