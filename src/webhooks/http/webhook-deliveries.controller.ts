import { Controller, Get, HttpCode, Inject, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Request } from 'express';
import { FieldError, ValidationError } from '../../infra/domain/domain-error';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { Page, assertNoQueryErrors, parsePageRequest } from '../../infra/http/pagination';
import { parseId } from '../../infra/ids';
import { DELIVERY_STATUSES, DeliveryStatus } from '../delivery/retry-policy';
import { RetryWebhookDelivery } from '../commands/retry-webhook-delivery';
import { DeliveryFilter, DeliveryView, WebhookDeliveriesQuery } from '../queries/webhook-deliveries.query';
import { WEBHOOK_TYPE_PATTERN } from '../webhook-mappers';
import { RequiresPermission } from '../../infra/http/permissions';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

const LIST_PARAMETERS = ['webhookId', 'type', 'status', 'limit', 'cursor'];

/** The delivery log (every try of every webhook) and "send it again now". */
@Controller('webhooks/deliveries')
export class WebhookDeliveriesController {
  constructor(
    @Inject(WebhookDeliveriesQuery) private readonly query: WebhookDeliveriesQuery,
    private readonly commandBus: CommandBus,
  ) {}

  /** `GET /webhooks/deliveries?webhookId=&type=&status=&limit=&cursor=`, newest first. */
  @Get()
  @RequiresPermission('VIEW')
  async list(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>): Promise<Page<DeliveryView>> {
    const errors: FieldError[] = [];
    const page = parsePageRequest(query, errors);
    if (page.cursor && !(typeof page.cursor.seq === 'string' && /^\d{1,19}$/.test(page.cursor.seq))) {
      errors.push({ field: 'cursor', constraint: {}, message: 'cursor is not a cursor this service issued' });
    }
    const filter: DeliveryFilter = {};
    if (query.webhookId !== undefined) {
      if (typeof query.webhookId !== 'string' || parseId('Webhook', query.webhookId) === null) {
        errors.push({ field: 'webhookId', constraint: { format: 'Webhook-id' }, message: 'webhookId must be a Webhook:<uuid> id' });
      } else filter.webhookId = query.webhookId;
    }
    if (query.type !== undefined) {
      if (typeof query.type !== 'string' || query.type.length > 100 || !WEBHOOK_TYPE_PATTERN.test(query.type)) {
        errors.push({ field: 'type', constraint: { pattern: WEBHOOK_TYPE_PATTERN.source, maxLength: 100 }, message: 'type must be a webhook type such as OUTGOING_PAYMENT.COMPLETED or TEST' });
      } else filter.type = query.type;
    }
    if (query.status !== undefined) {
      if (typeof query.status !== 'string' || !(DELIVERY_STATUSES as readonly string[]).includes(query.status)) {
        errors.push({ field: 'status', constraint: { enum: DELIVERY_STATUSES }, message: `status must be one of ${DELIVERY_STATUSES.join(', ')}` });
      } else filter.status = query.status as DeliveryStatus;
    }
    for (const name of Object.keys(query)) {
      if (!LIST_PARAMETERS.includes(name)) errors.push({ field: name, constraint: {}, message: `Unknown query parameter ${name}` });
    }
    assertNoQueryErrors(errors);
    return this.query.list(request.platform.platformId, filter, page.limit, page.cursor);
  }

  /**
   * `POST /webhooks/deliveries/{id}/retry`: sends the webhook again now (same id, same body,
   * fresh signature, the endpoint configured now) and answers the delivery with that try in its
   * attempts. A failed try is recorded like any other; it does not cancel a scheduled retry.
   */
  @Post(':id/retry')
  @RequiresPermission('MANAGE')
  @HttpCode(200)
  async retry(@Req() request: PlatformRequest, @Param('id') id: string): Promise<DeliveryView> {
    if (parseId('WebhookDelivery', id) === null) {
      throw new ValidationError([{ field: 'id', constraint: { format: 'WebhookDelivery-id' }, message: 'id must be a WebhookDelivery:<uuid> id' }]);
    }
    return this.commandBus.execute(new RetryWebhookDelivery(request.platform.platformId, id));
  }
}
