/** A platform asked (sandbox) for a TEST webhook through the normal, queued delivery path. */
export type WebhookTestRequested = {
  type: 'WebhookTestRequested';
  data: { testId: string; platformId: string; requestedAt: string };
};

export type WebhookTestEvent = WebhookTestRequested;

/** The `data` of a TEST webhook: nothing but who it is for and when it was asked for. */
export interface TestWebhookData {
  message: string;
  platformId: string;
  requestedAt: string;
}

export const TEST_WEBHOOK_MESSAGE = 'This is a test webhook from the payments service.';

export function testWebhookData(platformId: string, requestedAt: string): TestWebhookData {
  return { message: TEST_WEBHOOK_MESSAGE, platformId, requestedAt };
}
