import { DomainError } from '../infra/domain/domain-error';

/** Codes of the webhooks context (all in the catalogue: 400, 400, 404). */
export const WebhookErrors = {
  endpointNotSet: () =>
    new DomainError('WEBHOOK_ENDPOINT_NOT_SET', 'No webhook endpoint is configured; set one with PATCH /config {webhookEndpoint}'),
  deliveryError: (details: Record<string, unknown>) =>
    new DomainError('WEBHOOK_DELIVERY_ERROR', 'The webhook could not be delivered to the configured endpoint', details),
  deliveryNotFound: () => new DomainError('NOT_FOUND', 'Webhook delivery not found'),
  sandboxOnly: () => new DomainError('FORBIDDEN', 'Sandbox operations are not available in production mode'),
};
