import { Body, Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Request } from 'express';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { HttpResult, withStatus } from '../../infra/http/http-result';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { Idempotent } from '../../infra/http/route-metadata';
import { throwIfAny } from '../../infra/http/validation';
import { RequestTestWebhook } from '../commands/request-test-webhook';
import { SendTestWebhook, WebhookTestResult } from '../commands/send-test-webhook';
import { WebhookErrors } from '../webhooks.errors';
import { RequiresPermission } from '../../infra/http/permissions';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/** Sandbox helpers to try a platform's webhook endpoint. */
@Controller('sandbox/webhooks')
@RequiresPermission('MANAGE')
export class SandboxWebhooksController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly commandBus: CommandBus,
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
    return this.commandBus.execute(new SendTestWebhook(request.platform.platformId));
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
    return withStatus(202, await this.commandBus.execute(new RequestTestWebhook(request.platform.platformId)));
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
