/**
 * A resource's events as a vertical timeline: type, time, actor, request id, and the correlation
 * and causation ids as links (a correlation id opens the explorer searched for it; a causation id
 * that is an event of this timeline selects that event, another is searched). Clicking an event
 * selects it for time travel.
 */
import type { ComponentChildren } from 'preact';
import { formatTime, prettyJson, shortId } from './format';
import { routeHref } from './router';
import type { AuditEntry } from './types';

interface TimelineProps {
  events: AuditEntry[];
  selected?: AuditEntry;
  onSelect: (event: AuditEntry) => void;
}

export function Timeline({ events, selected, onSelect }: TimelineProps) {
  if (events.length === 0) return <p class="muted">No events recorded.</p>;
  const byEventId = new Map(events.map((event) => [event.eventId, event]));
  return (
    <ol class="timeline">
      {events.map((event) => (
        <li
          key={event.eventId}
          class={`timeline-event${selected?.eventId === event.eventId ? ' selected' : ''}`}
          data-testid="timeline-event"
          data-revision={event.revision}
          onClick={() => onSelect(event)}
        >
          <div class="timeline-head">
            <span class="event-type">{event.type}</span>
            <span class="muted">
              rev {event.revision} · {formatTime(event.recordedAt)}
            </span>
          </div>
          <dl class="meta">
            {event.metadata.actor && <Meta label="actor">{event.metadata.actor}</Meta>}
            {event.metadata.requestId && <Meta label="request">{event.metadata.requestId}</Meta>}
            {event.metadata.correlationId && (
              <Meta label="correlation">
                <SearchLink text={event.metadata.correlationId} />
              </Meta>
            )}
            {event.metadata.causationId && event.metadata.causationId !== event.metadata.correlationId && (
              <Meta label="caused by">
                <CausationLink causationId={event.metadata.causationId} cause={byEventId.get(event.metadata.causationId)} onSelect={onSelect} />
              </Meta>
            )}
            {event.streamName && <Meta label="stream">{event.streamName}</Meta>}
          </dl>
          <details onClick={(click) => click.stopPropagation()}>
            <summary>data</summary>
            <pre class="json">{prettyJson(event.data)}</pre>
          </details>
        </li>
      ))}
    </ol>
  );
}

function Meta({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function SearchLink({ text }: { text: string }) {
  return (
    <a href={routeHref({ page: 'explorer', query: text })} title={`Search ${text}`} onClick={(click) => click.stopPropagation()}>
      {shortId(text)}
    </a>
  );
}

function CausationLink({ causationId, cause, onSelect }: { causationId: string; cause?: AuditEntry; onSelect: (event: AuditEntry) => void }) {
  if (!cause) return <SearchLink text={causationId} />;
  return (
    <button
      type="button"
      class="link"
      title={`Event ${causationId}`}
      onClick={(click) => {
        click.stopPropagation();
        onSelect(cause);
      }}
    >
      {cause.type} (rev {cause.revision})
    </button>
  );
}
