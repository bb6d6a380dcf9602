/**
 * The webhooks context's public entry: what other contexts, the read models and the app module may
 * use. Anything not exported here is internal to the context (test/architecture checks it).
 */
export { AnsweredWebhooks } from './answered-webhooks';
export type { WebhookAnswer, WebhookQuestion } from './answered-webhooks';
export { readStreamUpTo } from './read-stream-up-to';
export { WebhookMappers } from './webhook-mappers';
export type { WebhookDraft, WebhookMapper } from './webhook-mappers';
export { WebhooksModule } from './webhooks.module';
// The console's /metrics: every webhook POST's outcome and latency.
export { WebhookTries } from './delivery/webhook-tries';
export type { WebhookTry } from './delivery/webhook-tries';
// The console: the delivery log of a resource's chain.
export { WebhookDeliveriesQuery } from './queries/webhook-deliveries.query';
export type { DeliveryView } from './queries/webhook-deliveries.query';
