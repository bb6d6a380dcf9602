import { Injectable } from '@nestjs/common';
import { RecordedEvent } from '../infra/event-store/event-store.port';

/** Where the history of a resource without a stream of its own lives. */
export interface LocatedHistory {
  streamName: string;
  /** The events of that stream that concern the resource. */
  concerns(event: RecordedEvent): boolean;
}

/**
 * Resolves ids of resources recorded inside another resource's stream (documents and
 * verifications live in their customer's stream), for one id prefix each.
 */
export interface AuditResourceLocator {
  prefixes: string[];
  /** Null when the id is unknown (or, with a platform id, another platform's). */
  locate(resourceId: string, platformId: string | null): Promise<LocatedHistory | null>;
}

/**
 * Rewrites an event's data as auditors see it, given the event's whole stream (the customers
 * context marks sealed personal data whose key was erased later in the stream).
 */
export type AuditDataPresenter = (event: RecordedEvent, stream: RecordedEvent[]) => Record<string, unknown>;

/** Contexts register their locators here; `GET /audit/events` and the audit CLI consult them. */
@Injectable()
export class AuditResourceLocators {
  private readonly byPrefix = new Map<string, AuditResourceLocator>();
  private readonly presenters: AuditDataPresenter[] = [];

  registerPresenter(presenter: AuditDataPresenter): void {
    this.presenters.push(presenter);
  }

  present(event: RecordedEvent, stream: RecordedEvent[]): Record<string, unknown> {
    return this.presenters.reduce((data, presenter) => presenter({ ...event, data }, stream), event.data);
  }

  register(locator: AuditResourceLocator): void {
    for (const prefix of locator.prefixes) this.byPrefix.set(prefix, locator);
  }

  forResource(resourceId: string): AuditResourceLocator | null {
    return this.byPrefix.get(resourceId.slice(0, resourceId.indexOf(':'))) ?? null;
  }
}

/** True when a top-level field of the event's data names the resource. */
export function eventNames(event: RecordedEvent, resourceId: string): boolean {
  return Object.values(event.data as Record<string, unknown>).some((value) => value === resourceId);
}
