import { streamType } from '../infra/commands/stream-type';
import { webhookTestDecider } from './domain/webhook-test/webhook-test.decider';

/** The webhooks context's streams, as the command store handles them (src/infra/commands). */
export const WEBHOOK_TEST_STREAM = streamType({
  name: 'webhook test',
  decider: webhookTestDecider,
});
