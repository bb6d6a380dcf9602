/**
 * Charts: transaction volume and failure rate over time and the webhook latency distribution
 * (platform credentials), projection and reactor lag over the last hour (operator key).
 */
import { useState } from 'preact/hooks';
import { queryString } from './api';
import { failureRates, histogramBars, lagSeries, laggingSeries } from './chart-scale';
import { formatCount, formatDurationMs } from './format';
import { BarChart, TimeSeriesChart } from './svg-charts';
import type { Charts, LagHistory } from './types';
import { Card, ErrorBox, Loading, useApi, useSession } from './ui';

const HOURS = [1, 6, 24, 72, 168];
/** The service samples lag every 10 s. */
const LAG_POLL_MS = 10_000;

export function ChartsPage() {
  const session = useSession();
  const [hours, setHours] = useState(24);
  return (
    <div>
      <h1>Charts</h1>
      {!session.platform && !session.operatorKey && <p class="muted">Sign in to see charts.</p>}
      {session.platform && (
        <div class="filters">
          <label>
            Period
            <select value={String(hours)} onChange={(event) => setHours(Number(event.currentTarget.value))}>
              {HOURS.map((value) => (
                <option key={value} value={String(value)}>
                  last {value < 48 ? `${value} h` : `${value / 24} days`}
                </option>
              ))}
            </select>
          </label>
        </div>
      )}
      <div class="grid-2">
        {session.platform && <PlatformCharts hours={hours} />}
        {session.operatorKey && <LagChart />}
      </div>
      {!session.operatorKey && (
        <p class="muted">
          Projection lag is for operators: <a href="#/signin">sign in with the operator key</a> too.
        </p>
      )}
    </div>
  );
}

function PlatformCharts({ hours }: { hours: number }) {
  const charts = useApi<Charts>({ path: `/console/charts${queryString({ hours })}`, credential: 'platform' });
  const volume = charts.data?.volume ?? [];
  const times = volume.map((bucket) => bucket.bucketStart);
  const latency = charts.data?.webhookLatencyMs;
  const total = volume.reduce((sum, bucket) => sum + bucket.count, 0);
  const failed = volume.reduce((sum, bucket) => sum + bucket.failed, 0);
  if (!charts.data) {
    return (
      <Card title="Transactions and webhooks">
        <Loading when={charts.loading} />
        <ErrorBox message={charts.error} />
      </Card>
    );
  }
  return (
    <>
      <Card title={`Transactions (${formatCount(total)})`}>
        <ErrorBox message={charts.error} />
        <TimeSeriesChart testId="chart-volume" title="Transactions created per interval" times={times} series={[{ name: 'transactions', values: volume.map((bucket) => bucket.count) }]} area integers formatValue={formatCount} />
      </Card>
      <Card title={`Failure rate (${formatCount(failed)} failed)`}>
        <TimeSeriesChart
          testId="chart-failure-rate"
          title="Share of transactions that failed, per interval"
          times={times}
          series={[{ name: 'failed %', values: failureRates(volume) }]}
          maxValue={100}
          formatValue={(value) => `${value} %`}
        />
      </Card>
      <Card title={`Webhook latency${latency?.p50 !== undefined ? ` (p50 ${formatDurationMs(latency.p50)}, p99 ${formatDurationMs(latency.p99 ?? 0)})` : ''}`}>
        <BarChart testId="chart-webhook-latency" title="Webhook delivery tries by latency (bars: tries up to that latency, above the previous bar's)" bars={histogramBars(latency?.buckets ?? [])} />
      </Card>
    </>
  );
}

function LagChart() {
  const history = useApi<LagHistory>({ path: '/console/operations/lag-history', credential: 'operator' }, LAG_POLL_MS);
  const { times, series } = lagSeries(history.data ?? { samples: [] });
  const { shown, idle } = laggingSeries(series);
  return (
    <Card title="Projection and reactor lag, last hour (events)">
      <Loading when={history.loading && !history.data} />
      <ErrorBox message={history.error} />
      {history.data && <TimeSeriesChart testId="chart-lag" title="Events behind the store's head, per consumer" times={times} series={shown} integers legend formatValue={formatCount} />}
      {idle > 0 && <p class="muted small">{idle} more never lagged in this hour.</p>}
    </Card>
  );
}
