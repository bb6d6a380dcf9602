import { RecordedEvent } from '../infra/event-store/event-store.port';
import { EventStoreService } from '../infra/event-store/event-store.service';
import { WebhookDraft, WebhookMapper, readStreamUpTo } from '../webhooks';
import { invitationViewFromEvents } from './queries/invitation.view';

/**
 * `INVITATION.CLAIMED` (the reference's InvitationClaimedWebhook) to the platform that created the
 * invitation, its `data` the invitation as GET showed it right after the claim. Creation and
 * cancellation are the platform's own requests: their answers carry them, no webhook.
 */
export function invitationWebhookMapper(events: EventStoreService): WebhookMapper {
  return {
    eventTypes: ['InvitationClaimed'],
    platformOf: (event) => (event.data as { platformId: string }).platformId,
    async toWebhooks(event: RecordedEvent): Promise<WebhookDraft[]> {
      const data = invitationViewFromEvents(await readStreamUpTo(events, event));
      if (!data) return [];
      return [{ type: 'INVITATION.CLAIMED', data, platformId: (event.data as { platformId: string }).platformId }];
    },
  };
}
