/**
 * Operations (operator key): health, every projection and reactor with position, lag and its last
 * error, queue counts, and rebuild/verify jobs with their progress. Refreshed every 2 s.
 */
import { useEffect, useState } from 'preact/hooks';
import { callApi } from './api';
import { formatCount, formatDurationMs, formatTime, progressPercent } from './format';
import type { Consumer, Job, JobKind, Operations, QueueCounts } from './types';
import { Card, ErrorBox, Loading, NeedsCredential, errorText, useApi, useSession } from './ui';

export const OPERATIONS_POLL_MS = 2000;

export function OperationsPage() {
  const session = useSession();
  const operations = useApi<Operations>(session.operatorKey ? { path: '/console/operations', credential: 'operator' } : null, OPERATIONS_POLL_MS);
  const [started, setStarted] = useState<Job[]>([]);
  const [startError, setStartError] = useState<string>();
  const start = async (kind: JobKind, projection: string) => {
    setStartError(undefined);
    try {
      const job = await callApi<Job>(session, { method: 'POST', path: '/console/operations/jobs', credential: 'operator', body: { kind, projection } });
      setStarted((jobs) => [job, ...jobs.filter((known) => known.id !== job.id)]);
      operations.reload();
    } catch (error) {
      setStartError(`${kind} of ${projection}: ${errorText(error)}`);
    }
  };

  const data = operations.data;
  useEffect(() => {
    // A job started here that the list does not show (yet) is followed by its own route.
    for (const job of started) {
      if (job.status !== 'RUNNING' || data?.jobs.some((listed) => listed.id === job.id)) continue;
      callApi<Job>(session, { path: `/console/operations/jobs/${encodeURIComponent(job.id)}`, credential: 'operator' }).then(
        (fresh) => setStarted((jobs) => jobs.map((known) => (known.id === fresh.id ? fresh : known))),
        () => undefined,
      );
    }
  }, [data]);
  if (!session.operatorKey) return <NeedsCredential credential="operator" />;
  const jobs = mergeJobs(started, data?.jobs ?? []);
  const running = new Set(jobs.filter((job) => job.status === 'RUNNING').map((job) => `${job.kind}:${job.projection}`));

  return (
    <div>
      <h1>
        Operations {data && <HealthBadge status={data.health.status} />}
        <span class="muted small"> refreshed every {OPERATIONS_POLL_MS / 1000} s</span>
      </h1>
      <Loading when={operations.loading && !data} />
      <ErrorBox message={operations.error} />
      <ErrorBox message={startError} />
      {data && (
        <>
          <HealthChecks operations={data} />
          <Card title="Jobs">{jobs.length === 0 ? <p class="muted">No rebuild or verify since this process started.</p> : <JobTable jobs={jobs} />}</Card>
          <Card title="Projections and reactors">
            <ConsumerTable consumers={data.consumers} running={running} onStart={start} />
          </Card>
          <Card title="Queues">
            <QueueTable queues={data.queues} />
          </Card>
        </>
      )}
    </div>
  );
}

/** The service's jobs win over the 202 answers kept locally (they are newer); newest first. */
function mergeJobs(started: Job[], listed: Job[]): Job[] {
  const byId = new Map<string, Job>();
  for (const job of [...started, ...listed]) byId.set(job.id, job);
  return [...byId.values()].sort((a, b) => b.startedAt.localeCompare(a.startedAt));
}

function HealthBadge({ status }: { status: string }) {
  return (
    <span class={`badge health-${status}`} data-testid="health-status">
      {status}
    </span>
  );
}

