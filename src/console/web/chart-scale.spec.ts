import { describe, expect, it } from '@jest/globals';
import type { LagHistory } from './types';
import { areaPath, failureRates, histogramBars, labelIndexes, lagSeries, laggingSeries, linePath, linearScale, niceStep, ticks } from './chart-scale';

describe('chart geometry', () => {
  it('maps a domain onto pixels, upside down for y', () => {
    const y = linearScale(0, 100, 200, 0);
    expect([y(0), y(50), y(100)]).toEqual([200, 100, 0]);
    expect(linearScale(5, 5, 10, 90)(5)).toBe(10);
  });

  it('picks round ticks from 0 to at or above the maximum', () => {
    expect([0.07, 0.75, 3, 12, 2500].map(niceStep)).toEqual([0.1, 1, 5, 20, 5000]);
    expect(ticks(1234)).toEqual([0, 500, 1000, 1500]);
    expect(ticks(100)).toEqual([0, 50, 100]);
    expect(ticks(3, 4, 1)).toEqual([0, 1, 2, 3]);
    expect(ticks(2, 4, 1)).toEqual([0, 1, 2]);
    expect(ticks(0, 4, 1)).toEqual([0, 1]);
    expect(ticks(0.3)).toEqual([0, 0.1, 0.2, 0.3]);
  });

  it('draws lines and areas closed down to the baseline', () => {
    const points = [
      { x: 0, y: 10 },
      { x: 5.04, y: 2.25 },
    ];
    expect(linePath(points)).toBe('M0 10 L5 2.3');
    expect(areaPath(points, 20)).toBe('M0 10 L5 2.3 L5 20 L0 20 Z');
    expect(linePath([])).toBe('');
    expect(areaPath([], 20)).toBe('');
  });

  it('derives the failure rate per bucket, 0 for an empty one', () => {
    expect(
      failureRates([
        { bucketStart: '2025-11-03T14:00:00Z', count: 4, failed: 1 },
        { bucketStart: '2025-11-03T14:05:00Z', count: 0, failed: 0 },
      ]),
    ).toEqual([25, 0]);
  });

  it('turns lag samples into one series per consumer, 0 where a sample lacks it', () => {
    const history: LagHistory = {
      samples: [
        { at: '2025-11-03T14:00:00Z', consumers: { quotes: 3, 'webhook-dispatch': 0 } },
        { at: '2025-11-03T14:00:10Z', consumers: { quotes: 1, cards: 7 } },
      ],
    };
    expect(lagSeries(history)).toEqual({
      times: ['2025-11-03T14:00:00Z', '2025-11-03T14:00:10Z'],
      series: [
        { name: 'cards', values: [0, 7] },
        { name: 'quotes', values: [3, 1] },
        { name: 'webhook-dispatch', values: [0, 0] },
      ],
    });
    expect(lagSeries({ samples: [] })).toEqual({ times: [], series: [] });
  });

  it('draws only the consumers that lagged, or one flat line when none did', () => {
    const quotes = { name: 'quotes', values: [0, 3] };
    const cards = { name: 'cards', values: [0, 0] };
    expect(laggingSeries([cards, quotes])).toEqual({ shown: [quotes], idle: 1 });
    expect(laggingSeries([cards])).toEqual({ shown: [{ name: 'every consumer', values: [0, 0] }], idle: 0 });
    expect(laggingSeries([])).toEqual({ shown: [], idle: 0 });
  });

  it('labels histogram buckets, the last one counting every slower try', () => {
    expect(
      histogramBars([
        { le: 50, count: 3 },
        { le: 5000, count: 1 },
        { le: 10000, count: 2 },
      ]),
    ).toEqual([
      { label: '50ms', count: 3 },
      { label: '5s', count: 1 },
      { label: '>5s', count: 2 },
    ]);
  });

  it('spreads a few axis labels over long series', () => {
    expect(labelIndexes(0)).toEqual([]);
    expect(labelIndexes(3)).toEqual([0, 1, 2]);
    expect(labelIndexes(288)).toEqual([0, 57, 115, 172, 230, 287]);
  });
});
