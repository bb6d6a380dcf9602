/**
 * Pure geometry for the hand-written SVG charts (specified by chart-scale.spec.ts): scales from
 * data to pixels, tick values a person can read, SVG path strings, and the series each chart draws.
 */
import type { Charts, LagHistory, VolumeBucket } from './types';

export interface Point {
  x: number;
  y: number;
}

/** Maps [domainMin, domainMax] linearly onto [rangeMin, rangeMax]; a flat domain maps to rangeMin. */
export function linearScale(domainMin: number, domainMax: number, rangeMin: number, rangeMax: number): (value: number) => number {
  const span = domainMax - domainMin;
  if (span === 0) return () => rangeMin;
  return (value) => rangeMin + ((value - domainMin) / span) * (rangeMax - rangeMin);
}

/** The smallest 1, 2 or 5 times a power of ten at or above `raw`, so tick values read well. */
export function niceStep(raw: number): number {
  if (!(raw > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const multiple of [1, 2, 5]) if (multiple * power >= raw) return multiple * power;
  return 10 * power;
}

/**
 * Ticks from 0 in round steps (about `count` of them) up to the first at or above `max`: the
 * last one is the axis's top. `minStep` 1 keeps counts whole.
 */
export function ticks(max: number, count = 4, minStep = 0): number[] {
  const step = Math.max(minStep, niceStep(max / count));
  const values = [0];
  while (values[values.length - 1] < max || values.length < 2) values.push(Number((values.length * step).toPrecision(12)));
  return values;
}

/** `M x y L x y ...` through the points (empty for no points). */
export function linePath(points: Point[]): string {
  return points.map((point, index) => `${index === 0 ? 'M' : 'L'}${round(point.x)} ${round(point.y)}`).join(' ');
}

/** The line closed down to the baseline, for a filled area. */
export function areaPath(points: Point[], baselineY: number): string {
  if (points.length === 0) return '';
  const first = points[0];
  const last = points[points.length - 1];
  return `${linePath(points)} L${round(last.x)} ${round(baselineY)} L${round(first.x)} ${round(baselineY)} Z`;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

export interface Series {
  name: string;
  values: number[];
}

/** Failure rate per bucket in percent (0 for an empty bucket). */
export function failureRates(volume: VolumeBucket[]): number[] {
  return volume.map((bucket) => (bucket.count > 0 ? (bucket.failed / bucket.count) * 100 : 0));
}

/**
 * The lag history as one series per consumer over the samples' times; a consumer missing from a
 * sample (started later, or renamed) counts 0 there.
 */
export function lagSeries(history: LagHistory): { times: string[]; series: Series[] } {
  const names = new Set<string>();
  for (const sample of history.samples) for (const name of Object.keys(sample.consumers)) names.add(name);
  return {
    times: history.samples.map((sample) => sample.at),
    series: [...names].sort().map((name) => ({ name, values: history.samples.map((sample) => sample.consumers[name] ?? 0) })),
  };
}

/**
 * The series worth a line and a legend entry: those above 0 at some sample. Fifty consumers
 * idling at 0 would only bury the one that lags; when none lags, one flat line says so.
 */
export function laggingSeries(series: Series[]): { shown: Series[]; idle: number } {
  const shown = series.filter((line) => line.values.some((value) => value > 0));
  if (shown.length > 0 || series.length === 0) return { shown, idle: series.length - shown.length };
  return { shown: [{ name: 'every consumer', values: series[0].values }], idle: 0 };
}

export interface HistogramBar {
  label: string;
  count: number;
}

/**
 * One bar per bucket of `webhookLatencyMs.buckets` (`{le, count}`: the tries above the previous
 * bound and at most `le`, drawn as given), labelled by its upper bound (`50ms`); the last bucket
 * also counts every slower try, so it reads `>5s` (its lower bound).
 */
export function histogramBars(buckets: Charts['webhookLatencyMs']['buckets']): HistogramBar[] {
  return buckets.map((bucket, index) => {
    const last = index === buckets.length - 1 && index > 0;
    return { label: last ? `>${compactMs(buckets[index - 1].le)}` : compactMs(bucket.le), count: bucket.count };
  });
}

/** `250ms`, `2.5s`: short enough for a dozen labels under a 640-pixel chart. */
function compactMs(ms: number): string {
  return ms < 1000 ? `${ms}ms` : `${ms / 1000}s`;
}

/** Evenly placed label indexes (at most `count`), so a 288-bucket axis shows a few times only. */
export function labelIndexes(length: number, count = 6): number[] {
  if (length <= 0) return [];
  if (length <= count) return Array.from({ length }, (_, index) => index);
  const step = (length - 1) / (count - 1);
  return Array.from({ length: count }, (_, index) => Math.round(index * step));
}
