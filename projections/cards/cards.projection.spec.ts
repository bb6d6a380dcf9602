import { projectionSpec, ProjectionSpec } from '../../test/support/projection-spec';
import { cardsProjection } from './cards.projection';

const PLATFORM = 'Platform:0199a000-0000-7000-8000-0000000000f1';
const CARD = 'Card:0199a000-0000-7000-8000-0000000000c1';
const ref = { cardId: CARD, platformId: PLATFORM };
const stream = 'card-0199a000-0000-7000-8000-0000000000c1';
const requested = {
  stream,
  type: 'CardIssuanceRequested',
  data: {
    ...ref,
    cardholderId: 'Customer:0199a000-0000-7000-8000-000000000001',
    platformCardId: 'card-123',
    form: 'VIRTUAL',
    currency: 'USD',
    fundingSources: ['InternalAccount:0199a000-0000-7000-8000-0000000000a1'],
    maxSpendPerTransaction: null,
    issuerScenario: 'ISSUE',
    requestedAt: '2025-10-13T12:00:00.000Z',
  },
};
const issued = { stream, type: 'CardIssued', data: { ...ref, last4: '4242', expMonth: 10, expYear: 2028, issuedAt: '2025-10-13T12:00:05.000Z' } };
const frozen = { stream, type: 'CardFrozen', data: { ...ref, frozenAt: '2025-10-13T12:01:00.000Z' } };

describe('cards projection', () => {
  let spec: ProjectionSpec;
  beforeEach(async () => {
    spec = await projectionSpec(cardsProjection);
  });
  afterEach(async () => {
    await spec.close();
  });

  it('a requested card is one PROCESSING row: its list columns, the read model record and its GET view', async () => {
    await spec.given([requested]);
    const [row] = await spec.rows(
      'SELECT platform_id, card_id, cardholder_id, platform_card_id, state, record::json AS record, view::json AS view, created_at FROM cards',
    );
    const { issuerScenario: _writeSideOnly, requestedAt, ...shown } = requested.data;
    expect(row).toEqual({
      platform_id: PLATFORM,
      card_id: CARD,
      cardholder_id: 'Customer:0199a000-0000-7000-8000-000000000001',
      platform_card_id: 'card-123',
      state: 'PROCESSING',
      // The read model's own record: no issuer scenario (the write side's business).
      record: {
        status: 'PROCESSING', ...shown, stateReason: null, last4: null, expMonth: null, expYear: null, createdAt: requestedAt, updatedAt: requestedAt,
      },
      view: expect.objectContaining({ id: CARD, state: 'PROCESSING', cardholderId: 'Customer:0199a000-0000-7000-8000-000000000001' }),
      created_at: new Date('2025-10-13T12:00:00.000Z'),
    });
  });

  it('issuance and freezing update the same row: state, PAN details, updated_at', async () => {
    await spec.given([requested, issued, frozen]);
    const rows = await spec.rows('SELECT state, record::json AS record, view::json AS view, updated_at FROM cards');
    expect(rows).toEqual([
      {
        state: 'FROZEN',
        record: expect.objectContaining({ status: 'FROZEN', last4: '4242', expMonth: 10, expYear: 2028, updatedAt: '2025-10-13T12:01:00.000Z' }),
        view: expect.objectContaining({ state: 'FROZEN', last4: '4242', expMonth: 10, expYear: 2028 }),
        updated_at: new Date('2025-10-13T12:01:00.000Z'),
      },
    ]);
  });

  it('an event for a card it never saw requested leaves no row', async () => {
    await spec.given([issued]);
    expect(await spec.rows('SELECT card_id FROM cards')).toEqual([]);
  });
});
