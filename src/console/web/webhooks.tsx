/**
 * Webhooks: the delivery log (newest first) with status and type filters; a delivery's detail
 * shows each try (status, latency, response excerpt), the body as sent and signed, and "Retry",
 * which sends it again now (`POST /webhooks/deliveries/{id}/retry`, the existing replay).
 */
import { useState } from 'preact/hooks';
import { callApi, queryString } from './api';
import { excerpt, formatDurationMs, formatTableTime, formatTime, idType, shortId } from './format';
import { DELIVERY_STATUSES, Delivery, DeliveryPage } from './types';
import { Card, ErrorBox, IdLink, JsonBlock, Loading, NeedsCredential, errorText, useApi, useSession } from './ui';

const PAGE_SIZE = 25;

export function WebhooksPage() {
  const session = useSession();
  const [status, setStatus] = useState('');
  const [type, setType] = useState('');
  const [cursors, setCursors] = useState<string[]>([]);
  const [selectedId, setSelectedId] = useState<string>();
  const cursor = cursors[cursors.length - 1];
  const deliveries = useApi<DeliveryPage>(
    session.platform ? { path: `/webhooks/deliveries${queryString({ status, type: type.trim() || undefined, limit: PAGE_SIZE, cursor })}`, credential: 'platform' } : null,
  );
  if (!session.platform) return <NeedsCredential credential="platform" />;

  const filterBy = (apply: () => void) => {
    apply();
    setCursors([]);
  };
  const rows = deliveries.data?.data ?? [];
  const selected = rows.find((delivery) => delivery.id === selectedId);

  return (
    <div>
      <h1>Webhooks</h1>
      <div class="filters">
        <label>
          Status
          <select data-testid="delivery-filter-status" value={status} onChange={(event) => filterBy(() => setStatus(event.currentTarget.value))}>
            <option value="">all</option>
            {DELIVERY_STATUSES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </label>
        <label>
          Type
          <input placeholder="OUTGOING_PAYMENT.COMPLETED" value={type} onChange={(event) => filterBy(() => setType(event.currentTarget.value))} />
        </label>
        <button type="button" class="secondary" onClick={deliveries.reload}>
          Refresh
        </button>
      </div>
      <ErrorBox message={deliveries.error} />
      <div class="columns wide-left">
        <div class="column">
          <Card title={`Deliveries${deliveries.data?.totalCount !== undefined ? ` (${deliveries.data.totalCount})` : ''}`}>
            <Loading when={deliveries.loading && !deliveries.data} />
            {deliveries.data && rows.length === 0 && <p class="muted">No delivery matches.</p>}
            {rows.length > 0 && <DeliveryTable rows={rows} selectedId={selectedId} onSelect={setSelectedId} />}
            <div class="pager">
              {cursors.length > 0 && (
                <button type="button" class="secondary" onClick={() => setCursors(cursors.slice(0, -1))}>
                  Newer
                </button>
              )}
              {deliveries.data?.hasMore && deliveries.data.nextCursor && (
                <button type="button" class="secondary" onClick={() => setCursors([...cursors, deliveries.data!.nextCursor!])}>
                  Older
                </button>
              )}
            </div>
          </Card>
        </div>
        <div class="column">{selected ? <DeliveryDetail key={selected.id} delivery={selected} onRetried={deliveries.reload} /> : <p class="muted">Select a delivery to see its tries and body.</p>}</div>
      </div>
    </div>
  );
}

function DeliveryTable({ rows, selectedId, onSelect }: { rows: Delivery[]; selectedId?: string; onSelect: (id: string) => void }) {
  return (
    <table>
      <thead>
        <tr>
          <th>Created (UTC)</th>
          <th>Type</th>
          <th>Status</th>
          <th class="num">Tries</th>
          <th>Last</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((delivery) => (
          <tr key={delivery.id} class={`clickable${delivery.id === selectedId ? ' selected' : ''}`} data-testid="delivery-row" data-id={delivery.id} onClick={() => onSelect(delivery.id)}>
            <td class="nowrap" title={formatTime(delivery.createdAt)}>
              {formatTableTime(delivery.createdAt)}
            </td>
            <td>{delivery.type}</td>
            <td>
              <StatusBadge status={delivery.status} />
            </td>
            <td class="num">{delivery.attemptCount}</td>
            <td>{delivery.lastStatusCode ?? excerpt(delivery.lastError, 40)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function StatusBadge({ status }: { status: string }) {
  return <span class={`badge status-${status.toLowerCase()}`}>{status}</span>;
}

function DeliveryDetail({ delivery, onRetried }: { delivery: Delivery; onRetried: () => void }) {
  const session = useSession();
  const [retry, setRetry] = useState<{ busy: boolean; answer?: Delivery; error?: string }>({ busy: false });
  const shown = retry.answer ?? delivery;

  const sendAgain = async () => {
    setRetry({ busy: true });
    try {
      const answer = await callApi<Delivery>(session, { method: 'POST', path: `/webhooks/deliveries/${encodeURIComponent(delivery.id)}/retry`, credential: 'platform' });
      setRetry({ busy: false, answer });
      onRetried();
    } catch (error) {
      setRetry({ busy: false, error: errorText(error) });
    }
  };

  return (
    <div data-testid="delivery-detail">
      <Card
        title={`${shown.type} · ${shortId(shown.id)}`}
        actions={
          <button type="button" data-testid="delivery-retry" disabled={retry.busy} onClick={sendAgain}>
            {retry.busy ? 'Sending…' : 'Retry now'}
          </button>
        }
      >
        {retry.answer && (
          <div class="success" data-testid="delivery-retry-done">
            Sent again: {retry.answer.status}
            {retry.answer.lastStatusCode !== undefined ? `, HTTP ${retry.answer.lastStatusCode}` : ''}.
          </div>
        )}
        <ErrorBox message={retry.error} />
        <dl class="facts">
          <dt>Status</dt>
          <dd>
            <StatusBadge status={shown.status} />
          </dd>
          <dt>Webhook</dt>
          <dd class="mono">{shown.webhookId}</dd>
          <dt>Endpoint</dt>
          <dd class="mono">{shown.endpoint ?? '-'}</dd>
          {shown.nextAttemptAt && (
            <>
              <dt>Next try</dt>
              <dd>{formatTime(shown.nextAttemptAt)}</dd>
            </>
          )}
          {shown.deliveredAt && (
            <>
              <dt>Delivered</dt>
              <dd>{formatTime(shown.deliveredAt)}</dd>
            </>
          )}
          <dt>About</dt>
          <dd>{aboutId(shown.payload) ? <IdLink id={aboutId(shown.payload)!} /> : '-'}</dd>
        </dl>
      </Card>
      <Card title={`Tries (${shown.attemptCount})`}>
        <table>
          <thead>
            <tr>
              <th>#</th>
              <th>When (UTC)</th>
              <th>Status</th>
              <th>Latency</th>
              <th>Response</th>
            </tr>
          </thead>
          <tbody>
            {shown.attempts.map((attempt) => (
              <tr key={attempt.attemptNumber} data-testid="delivery-attempt">
                <td title={attempt.trigger}>
                  {attempt.attemptNumber}
                  {attempt.trigger !== 'AUTOMATIC' && <div class="muted small">{attempt.trigger.toLowerCase()}</div>}
                </td>
                <td class="nowrap" title={formatTime(attempt.attemptedAt)}>
                  {formatTableTime(attempt.attemptedAt)}
                </td>
                <td class={attempt.statusCode !== undefined && attempt.statusCode < 300 ? 'ok' : 'bad'}>{attempt.statusCode ?? 'no answer'}</td>
                <td>{formatDurationMs(attempt.latencyMs)}</td>
                <td class="response" title={attempt.error}>
                  {excerpt(attempt.error, 80) || 'OK'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      <Card title="Signed body (as sent)">
        <JsonBlock value={shown.payload} testId="delivery-body" />
      </Card>
    </div>
  );
}

/** The resource a webhook is about (`data.id`), to open its page. */
function aboutId(payload: unknown): string | undefined {
  const id = (payload as { data?: { id?: unknown } } | undefined)?.data?.id;
  return typeof id === 'string' && idType(id) ? id : undefined;
}
