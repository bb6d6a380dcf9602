import { Pool } from 'pg';
import { cardsProjection } from '../../../projections/cards/cards.projection';
import { cardWebhooks } from '../../../src/cards/card-webhooks';
import { toWireJson } from '../../../src/infra/http/wire-json';
import { EVENT_STORE, EventStore } from '../../../src/infra/event-store/event-store.port';
import { EventStoreService } from '../../../src/infra/event-store/event-store.service';
import { streamNameFor } from '../../../src/infra/ids';
import { verifyProjection } from '../../../src/infra/projections/projection-rebuild';
import { TestApp, startTestApp } from '../../support/test-app';
import { uniqueId } from '../../support/customer-fixtures';
import { approvedCardholder, cardInState, issueCard } from './card-fixtures';

const onTheWire = (value: unknown): unknown => JSON.parse(toWireJson(value));

/**
 * The card webhook mapping: every lifecycle move is one `CARD.STATE_CHANGE` whose `data`, built
 * from the stream up to the event, equals what GET answered right after it; other card events
 * are no webhook. And the `cards` read model rebuilds row for row from the log.
 */
describe('card webhook views and the cards read model', () => {
  let testApp: TestApp;
  let events: EventStoreService;

  beforeAll(async () => {
    testApp = await startTestApp();
    events = testApp.app.get(EventStoreService);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('maps each state change to CARD.STATE_CHANGE with the GET view of that moment', async () => {
    const api = testApp.platform.api;
    const holder = await approvedCardholder(api);
    const created = await issueCard(api, holder, { maxSpendPerTransaction: 900 });
    const active = await cardInState(api, created.id, 'ACTIVE');
    const limited = (await api.patch(`/cards/${created.id}`).send({ maxSpendPerTransaction: 1_200, fundingSources: [holder.accounts.USDB.id] }).expect(200)).body;
    const frozen = (await api.patch(`/cards/${created.id}`).send({ state: 'FROZEN' }).expect(200)).body;
    const unfrozen = (await api.patch(`/cards/${created.id}`).send({ state: 'ACTIVE' }).expect(200)).body;
    const closed = (await api.patch(`/cards/${created.id}`).send({ state: 'CLOSED' }).expect(200)).body;

    const stream = await events.readStream(streamNameFor(created.id));
    expect(stream.map((event) => event.type)).toEqual([
      'CardIssuanceRequested', 'CardIssued', 'CardFundingSourcesChanged', 'CardSpendLimitChanged', 'CardFrozen', 'CardUnfrozen', 'CardClosed',
    ]);
    // As the wire writes them (nulls left out, `maxSpendPerTransaction` kept): what GET answered.
    const mapped = stream.map((event, index) => onTheWire(cardWebhooks(event, stream.slice(0, index + 1))));
    expect(mapped).toEqual([
      [],
      [{ type: 'CARD.STATE_CHANGE', data: active }],
      [],
      [],
      [{ type: 'CARD.STATE_CHANGE', data: frozen }],
      [{ type: 'CARD.STATE_CHANGE', data: unfrozen }],
      [{ type: 'CARD.STATE_CHANGE', data: closed }],
    ]);
    expect(frozen).toEqual({ ...limited, state: 'FROZEN', updatedAt: frozen.updatedAt });
  });

  it('an issuer rejection is a CARD.STATE_CHANGE to CLOSED with stateReason ISSUER_REJECTED', async () => {
    const api = testApp.platform.api;
    const holder = await approvedCardholder(api);
    const created = await issueCard(api, holder, { platformCardId: uniqueId('w').concat('-002') });
    const rejected = await cardInState(api, created.id, 'CLOSED');
    const stream = await events.readStream(streamNameFor(created.id));
    expect(onTheWire(cardWebhooks(stream[1], stream))).toEqual([{ type: 'CARD.STATE_CHANGE', data: rejected }]);
    expect(rejected.stateReason).toBe('ISSUER_REJECTED');
  });

  it('the cards read model rebuilds from the log row for row', async () => {
    const api = testApp.platform.api;
    const holder = await approvedCardholder(api);
    await issueCard(api, holder, { platformCardId: uniqueId('v').concat('-001') });
    const card = await issueCard(api, holder);
    await cardInState(api, card.id, 'ACTIVE');
    await api.patch(`/cards/${card.id}`).send({ state: 'FROZEN', maxSpendPerTransaction: 3 }).expect(200);
    const pool = new Pool({ connectionString: testApp.databaseUrl, max: 2 });
    try {
      const { differences } = await verifyProjection(pool, testApp.app.get<EventStore>(EVENT_STORE), cardsProjection);
      expect(differences).toEqual([]);
    } finally {
      await pool.end();
    }
  });
});
