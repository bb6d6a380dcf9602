import { RecordedEvent } from '../../infra/event-store/event-store.port';
import { WebhookTestRequested, testWebhookData } from '../domain/webhook-test/webhook-test.events';
import { WebhookDraft, WebhookMapper } from '../webhook-mappers';

/**
 * `TEST`: the queued sandbox test (`POST /sandbox/webhooks/test/async`) goes through the same
 * reactor, queue and worker as every other kind, with retries. Also the example to copy.
 */
export const testWebhookMapper: WebhookMapper = {
  eventTypes: ['WebhookTestRequested'],
  async toWebhooks(event: RecordedEvent): Promise<WebhookDraft[]> {
    const data = event.data as WebhookTestRequested['data'];
    return [{ type: 'TEST', platformId: data.platformId, data: testWebhookData(data.platformId, data.requestedAt) }];
  },
};
