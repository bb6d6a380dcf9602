import { DomainError } from '../infra/domain/domain-error';

/** Codes of the webhooks context (all in the catalogue: 400, 400, 404, 400). */
export const WebhookErrors = {
  endpointNotSet: () =>
    new DomainError('WEBHOOK_ENDPOINT_NOT_SET', 'No webhook endpoint is configured; set one with PATCH /config {webhookEndpoint}'),
  deliveryError: (details: Record<string, unknown>) =>
    new DomainError('WEBHOOK_DELIVERY_ERROR', 'The webhook could not be delivered to the configured endpoint', details),
  deliveryNotFound: () => new DomainError('REFERENCE_NOT_FOUND', 'Webhook delivery not found'),
  /**
   * `POST /sandbox/webhooks/test` declares no 403 (unlike the other sandbox operations): in
   * production the request is one this environment cannot carry out, 400 with the reason.
   */
  sandboxOnly: () => new DomainError('INVALID_INPUT', 'Sandbox operations are not available in production mode', { reason: 'SANDBOX_ONLY' }),
};
