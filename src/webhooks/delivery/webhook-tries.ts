import { Injectable } from '@nestjs/common';
import { isSuccess } from './retry-policy';
import { PostResult } from './webhook-http-client';

/** One webhook POST as metrics count it: a 2xx answer, another answer, or none (network error, timeout). */
export interface WebhookTry {
  outcome: 'delivered' | 'rejected' | 'unreachable';
  latencyMs: number;
}

/**
 * Tells listeners (the console's `GET /metrics`) of every webhook POST this process makes: queued
 * tries, manual retries, the sandbox test and answered webhooks alike.
 */
@Injectable()
export class WebhookTries {
  private readonly listeners: Array<(attempt: WebhookTry) => void> = [];

  listen(listener: (attempt: WebhookTry) => void): void {
    this.listeners.push(listener);
  }

  record(post: PostResult): void {
    if (this.listeners.length === 0) return;
    const attempt: WebhookTry = { outcome: post.statusCode === null ? 'unreachable' : isSuccess(post.statusCode) ? 'delivered' : 'rejected', latencyMs: post.latencyMs };
    for (const listener of this.listeners) listener(attempt);
  }
}
