import { KeyObject } from 'node:crypto';
import { WebhookDeliveryConfig } from '../../infra/config';
import { KeyVault } from '../../infra/crypto/key-vault';
import { PlatformConfigQuery, WEBHOOK_SIGNING_KEY } from '../../platforms';
import { AttemptRecord, AttemptTrigger, DeliveryForAttempt, DeliveryStore } from './delivery-store';
import { MicroBatcher } from './micro-batcher';
import { DeliveryStatus, isSuccess, nextStep } from './retry-policy';
import { WebhookHttpClient, PostResult } from './webhook-http-client';
import { WebhookTries } from './webhook-tries';
import { SIGNATURE_HEADER, signatureHeaderFor } from './webhook-signer';

const NO_ENDPOINT_ERROR = 'no webhook endpoint is configured';

/** One try of one delivery, as the delivery log shows it. */
export interface TryResult {
  endpoint: string | null;
  post: PostResult;
  statusAfter: DeliveryStatus | null;
}

/**
 * Sends webhooks: signs the stored body with the service key, POSTs it to the platform's
 * endpoint as configured at that moment (so waiting retries follow a changed endpoint), and
 * records every try with the delivery's next status.
 */
export class WebhookDeliveryService {
  private signingKey: KeyObject | null = null;
  /** The worker's concurrent jobs read their deliveries (and endpoints) in shared queries... */
  private readonly loads = new MicroBatcher<{ platformId: string; deliveryId: string }, { delivery: DeliveryForAttempt | null; endpoint: string | null }>(
    (keys) => this.loadForAttempts(keys),
  );
  /** ...and record their tries in shared statements (one commit for many). */
  private readonly records = new MicroBatcher<AttemptRecord, DeliveryStatus | null>((attempts) => this.store.recordAttempts(attempts));

  constructor(
    private readonly store: DeliveryStore,
    private readonly configs: PlatformConfigQuery,
    private readonly vault: KeyVault,
    private readonly http: WebhookHttpClient,
    private readonly settings: WebhookDeliveryConfig,
    private readonly tries: WebhookTries,
  ) {}

  async endpointOf(platformId: string): Promise<string | null> {
    return (await this.configs.findRaw(platformId))?.webhookEndpoint ?? null;
  }

  /** Signs and POSTs a body; never throws for HTTP or network trouble (it is in the result). */
  async send(endpoint: string, body: string, signal?: AbortSignal, maxResponseBytes?: number): Promise<PostResult> {
    this.signingKey ??= (await this.vault.serviceKey(WEBHOOK_SIGNING_KEY)).privateKey;
    const post = await this.http.post(endpoint, body, { [SIGNATURE_HEADER]: signatureHeaderFor(body, this.signingKey) }, signal, maxResponseBytes);
    this.tries.record(post);
    return post;
  }

  /**
   * The worker's try of a queued delivery. Returns when to try again (the job is delayed until
   * then), or null when the delivery is settled: delivered, given up, or gone.
   */
  async attemptQueued(platformId: string, deliveryId: string, signal?: AbortSignal): Promise<{ retryAt: Date | null }> {
    const { delivery, endpoint } = await this.loads.submit({ platformId, deliveryId });
    if (!delivery || delivery.status === 'DELIVERED' || delivery.status === 'FAILED') return { retryAt: null };
    const attemptedAt = new Date();
    const post = endpoint ? await this.send(endpoint, delivery.body, signal) : noEndpoint();
    if (signal?.aborted) {
      // Shutdown cut the try short: record it, keep the status, and let the next worker retry now.
      await this.records.submit({
        deliveryId, platformId, trigger: 'AUTOMATIC', attemptedAt, endpoint, statusCode: post.statusCode,
        latencyMs: post.latencyMs, error: post.error, newStatus: null, nextAttemptAt: null,
      });
      return { retryAt: new Date() };
    }
    const step = nextStep(post, delivery.attemptCount + 1, new Date(), delivery.retryUntil, this.settings);
    const error = describeFailure(post);
    const statusAfter = await this.records.submit({
      deliveryId,
      platformId,
      trigger: 'AUTOMATIC',
      attemptedAt,
      endpoint,
      statusCode: post.statusCode,
      latencyMs: post.latencyMs,
      error: step.reason ? `${error}; ${step.reason}` : error,
      newStatus: step.status,
      nextAttemptAt: step.nextAttemptAt,
    });
    return { retryAt: statusAfter === 'RETRYING' ? step.nextAttemptAt : null };
  }

  /**
   * `POST /webhooks/deliveries/{id}/retry`: one try now, recorded. Success delivers it; a failure
   * leaves the status as it was (a scheduled retry still happens).
   */
  async attemptNow(platformId: string, deliveryId: string, trigger: AttemptTrigger = 'MANUAL'): Promise<TryResult | null> {
    const delivery = await this.store.findForAttempt(platformId, deliveryId);
    if (!delivery) return null;
    const attemptedAt = new Date();
    const { endpoint, post } = await this.tryOnce(platformId, delivery.body);
    const statusAfter = await this.store.recordAttempt({
      deliveryId,
      platformId,
      trigger,
      attemptedAt,
      endpoint,
      statusCode: post.statusCode,
      latencyMs: post.latencyMs,
      error: describeFailure(post),
      newStatus: isSuccess(post.statusCode) ? 'DELIVERED' : null,
      nextAttemptAt: null,
    });
    return { endpoint, post, statusAfter };
  }

  private async tryOnce(platformId: string, body: string): Promise<{ endpoint: string | null; post: PostResult }> {
    const endpoint = await this.endpointOf(platformId);
    return { endpoint, post: endpoint ? await this.send(endpoint, body) : noEndpoint() };
  }

  /** Deliveries and their platforms' endpoints as configured now (the endpoint is never cached). */
  private async loadForAttempts(
    keys: Array<{ platformId: string; deliveryId: string }>,
  ): Promise<Array<{ delivery: DeliveryForAttempt | null; endpoint: string | null }>> {
    const platformIds = [...new Set(keys.map((key) => key.platformId))];
    const [deliveries, endpoints] = await Promise.all([
      this.store.findManyForAttempt(keys),
      Promise.all(platformIds.map(async (platformId) => [platformId, await this.endpointOf(platformId)] as const)),
    ]);
    const endpointByPlatform = new Map(endpoints);
    return keys.map((key, index) => ({ delivery: deliveries[index], endpoint: endpointByPlatform.get(key.platformId) ?? null }));
  }
}

function noEndpoint(): PostResult {
  return { statusCode: null, responseBody: '', latencyMs: 0, error: NO_ENDPOINT_ERROR, retryAfterMs: null };
}

/** The attempt's error column: the network error, or what a non-2xx answer was. */
export function describeFailure(post: PostResult): string | null {
  if (post.error) return post.error;
  if (isSuccess(post.statusCode)) return null;
  return `the endpoint answered ${post.statusCode}`;
}
