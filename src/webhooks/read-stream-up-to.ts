import { RecordedEvent } from '../infra/event-store/event-store.port';
import { EventStoreService } from '../infra/event-store/event-store.service';

/**
 * The events of `event`'s stream up to and including it: what a mapper folds to show the
 * resource as it was when the event happened (not as it is when the reactor gets to it).
 */
export async function readStreamUpTo(events: EventStoreService, event: RecordedEvent): Promise<RecordedEvent[]> {
  const recorded = await events.store.readStream(event.streamName, { maxCount: event.revision + 1 });
  return recorded.filter((candidate) => candidate.revision <= event.revision);
}
