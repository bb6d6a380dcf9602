import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { WebhookDeliveryService } from '../delivery/webhook-delivery.service';
import { DeliveryView, WebhookDeliveriesQuery } from '../queries/webhook-deliveries.query';
import { WebhookErrors } from '../webhooks.errors';

/** `POST /webhooks/deliveries/{id}/retry`: sends a delivered or failing webhook again now. */
export class RetryWebhookDelivery extends Command<DeliveryView> {
  constructor(
    readonly platformId: string,
    readonly deliveryId: string,
  ) {
    super();
  }
}

/**
 * Same id, same body, fresh signature, the endpoint configured now; answers the delivery with
 * that try in its attempts. A failed try is recorded like any other; it does not cancel a
 * scheduled retry.
 */
@CommandHandler(RetryWebhookDelivery)
export class RetryWebhookDeliveryHandler implements ICommandHandler<RetryWebhookDelivery, DeliveryView> {
  constructor(
    @Inject(WebhookDeliveriesQuery) private readonly query: WebhookDeliveriesQuery,
    @Inject(WebhookDeliveryService) private readonly deliveries: WebhookDeliveryService,
  ) {}

  async execute({ platformId, deliveryId }: RetryWebhookDelivery): Promise<DeliveryView> {
    const existing = await this.query.findById(platformId, deliveryId);
    if (!existing) throw WebhookErrors.deliveryNotFound();
    if (!(await this.deliveries.endpointOf(platformId))) throw WebhookErrors.endpointNotSet();
    await this.deliveries.attemptNow(platformId, deliveryId);
    return (await this.query.findById(platformId, deliveryId))!;
  }
}
