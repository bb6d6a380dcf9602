import { toWireJson } from '../../infra/http/wire-json';
import { Body, Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { HttpResult, withStatus } from '../../infra/http/http-result';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { Idempotent } from '../../infra/http/route-metadata';
import { throwIfAny } from '../../infra/http/validation';
import { newId, uuidv7 } from '../../infra/ids';
import { DeliveryStore } from '../delivery/delivery-store';
import { isSuccess } from '../delivery/retry-policy';
import { WebhookDeliveryService, describeFailure } from '../delivery/webhook-delivery.service';
import { webhookTestDecider } from '../domain/webhook-test/webhook-test.decider';
import { testWebhookData } from '../domain/webhook-test/webhook-test.events';
import { deliveryIdFor, webhookIdFor } from '../webhook-ids';
import { WebhookErrors } from '../webhooks.errors';
import { CommandStore } from '../../infra/commands/command-store';
import { WEBHOOK_TEST_STREAM } from '../streams';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

export interface WebhookTestResult {
  url: string;
  response_status: number;
  response_body: string;
}

/** Sandbox helpers to try a platform's webhook endpoint. */
@Controller('sandbox/webhooks')
export class SandboxWebhooksController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(WebhookDeliveryService) private readonly deliveries: WebhookDeliveryService,
    @Inject(DeliveryStore) private readonly store: DeliveryStore,
    private readonly commands: CommandStore,
  ) {}

  /**
   * `POST /sandbox/webhooks/test` (DECISIONS.md section 6): sends a signed `TEST` webhook now and
   * answers what the endpoint said. Not 2xx, or no answer: 400 `WEBHOOK_DELIVERY_ERROR` with the
   * same fields (or `error`) in `details`. The try is in the delivery log; it is not retried.
   */
  @Post('test')
  @HttpCode(200)
  @Idempotent()
  async test(@Req() request: PlatformRequest, @Body() body: unknown): Promise<WebhookTestResult> {
    this.assertSandbox(body);
    const platformId = request.platform.platformId;
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

  /**
   * `POST /sandbox/webhooks/test/async`: a `TEST` webhook through the regular path (stored
   * event, reactor, queue, worker, retries). Answers 202 with the ids to follow it in
   * `GET /webhooks/deliveries?webhookId=`.
   */
  @Post('test/async')
  @Idempotent()
  async testAsync(@Req() request: PlatformRequest, @Body() body: unknown): Promise<HttpResult> {
    this.assertSandbox(body);
    const platformId = request.platform.platformId;
    if (!(await this.deliveries.endpointOf(platformId))) throw WebhookErrors.endpointNotSet();
    const testId = uuidv7();
    const eventId = uuidv7();
    await this.commands.handle(WEBHOOK_TEST_STREAM, `webhookTest-${testId}`, {
      type: 'RequestTestWebhook',
      testId,
      eventId,
      platformId,
      now: new Date().toISOString(),
    });
    // The TEST mapper makes one webhook per event, so its key is its rank: 0.
    const webhookId = webhookIdFor(platformId, eventId, 'TEST', '0');
    return withStatus(202, { webhookId, deliveryId: deliveryIdFor(webhookId), type: 'TEST' });
  }

  private assertSandbox(body: unknown): void {
    if (this.config.mode !== 'sandbox') throw WebhookErrors.sandboxOnly();
    if (body === undefined || body === null) return;
    if (typeof body !== 'object' || Array.isArray(body)) {
      throwIfAny([{ field: 'body', constraint: {}, message: 'Expected a JSON object' }]);
    }
    throwIfAny(
      Object.keys(body as object).map((field) => ({ field, constraint: {}, message: `Unknown field ${field}` })),
    );
  }
}
