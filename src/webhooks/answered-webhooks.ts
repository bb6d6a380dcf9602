import { Inject, Injectable } from '@nestjs/common';
import { toWireJson } from '../infra/http/wire-json';
import { DeliveryStore } from './delivery/delivery-store';
import { WebhookDeliveryService, describeFailure } from './delivery/webhook-delivery.service';
import { isDeclaredWebhookType } from './webhook-types';
import { deliveryIdFor, webhookIdFor } from './webhook-ids';

/** A webhook whose answer the sender acts on (the incoming payment approval request). */
export interface WebhookQuestion {
  platformId: string;
  type: string;
  /** The event that asks (the webhook id derives from it and `key`, so asking again is the same webhook). */
  sourceEventId: string;
  occurredAt: Date;
  key: string;
  data: unknown;
  /** Which answers count as delivered (an approval's 403 and 422 are answers, not failures). */
  isAnswer: (statusCode: number | null) => boolean;
}

export interface WebhookAnswer {
  webhookId: string;
  /** Null when the platform has no endpoint (nothing was sent or logged). */
  endpoint: string | null;
  statusCode: number | null;
  /** The answer's body, up to ANSWER_BODY_BYTES. */
  body: string;
  error: string | null;
}

/** Enough for an answer that carries data (an approval's `receiverCustomerInfo`). */
const ANSWER_BODY_BYTES = 64 * 1024;

/**
 * Sends a webhook now and hands its answer back to the caller, instead of queuing it for retries:
 * for webhooks that ask the platform to decide within seconds. Signed and logged like every
 * other delivery (one row per webhook id, one attempt per ask), so the delivery log shows it.
 */
@Injectable()
export class AnsweredWebhooks {
  constructor(
    @Inject(WebhookDeliveryService) private readonly deliveries: WebhookDeliveryService,
    @Inject(DeliveryStore) private readonly store: DeliveryStore,
  ) {}

  async ask(question: WebhookQuestion): Promise<WebhookAnswer> {
    if (!isDeclaredWebhookType(question.type)) throw new Error(`${question.type} is not a webhook type of the contract`);
    const webhookId = webhookIdFor(question.platformId, question.sourceEventId, question.type, question.key, question.occurredAt.getTime());
    const endpoint = await this.deliveries.endpointOf(question.platformId);
    if (!endpoint) return { webhookId, endpoint: null, statusCode: null, body: '', error: 'no webhook endpoint is configured' };
    const body = toWireJson({ id: webhookId, type: question.type, timestamp: question.occurredAt.toISOString(), data: question.data });
    const attemptedAt = new Date();
    const post = await this.deliveries.send(endpoint, body, undefined, ANSWER_BODY_BYTES);
    const answered = question.isAnswer(post.statusCode);
    await this.store.createTried(
      { id: deliveryIdFor(webhookId), webhookId, platformId: question.platformId, type: question.type, sourceEventId: question.sourceEventId, body, retryWindowMs: 0 },
      {
        trigger: 'AUTOMATIC', attemptedAt, endpoint, statusCode: post.statusCode, latencyMs: post.latencyMs,
        error: answered ? null : describeFailure(post), newStatus: answered ? 'DELIVERED' : 'FAILED', nextAttemptAt: null,
      },
    );
    return { webhookId, endpoint, statusCode: post.statusCode, body: post.responseBody, error: post.error };
  }
}
