import { FixedHistogram } from './fixed-histogram';

describe('FixedHistogram', () => {
  it('counts each value in the first bucket at or above it, cumulatively, with sum and count', () => {
    const histogram = new FixedHistogram('demo_seconds', 'A demo.', [0.01, 0.1, 1]);
    for (const value of [0.005, 0.01, 0.05, 2]) histogram.observe(value);
    expect(histogram.exposition()).toBe(
      [
        '# HELP demo_seconds A demo.',
        '# TYPE demo_seconds histogram',
        'demo_seconds_bucket{le="0.01"} 2',
        'demo_seconds_bucket{le="0.1"} 3',
        'demo_seconds_bucket{le="1"} 3',
        'demo_seconds_bucket{le="+Inf"} 4',
        'demo_seconds_sum 2.065',
        'demo_seconds_count 4',
        '',
      ].join('\n'),
    );
  });

  it('renders empty buckets before any observation', () => {
    const histogram = new FixedHistogram('empty_seconds', 'Nothing yet.', [1]);
    expect(histogram.exposition()).toContain('empty_seconds_bucket{le="+Inf"} 0\nempty_seconds_sum 0\nempty_seconds_count 0\n');
  });
});
