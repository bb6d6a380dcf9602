/**
 * A resource's page: its current state, what it relates to (a transaction's or quote's whole
 * chain in order), its event timeline, and time travel: the state right after a chosen event.
 */
import { useEffect, useState } from 'preact/hooks';
import { queryString } from './api';
import { excerpt, shortId } from './format';
import { routeHref } from './router';
import { FieldChange, changedFields } from './state-diff';
import { Timeline } from './timeline';
import type { AuditEntry, RelatedResource, ResourcePage as ResourceAnswer, StateAtRevision } from './types';
import { Card, ErrorBox, JsonBlock, Loading, NeedsCredential, useApi, useSession } from './ui';

/** Types whose related resources are a chain to read in order (quote -> holds -> transaction -> webhooks). */
const CHAIN_TYPES = new Set(['Transaction', 'Quote']);

export function ResourcePage({ id }: { id: string }) {
  const session = useSession();
  const [selected, setSelected] = useState<AuditEntry>();
  useEffect(() => setSelected(undefined), [id]);
  const resource = useApi<ResourceAnswer>(session.platform ? { path: `/console/resources/${encodeURIComponent(id)}`, credential: 'platform' } : null);

  if (!session.platform) return <NeedsCredential credential="platform" />;
  const page = resource.data?.id === id ? resource.data : undefined;

  return (
    <div>
      <p class="crumbs">
        <a href={routeHref({ page: 'explorer' })}>Explorer</a> / {id}
      </p>
      <h1>
        {page && <span class="badge">{page.type}</span>} <span class="mono">{id}</span>
      </h1>
      <Loading when={resource.loading && !page} />
      <ErrorBox message={resource.error} />
      {page && (
        <div class="columns">
          <div class="column">
            <Card title={`Timeline (${page.events.length} events)`}>
              <Timeline events={page.events} selected={selected} onSelect={setSelected} />
            </Card>
          </div>
          <div class="column">
            <TimeTravel id={id} selected={selected} />
            <Related resource={page} />
            <Card title="Current state">
              <JsonBlock value={page.state} testId="resource-state" />
            </Card>
          </div>
        </div>
      )}
    </div>
  );
}

function stateRequest(id: string, revision: number | undefined) {
  return revision === undefined || revision < 0 ? null : { path: `/console/resources/${encodeURIComponent(id)}/state${queryString({ revision })}`, credential: 'platform' as const };
}

/** The state right after the selected event, and what that event changed (against the revision before). */
function TimeTravel({ id, selected }: { id: string; selected?: AuditEntry }) {
  const state = useApi<StateAtRevision>(stateRequest(id, selected?.revision));
  const previous = useApi<StateAtRevision>(stateRequest(id, selected ? selected.revision - 1 : undefined));
  const current = selected && state.data?.revision === selected.revision && state.data.id === id ? state.data : undefined;
  const before = selected && previous.data?.revision === selected.revision - 1 && previous.data.id === id ? previous.data : undefined;
  const changes = current && (selected?.revision === 0 || before) ? changedFields(before?.state, current.state) : undefined;
  return (
    <Card title="Time travel">
      {!selected && <p class="muted">Select an event on the timeline to see the state right after it.</p>}
      {selected && (
        <div>
          <p>
            State after revision{' '}
            <strong data-testid="time-travel-revision">{selected.revision}</strong> ({selected.type})
          </p>
          <Loading when={state.loading && !current} />
          <ErrorBox message={state.error} />
          {changes && <Changes changes={changes} />}
          {current && <JsonBlock value={current.state} testId="time-travel-state" />}
        </div>
      )}
    </Card>
  );
}

function Changes({ changes }: { changes: FieldChange[] }) {
  if (changes.length === 0) return <p class="muted small">This event changed no field of the state.</p>;
  return (
    <table class="changes">
      <thead>
        <tr>
          <th>Changed</th>
          <th>Before</th>
          <th>After</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((change) => (
          <tr key={change.field}>
            <td class="mono">{change.field}</td>
            <td class="mono before">{excerpt(change.before, 80) || '-'}</td>
            <td class="mono after">{excerpt(change.after, 80) || '-'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Related({ resource }: { resource: ResourceAnswer }) {
  if (resource.related.length === 0) return null;
  if (CHAIN_TYPES.has(resource.type)) {
    return (
      <Card title="Chain">
        <ol class="chain">
          {resource.related.map((step) => (
            <li key={`${step.relation}:${step.id}`} class={`chain-step${step.id === resource.id ? ' current' : ''}`} data-testid="chain-step" data-id={step.id}>
              <span class="relation">{step.relation}</span>
              <RelatedLink item={step} />
            </li>
          ))}
        </ol>
      </Card>
    );
  }
  return (
    <Card title="Related">
      <table>
        <tbody>
          {groupByRelation(resource.related).map(([relation, items]) =>
            items.map((item, index) => (
              <tr key={`${relation}:${item.id}`}>
                <th>{index === 0 ? relation : ''}</th>
                <td>
                  <RelatedLink item={item} />
                </td>
              </tr>
            )),
          )}
        </tbody>
      </table>
    </Card>
  );
}

function RelatedLink({ item }: { item: RelatedResource }) {
  return (
    <span>
      <a href={routeHref({ page: 'resource', id: item.id })} data-testid="related-link" data-id={item.id} title={item.id}>
        {item.label || item.id}
      </a>{' '}
      <span class="muted mono">{shortId(item.id)}</span>
    </span>
  );
}

function groupByRelation(items: RelatedResource[]): [string, RelatedResource[]][] {
  const groups = new Map<string, RelatedResource[]>();
  for (const item of items) groups.set(item.relation, [...(groups.get(item.relation) ?? []), item]);
  return [...groups];
}
