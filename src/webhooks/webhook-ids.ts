import { uuidv7From, uuidv7Millis } from '../infra/ids';

/**
 * Webhook ids are derived from what caused them, so a reactor restart or a replay from an older
 * checkpoint finds the same id (one row, one job) instead of creating a second webhook. They are
 * uuid v7 carrying the time of the causing event (from its v7 id, else `occurredAtMillis`).
 */
export function webhookIdFor(platformId: string, eventId: string, type: string, key: string, occurredAtMillis = 0): string {
  const millis = uuidv7Millis(eventId) ?? occurredAtMillis;
  return `Webhook:${uuidv7From(`webhook:${platformId}:${eventId}:${type}:${key}`, millis)}`;
}

/** One delivery per webhook (a platform has one endpoint), named after it. */
export function deliveryIdFor(webhookId: string): string {
  return `WebhookDelivery:${uuidv7From(`webhook-delivery:${webhookId}`, uuidv7Millis(webhookId) ?? 0)}`;
}
