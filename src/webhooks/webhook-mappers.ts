import { Injectable } from '@nestjs/common';
import { RecordedEvent } from '../infra/event-store/event-store.port';

/**
 * One webhook a mapper asks for. `type` is `<KIND>.<STATUS>` (or `TEST`); `data` is the resource
 * exactly as its GET returns it at the moment of the event.
 */
export interface WebhookDraft {
  type: string;
  data: unknown;
  /**
   * Platform to notify. Defaults to the event's `metadata.platformId`; set it when the event was
   * appended outside a platform's request (a system task whose metadata lacks it).
   */
  platformId?: string;
  /**
   * Distinguishes several webhooks of the same type from one event (e.g. one
   * `INTERNAL_ACCOUNT.BALANCE_UPDATED` per account a transfer touches): pass the resource id.
   * Defaults to the draft's rank among the drafts of that type, which is stable as long as the
   * mapper is deterministic.
   */
  key?: string;
}

/**
 * Maps stored events to webhooks (TEAM.md cross-context contract). A context registers one or
 * more mappers; the webhook reactor calls `toWebhooks` once per stored event whose type is in
 * `eventTypes`, at least once (a restart replays from the checkpoint), so it must be a pure read:
 * no appends, no jobs. Build `data` from the stream up to that event (`readStreamUpTo`) with the
 * same view function the GET uses, so the webhook shows the resource as it was then.
 */
export interface WebhookMapper {
  eventTypes: string[];
  toWebhooks(event: RecordedEvent): Promise<WebhookDraft[]>;
  /**
   * The platform this mapper's webhooks for `event` go to, known without mapping it (the reactor
   * skips mapping events whose platforms have no endpoint). Default: the event's
   * `metadata.platformId`. Set it when drafts carry their own `platformId`.
   */
  platformOf?(event: RecordedEvent): string | null;
}

/** `OUTGOING_PAYMENT.COMPLETED`, `CARD.STATE_CHANGE`, `TEST`. */
export const WEBHOOK_TYPE_PATTERN = /^[A-Z][A-Z_]*(\.[A-Z][A-Z_]*)?$/;

/**
 * The registry the webhook reactor reads. Register from your module's `onModuleInit` (or its
 * constructor): the reactor reads the event types once, when the projector starts, and a late
 * registration would silently miss events, so it throws instead.
 */
@Injectable()
export class WebhookMappers {
  private readonly byEventType = new Map<string, WebhookMapper[]>();
  private frozen = false;

  register(mapper: WebhookMapper): void {
    if (this.frozen) {
      throw new Error('WebhookMappers.register() called after the webhook reactor started: register in onModuleInit');
    }
    if (mapper.eventTypes.length === 0) throw new Error('A webhook mapper must name at least one event type');
    for (const eventType of new Set(mapper.eventTypes)) {
      const mappers = this.byEventType.get(eventType) ?? [];
      if (!mappers.includes(mapper)) mappers.push(mapper);
      this.byEventType.set(eventType, mappers);
    }
  }

  /** Event types some mapper handles. Freezes the registry (called when the reactor starts). */
  eventTypes(): string[] {
    this.frozen = true;
    return [...this.byEventType.keys()].sort();
  }

  mappersFor(eventType: string): WebhookMapper[] {
    return this.byEventType.get(eventType) ?? [];
  }

  /**
   * The platforms `event`'s webhooks would go to, as the mappers declare them before mapping;
   * null when one of them cannot tell (then the event is mapped to find out).
   */
  platformsOf(event: RecordedEvent): string[] | null {
    const platforms = new Set<string>();
    for (const mapper of this.mappersFor(event.type)) {
      const platformId = mapper.platformOf ? mapper.platformOf(event) : event.metadata.platformId;
      if (!platformId) return null;
      platforms.add(platformId);
    }
    return [...platforms];
  }
}