function HealthChecks({ operations }: { operations: Operations }) {
  const checks = Object.entries(operations.health.checks).filter(([name]) => name !== 'queues');
  const reasons = checks.flatMap(([, check]) => check.reasons ?? []);
  return (
    <Card title="Health">
      <div class="checks">
        {checks.map(([name, check]) => (
          <div key={name} class={`check check-${check.status ?? 'unknown'}`}>
            <strong>{name}</strong> {check.status ?? '?'}
            {check.latencyMs !== undefined && <span class="muted"> · {check.latencyMs} ms</span>}
            {check.error && <div class="bad small">{check.error}</div>}
          </div>
        ))}
      </div>
      {reasons.length > 0 && (
        <ul class="reasons">
          {reasons.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function JobTable({ jobs }: { jobs: Job[] }) {
  return (
    <table>
      <thead>
        <tr>
          <th>Job</th>
          <th>Projection</th>
          <th>Progress</th>
          <th>Started</th>
          <th>Result</th>
        </tr>
      </thead>
      <tbody>
        {jobs.map((job) => (
          <tr key={job.id}>
            <td>{job.kind}</td>
            <td>{job.projection}</td>
            <td>
              <ProgressBar job={job} />
            </td>
            <td>{formatTime(job.startedAt)}</td>
            <td>{describeOutcome(job)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ProgressBar({ job }: { job: Job }) {
  const percent = job.status === 'SUCCEEDED' ? 100 : progressPercent(job.progress.done, job.progress.total);
  return (
    <div class={`progress progress-${job.status.toLowerCase()}`} data-testid="job-progress" data-status={job.status} data-done={job.progress.done} data-total={job.progress.total}>
      {/* An SVG bar: its width is an attribute, which the page's CSP (no inline styles) allows. */}
      <svg class="progress-track" viewBox="0 0 100 6" preserveAspectRatio="none" aria-hidden="true">
        <rect class="progress-rest" x="0" y="0" width="100" height="6" rx="2" />
        <rect class="progress-fill" x="0" y="0" width={percent} height="6" rx="2" />
      </svg>
      <span class="progress-label">
        {job.status} · {formatCount(job.progress.done)} / {formatCount(job.progress.total)} ({percent} %)
      </span>
    </div>
  );
}

function describeOutcome(job: Job): string {
  if (job.error) return job.error;
  if (job.status === 'RUNNING') return '';
  const parts: string[] = [];
  if (job.result?.eventsApplied !== undefined) parts.push(`${formatCount(job.result.eventsApplied)} events applied`);
  if (job.result?.differences !== undefined) parts.push(job.result.differences === 0 ? 'no difference' : `${formatCount(job.result.differences)} differences`);
  if (job.finishedAt) parts.push(`in ${formatDurationMs(Date.parse(job.finishedAt) - Date.parse(job.startedAt))}`);
  return parts.join(', ');
}

interface ConsumerTableProps {
  consumers: Consumer[];
  running: Set<string>;
  onStart: (kind: JobKind, projection: string) => void;
}

function ConsumerTable({ consumers, running, onStart }: ConsumerTableProps) {
  return (
    <table>
      <thead>
        <tr>
          <th>Name</th>
          <th>Kind</th>
          <th>State</th>
          <th>Position</th>
          <th class="num">Lag (events)</th>
          <th class="num">Lag</th>
          <th class="num">Applied</th>
          <th>Last error</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {consumers.map((consumer) => (
          <tr key={consumer.name} data-testid="consumer-row" data-name={consumer.name} class={consumer.lastError ? 'row-bad' : ''}>
            <td class="mono">{consumer.name}</td>
            <td>{consumer.kind}</td>
            <td>{consumer.state ?? '-'}</td>
            <td class="mono">{consumer.position ?? '-'}</td>
            <td class="num">{formatCount(consumer.lagEvents)}</td>
            <td class="num">{formatDurationMs(consumer.lagSeconds * 1000)}</td>
            <td class="num">{consumer.eventsApplied !== undefined ? formatCount(consumer.eventsApplied) : '-'}</td>
            <td class="bad small" title={consumer.lastErrorAt ? formatTime(consumer.lastErrorAt) : undefined}>
              {consumer.lastError ?? ''}
            </td>
            <td class="actions">
              {consumer.kind === 'projection' && (
                <>
                  <button type="button" class="secondary" data-testid="job-start-rebuild" disabled={running.has(`rebuild:${consumer.name}`)} onClick={() => onStart('rebuild', consumer.name)}>
                    Rebuild
                  </button>
                  <button type="button" class="secondary" data-testid="job-start-verify" disabled={running.has(`verify:${consumer.name}`)} onClick={() => onStart('verify', consumer.name)}>
                    Verify
                  </button>
                </>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function QueueTable({ queues }: { queues: Record<string, QueueCounts> }) {
  const entries = Object.entries(queues);
  if (entries.length === 0) return <p class="muted">No queue.</p>;
  return (
    <table>
      <thead>
        <tr>
          <th>Queue</th>
          <th class="num">Waiting</th>
          <th class="num">Active</th>
          <th class="num">Delayed</th>
          <th class="num">Failed</th>
        </tr>
      </thead>
      <tbody>
        {entries.map(([name, counts]) => (
          <tr key={name} data-testid="queue-row" data-name={name}>
            <td class="mono">{name}</td>
            <td class="num">{formatCount(counts.waiting)}</td>
            <td class="num">{formatCount(counts.active)}</td>
            <td class="num">{formatCount(counts.delayed)}</td>
            <td class={`num${counts.failed > 0 ? ' bad' : ''}`}>{formatCount(counts.failed)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
