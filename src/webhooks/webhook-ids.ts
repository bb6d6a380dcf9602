import { uuidv5 } from '../infra/ids';

/**
 * Webhook ids are derived from what caused them, so a reactor restart or a replay from an older
 * checkpoint finds the same id (one row, one job) instead of creating a second webhook.
 */
export function webhookIdFor(platformId: string, eventId: string, type: string, key: string): string {
  return `Webhook:${uuidv5(`webhook:${platformId}:${eventId}:${type}:${key}`)}`;
}

/** One delivery per webhook (a platform has one endpoint), named after it. */
export function deliveryIdFor(webhookId: string): string {
  return `WebhookDelivery:${uuidv5(`webhook-delivery:${webhookId}`)}`;
}
