import { Inject, Injectable, Optional } from '@nestjs/common';
import { AuditResourceLocators, LocatedHistory } from './audit-locators';
import { EVENT_STORE, EventStore, RecordedEvent, positionToString } from '../infra/event-store/event-store.port';
import { ID_PREFIXES, IdPrefix, parseId, streamNameFor } from '../infra/ids';

export interface AuditEntry {
  eventId: string;
  type: string;
  streamName: string;
  revision: number;
  position: string;
  recordedAt: string;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

/**
 * `GET /audit/events?resourceId=...`: the resource's events, oldest first, with who did what and why.
 * @example
 * {
 *   "resourceId": "Quote:019a4a17-d638-7a41-9c5e-3f0b2d8e6a17",
 *   "data": [
 *     {
 *       "eventId": "019a4a18-2e07-7d5b-8c31-a6f0e4b29d7c",
 *       "type": "QuoteExecutionRequested",
 *       "streamName": "quote-019a4a17-d638-7a41-9c5e-3f0b2d8e6a17",
 *       "revision": 1,
 *       "position": "48213/48213",
 *       "recordedAt": "2025-11-03T14:21:29.991Z",
 *       "data": {
 *         "quoteId": "Quote:019a4a17-d638-7a41-9c5e-3f0b2d8e6a17",
 *         "transactionId": "Transaction:019a4a17-d638-7b02-a4c7-51e9f3b08d62",
 *         "platformId": "Platform:0199f5c2-3a10-7b8e-9c4d-5e6f7a8b9c0d",
 *         "attempt": 1,
 *         "holdId": "019a4a18-2e07-7f01-9b44-0d2c7e61a3b8",
 *         "sourceAccountId": "InternalAccount:019a2a17-5758-7f90-b3a2-0c6d8e1f4b57",
 *         "amount": 100000,
 *         "scaFactor": null,
 *         "requestedAt": "2025-11-03T14:21:29.985Z"
 *       },
 *       "metadata": {
 *         "correlationId": "req-6f1d2c9a",
 *         "causationId": "req-6f1d2c9a",
 *         "platformId": "Platform:0199f5c2-3a10-7b8e-9c4d-5e6f7a8b9c0d",
 *         "actor": "platform:client_3f8e2a",
 *         "idempotencyKey": "5b0e7c1a-9d42-4e8f-a3b6-2c1d0f9e8a77",
 *         "requestId": "req-6f1d2c9a"
 *       }
 *     }
 *   ],
 *   "hasMore": true,
 *   "nextCursor": "eyJyZXZpc2lvbiI6MX0",
 *   "totalCount": 6
 * }
 */
export interface AuditPage {
  resourceId: string;
  data: AuditEntry[];
  hasMore: boolean;
  nextCursor?: string;
  totalCount: number;
}

/**
 * A resource's full event history with metadata (who, when, why) for auditors: the stream named
 * by the resource id, or for a resource recorded inside another's stream (a document or a
 * verification in its customer's stream) the events of that stream that name it. Tenancy: a
 * platform sees only streams whose events carry its platform id.
 */
@Injectable()
export class AuditService {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Optional() private readonly locators: AuditResourceLocators = new AuditResourceLocators(),
  ) {}

  static isResourceId(resourceId: string): boolean {
    const prefix = resourceId.slice(0, resourceId.indexOf(':'));
    return (ID_PREFIXES as readonly string[]).includes(prefix) && parseId(prefix as IdPrefix, resourceId) !== null;
  }

  async history(resourceId: string, platformId: string | null, fromRevision: number, limit: number): Promise<AuditPage | null> {
    const located = await this.locate(resourceId, platformId);
    if (!located) return null;
    const stream = await this.store.readStream(located.streamName);
    const events = stream.filter((event) => located.concerns(event));
    if (events.length === 0) return null;
    if (platformId !== null && !events.every((event) => belongsTo(event, platformId))) return null;
    const page = events.filter((event) => event.revision >= fromRevision).slice(0, limit + 1);
    const hasMore = page.length > limit;
    const shown = hasMore ? page.slice(0, limit) : page;
    const result: AuditPage = { resourceId, data: shown.map((event) => toEntry(event, this.locators.present(event, stream))), hasMore, totalCount: events.length };
    if (hasMore) result.nextCursor = String(shown[shown.length - 1].revision + 1);
    return result;
  }

  private async locate(resourceId: string, platformId: string | null): Promise<LocatedHistory | null> {
    const locator = this.locators.forResource(resourceId);
    if (locator) return locator.locate(resourceId, platformId);
    return { streamName: streamNameFor(resourceId), concerns: () => true };
  }
}

function belongsTo(event: RecordedEvent, platformId: string): boolean {
  const owner = event.metadata.platformId ?? (event.data as { platformId?: string }).platformId;
  return owner === platformId || (event.data as { platformId?: string }).platformId === platformId;
}

function toEntry(event: RecordedEvent, data: Record<string, unknown>): AuditEntry {
  return {
    eventId: event.id,
    type: event.type,
    streamName: event.streamName,
    revision: event.revision,
    position: positionToString(event.position),
    recordedAt: event.createdAt.toISOString(),
    data,
    metadata: event.metadata,
  };
}
