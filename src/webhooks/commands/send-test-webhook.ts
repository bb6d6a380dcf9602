import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { toWireJson } from '../../infra/http/wire-json';
import { newId } from '../../infra/ids';
import { DeliveryStore } from '../delivery/delivery-store';
import { isSuccess } from '../delivery/retry-policy';
import { WebhookDeliveryService, describeFailure } from '../delivery/webhook-delivery.service';
import { testWebhookData } from '../domain/webhook-test/webhook-test.events';
import { deliveryIdFor } from '../webhook-ids';
import { WebhookErrors } from '../webhooks.errors';

/** What the platform's endpoint answered (the contract's field names). */
export interface WebhookTestResult {
  url: string;
  response_status: number;
  response_body: string;
}

/** `POST /sandbox/webhooks/test`: a signed `TEST` webhook sent now. */
export class SendTestWebhook extends Command<WebhookTestResult> {
  constructor(readonly platformId: string) {
    super();
  }
}

/**
 * Sends the webhook to the endpoint configured now and records the try in the delivery log (it
 * is not retried). Not 2xx, or no answer: 400 `WEBHOOK_DELIVERY_ERROR` with the same fields (or
 * `error`) in `details`.
 */
@CommandHandler(SendTestWebhook)
export class SendTestWebhookHandler implements ICommandHandler<SendTestWebhook, WebhookTestResult> {
  constructor(
    @Inject(WebhookDeliveryService) private readonly deliveries: WebhookDeliveryService,
    @Inject(DeliveryStore) private readonly store: DeliveryStore,
  ) {}

  async execute({ platformId }: SendTestWebhook): Promise<WebhookTestResult> {
    const endpoint = await this.deliveries.endpointOf(platformId);
    if (!endpoint) throw WebhookErrors.endpointNotSet();
    const now = new Date();
    const webhookId = newId('Webhook', now.getTime());
    const payload = toWireJson({ id: webhookId, type: 'TEST', timestamp: now.toISOString(), data: testWebhookData(platformId, now.toISOString()) });
    const post = await this.deliveries.send(endpoint, payload);
    const delivered = isSuccess(post.statusCode);
    await this.store.createTried(
      { id: deliveryIdFor(webhookId), webhookId, platformId, type: 'TEST', sourceEventId: null, body: payload, retryWindowMs: 0 },
      {
        trigger: 'TEST', attemptedAt: now, endpoint, statusCode: post.statusCode, latencyMs: post.latencyMs,
        error: describeFailure(post), newStatus: delivered ? 'DELIVERED' : 'FAILED', nextAttemptAt: null,
      },
    );
    if (post.statusCode === null) throw WebhookErrors.deliveryError({ url: endpoint, error: post.error });
    const result = { url: endpoint, response_status: post.statusCode, response_body: post.responseBody };
    if (!delivered) throw WebhookErrors.deliveryError(result);
    return result;
  }
}
