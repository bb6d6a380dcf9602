import { RecordedEvent } from '../infra/event-store/event-store.port';
import { WebhookMapper, WebhookMappers } from './webhook-mappers';
import { deliveryIdFor, webhookIdFor } from './webhook-ids';

describe('WebhookMappers', () => {
  const mapper = (eventTypes: string[]): WebhookMapper => ({ eventTypes, toWebhooks: async (_event: RecordedEvent) => [] });

  it('finds every mapper of an event type, in registration order', () => {
    const mappers = new WebhookMappers();
    const first = mapper(['QuoteCreated', 'QuoteExecuted']);
    const second = mapper(['QuoteExecuted']);
    mappers.register(first);
    mappers.register(second);
    mappers.register(first);
    expect(mappers.mappersFor('QuoteExecuted')).toEqual([first, second]);
    expect(mappers.mappersFor('QuoteCreated')).toEqual([first]);
    expect(mappers.mappersFor('Unknown')).toEqual([]);
    expect(mappers.eventTypes()).toEqual(['QuoteCreated', 'QuoteExecuted']);
  });

  it('refuses a registration after the reactor read the event types (it would miss events)', () => {
    const mappers = new WebhookMappers();
    mappers.register(mapper(['A']));
    mappers.eventTypes();
    expect(() => mappers.register(mapper(['B']))).toThrow(/onModuleInit/);
  });

  it('refuses a mapper without event types', () => {
    expect(() => new WebhookMappers().register(mapper([]))).toThrow();
  });
});

describe('webhook ids', () => {
  it('are the same for the same (platform, event, type, key) and differ otherwise', () => {
    const id = webhookIdFor('Platform:p', 'e1', 'TEST', '0');
    expect(id).toMatch(/^Webhook:[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(webhookIdFor('Platform:p', 'e1', 'TEST', '0')).toBe(id);
    expect(new Set([
      id,
      webhookIdFor('Platform:q', 'e1', 'TEST', '0'),
      webhookIdFor('Platform:p', 'e2', 'TEST', '0'),
      webhookIdFor('Platform:p', 'e1', 'CARD.STATE_CHANGE', '0'),
      webhookIdFor('Platform:p', 'e1', 'TEST', '1'),
    ]).size).toBe(5);
    expect(deliveryIdFor(id)).toBe(deliveryIdFor(id));
    expect(deliveryIdFor(id)).toMatch(/^WebhookDelivery:/);
  });
});
