import { Decider } from '../../../infra/domain/decider';
import { WebhookTestEvent } from './webhook-test.events';

export type WebhookTestState = { status: 'none' } | { status: 'requested'; testId: string; platformId: string };

/** `eventId` is chosen by the handler so it can name the resulting webhook before the reactor runs. */
export type WebhookTestCommand = { type: 'RequestTestWebhook'; testId: string; eventId: string; platformId: string; now: string };

/** One stream per test request; asking twice under the same id is a no-op. */
export const webhookTestDecider: Decider<WebhookTestCommand, WebhookTestState, WebhookTestEvent & { id?: string }> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    if (state.status !== 'none') return [];
    return [
      {
        type: 'WebhookTestRequested',
        id: command.eventId,
        data: { testId: command.testId, platformId: command.platformId, requestedAt: command.now },
      },
    ];
  },

  evolve(state, event) {
    switch (event.type) {
      case 'WebhookTestRequested':
        return { status: 'requested', testId: event.data.testId, platformId: event.data.platformId };
    }
  },
};
