/**
 * Hand-written SVG charts (no chart library): a line or area chart over time for one or more
 * series, and a bar chart. Colours come from app.css classes; sizes are attributes, which the
 * page's CSP (no inline styles) allows. The geometry is in chart-scale.ts.
 */
import { areaPath, labelIndexes, linePath, linearScale, ticks } from './chart-scale';
import { formatClock } from './format';

const WIDTH = 640;
const HEIGHT = 220;
const MARGIN = { top: 12, right: 16, bottom: 28, left: 52 };
const PLOT_BOTTOM = HEIGHT - MARGIN.bottom;
const PLOT_RIGHT = WIDTH - MARGIN.right;

export interface TimeSeriesChartProps {
  testId: string;
  title: string;
  times: string[];
  series: { name: string; values: number[] }[];
  area?: boolean;
  formatValue?: (value: number) => string;
  /** Fixed top of the y axis (100 for percentages); else a round number above the data. */
  maxValue?: number;
  /** Whole-number ticks (counts). */
  integers?: boolean;
  /** Names the series under the chart. */
  legend?: boolean;
}

export function TimeSeriesChart({ testId, title, times, series, area, formatValue = String, maxValue, integers, legend }: TimeSeriesChartProps) {
  const highest = Math.max(0, ...series.flatMap((line) => line.values));
  const yTicks = ticks(maxValue ?? highest, 4, integers ? 1 : 0);
  const top = yTicks[yTicks.length - 1];
  const x = linearScale(0, Math.max(1, times.length - 1), MARGIN.left, PLOT_RIGHT);
  const y = linearScale(0, top, PLOT_BOTTOM, MARGIN.top);
  return (
    <figure class="chart">
      <svg data-testid={testId} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={title}>
        <title>{title}</title>
        <YAxis ticks={yTicks} y={y} formatValue={formatValue} />
        {labelIndexes(times.length).map((index) => (
          <text key={index} class="axis-label" x={x(index)} y={HEIGHT - 8} text-anchor="middle">
            {formatClock(times[index])}
          </text>
        ))}
        {series.map((line, index) => {
          const points = line.values.map((value, at) => ({ x: x(at), y: y(value) }));
          return (
            <g key={line.name} class={`series series-${index % 8}`}>
              {area && <path class="area" d={areaPath(points, PLOT_BOTTOM)} />}
              <path class="line" d={linePath(points)} fill="none" />
              {/* A line needs two points: a lone sample (the first after start) is a dot. */}
              {points.length === 1 && <circle class="dot" cx={points[0].x} cy={points[0].y} r="3" />}
            </g>
          );
        })}
        {times.length === 0 && (
          <text class="axis-label" x={WIDTH / 2} y={HEIGHT / 2} text-anchor="middle">
            No data yet
          </text>
        )}
      </svg>
      {legend && series.length > 0 && <Legend names={series.map((line) => line.name)} />}
    </figure>
  );
}

export interface BarChartProps {
  testId: string;
  title: string;
  bars: { label: string; count: number }[];
}

export function BarChart({ testId, title, bars }: BarChartProps) {
  const yTicks = ticks(Math.max(0, ...bars.map((bar) => bar.count)), 4, 1);
  const y = linearScale(0, yTicks[yTicks.length - 1], PLOT_BOTTOM, MARGIN.top);
  const slot = (PLOT_RIGHT - MARGIN.left) / Math.max(1, bars.length);
  return (
    <figure class="chart">
      <svg data-testid={testId} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={title}>
        <title>{title}</title>
        <YAxis ticks={yTicks} y={y} formatValue={String} />
        {bars.map((bar, index) => {
          const left = MARGIN.left + index * slot + slot * 0.15;
          return (
            <g key={bar.label}>
              <rect class="bar" x={left} y={y(bar.count)} width={slot * 0.7} height={PLOT_BOTTOM - y(bar.count)}>
                <title>{`${bar.label}: ${bar.count}`}</title>
              </rect>
              <text class="axis-label" x={left + slot * 0.35} y={HEIGHT - 8} text-anchor="middle">
                {bar.label}
              </text>
            </g>
          );
        })}
        {bars.length === 0 && (
          <text class="axis-label" x={WIDTH / 2} y={HEIGHT / 2} text-anchor="middle">
            No data yet
          </text>
        )}
      </svg>
    </figure>
  );
}

function YAxis({ ticks: values, y, formatValue }: { ticks: number[]; y: (value: number) => number; formatValue: (value: number) => string }) {
  return (
    <g class="axis">
      {values.map((value) => (
        <g key={value}>
          <line class="grid" x1={MARGIN.left} x2={PLOT_RIGHT} y1={y(value)} y2={y(value)} />
          <text class="axis-label" x={MARGIN.left - 6} y={y(value) + 4} text-anchor="end">
            {formatValue(value)}
          </text>
        </g>
      ))}
    </g>
  );
}

function Legend({ names }: { names: string[] }) {
  return (
    <figcaption class="legend">
      {names.map((name, index) => (
        <span key={name} class={`legend-item series-${index % 8}`}>
          <svg viewBox="0 0 10 10" class="swatch" aria-hidden="true">
            <rect class="swatch-fill" width="10" height="10" rx="2" />
          </svg>
          {name}
        </span>
      ))}
    </figcaption>
  );
}
