import { Module, OnModuleInit } from '@nestjs/common';
import { CustomersModule } from '../customers';
import { EventStoreService } from '../infra/event-store/event-store.service';
import { PlatformsModule } from '../platforms';
import { WebhookMappers, WebhooksModule } from '../webhooks';
import { CancelInvitationHandler } from './commands/cancel-invitation';
import { ClaimInvitationHandler } from './commands/claim-invitation';
import { CreateInvitationHandler } from './commands/create-invitation';
import { InvitationsController } from './http/invitations.controller';
import { invitationWebhookMapper } from './invitation-webhooks';
import { InvitationsQuery } from './queries/invitations.query';

/**
 * UMA invitations (issue 23 part 5, docs/invitations.md): a platform's customer invites someone by
 * a code; claiming it by an UMA address sends `INVITATION.CLAIMED`. Uses the platforms and
 * customers contexts through their exported queries, the webhooks context through its registry.
 */
@Module({
  imports: [CustomersModule, PlatformsModule, WebhooksModule],
  controllers: [InvitationsController],
  providers: [CreateInvitationHandler, ClaimInvitationHandler, CancelInvitationHandler, InvitationsQuery],
})
export class InvitationsModule implements OnModuleInit {
  constructor(
    private readonly events: EventStoreService,
    private readonly webhookMappers: WebhookMappers,
  ) {}

  onModuleInit(): void {
    this.webhookMappers.register(invitationWebhookMapper(this.events));
  }
}
