import { deciderSpec } from '../../../../test/support/decider-spec';
import { webhookTestDecider } from './webhook-test.decider';
import { WebhookTestEvent } from './webhook-test.events';

describe('webhook test decider', () => {
  const spec = deciderSpec(webhookTestDecider);
  const command = { type: 'RequestTestWebhook' as const, testId: 't-1', eventId: 'e-1', platformId: 'Platform:p', now: '2025-01-01T00:00:00.000Z' };

  it('records the request on a fresh stream', () => {
    spec.given([]).when(command).then([
      { type: 'WebhookTestRequested', id: 'e-1', data: { testId: 't-1', platformId: 'Platform:p', requestedAt: '2025-01-01T00:00:00.000Z' } },
    ]);
  });

  it('does nothing when the same test was already requested', () => {
    const history: WebhookTestEvent[] = [
      { type: 'WebhookTestRequested', data: { testId: 't-1', platformId: 'Platform:p', requestedAt: '2025-01-01T00:00:00.000Z' } },
    ];
    spec.given(history).when(command).then([]);
  });
});
