import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { uuidv7 } from '../../infra/ids';
import { WebhookDeliveryService } from '../delivery/webhook-delivery.service';
import { WEBHOOK_TEST_STREAM } from '../streams';
import { deliveryIdFor, webhookIdFor } from '../webhook-ids';
import { WebhookErrors } from '../webhooks.errors';

/** The ids to follow a requested test webhook in `GET /webhooks/deliveries?webhookId=`. */
export interface RequestedTestWebhook {
  webhookId: string;
  deliveryId: string;
  type: 'TEST';
}

/** `POST /sandbox/webhooks/test/async`: a `TEST` webhook through the regular path. */
export class RequestTestWebhook extends Command<RequestedTestWebhook> {
  constructor(readonly platformId: string) {
    super();
  }
}

/**
 * Records `WebhookTestRequested`; the webhook reactor, queue, worker and retries deliver it like
 * any other. The event id is chosen here, so the answer can name the webhook before it exists.
 */
@CommandHandler(RequestTestWebhook)
export class RequestTestWebhookHandler implements ICommandHandler<RequestTestWebhook, RequestedTestWebhook> {
  constructor(
    private readonly commands: CommandStore,
    @Inject(WebhookDeliveryService) private readonly deliveries: WebhookDeliveryService,
  ) {}

  async execute({ platformId }: RequestTestWebhook): Promise<RequestedTestWebhook> {
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
    return { webhookId, deliveryId: deliveryIdFor(webhookId), type: 'TEST' };
  }
}
