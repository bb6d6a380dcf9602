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

  it("names the platforms an event's webhooks go to before mapping it, or null when a mapper cannot tell", () => {
    const mappers = new WebhookMappers();
    mappers.register(mapper(['QuoteCreated', 'CardIssued']));
    mappers.register({ ...mapper(['CardIssued']), platformOf: (event) => (event.data as { platformId: string }).platformId });
    const event = (type: string, metadataPlatform: string | null, dataPlatform?: string) =>
      ({ type, data: { platformId: dataPlatform }, metadata: { platformId: metadataPlatform } }) as unknown as RecordedEvent;
    expect(mappers.platformsOf(event('QuoteCreated', 'Platform:a'))).toEqual(['Platform:a']);
    expect(mappers.platformsOf(event('CardIssued', 'Platform:a', 'Platform:b'))).toEqual(['Platform:a', 'Platform:b']);
    expect(mappers.platformsOf(event('CardIssued', 'Platform:a', 'Platform:a'))).toEqual(['Platform:a']);
    // A system task's event without a platform in its metadata: mapped to find out.
    expect(mappers.platformsOf(event('QuoteCreated', null))).toBeNull();
    expect(mappers.platformsOf(event('Unknown', 'Platform:a'))).toEqual([]);
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
