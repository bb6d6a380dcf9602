import { RecordedEvent } from '../infra/event-store/event-store.port';
import { WebhookDraft, WebhookMapper } from '../webhooks';
import { AgentActionSubmitted } from './domain/agent-action.events';
import { AgentActionSource } from './queries/agent-action.view';
import { AgentActionViews } from './queries/agent-action-views';

/** The action as it stood when it was submitted. */
export function submittedActionSource(data: AgentActionSubmitted['data']): AgentActionSource {
  return {
    actionId: data.actionId,
    agentId: data.agentId,
    platformId: data.platformId,
    customerId: data.customerId,
    request: data.request,
    status: data.status,
    transactionId: null,
    rejectionReason: null,
    failureReason: null,
    createdAt: data.submittedAt,
    updatedAt: data.submittedAt,
  };
}

/**
 * `AGENT_ACTION.PENDING_APPROVAL` (the reference's AgentActionWebhook): one per action that waits
 * for the platform, its `data` the AgentAction as submitted (the quote as it stands when mapped).
 * The reference declares no webhook for the other statuses: the agent polls its action, the
 * platform has the approval answer.
 */
export function agentActionWebhookMapper(views: AgentActionViews): WebhookMapper {
  return {
    eventTypes: ['AgentActionSubmitted'],
    platformOf: (event) => (event.data as { platformId: string }).platformId,
    async toWebhooks(event: RecordedEvent): Promise<WebhookDraft[]> {
      const data = event.data as AgentActionSubmitted['data'];
      if (data.status !== 'PENDING_APPROVAL') return [];
      const view = await views.present(submittedActionSource(data));
      return [{ type: 'AGENT_ACTION.PENDING_APPROVAL', data: view, platformId: data.platformId, key: data.actionId }];
    },
  };
}
