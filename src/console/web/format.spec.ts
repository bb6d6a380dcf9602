import { describe, expect, it } from '@jest/globals';
import { describeError, excerpt, formatClock, formatCount, formatDurationMs, formatTableTime, formatTime, idType, progressPercent, shortId } from './format';

describe('console formatting', () => {
  it('shows times in UTC, and leaves what is not a time as it is', () => {
    expect(formatTime('2025-11-03T14:22:30.120Z')).toBe('2025-11-03 14:22:30 UTC');
    expect(formatTime('2025-11-03T16:22:30+02:00')).toBe('2025-11-03 14:22:30 UTC');
    expect(formatTime('soon')).toBe('soon');
    expect(formatTime(undefined)).toBe('');
    expect(formatTableTime('2025-11-03T14:22:30.120Z')).toBe('11-03 14:22:30');
    expect(formatTableTime('soon')).toBe('soon');
    expect(formatClock('2025-11-03T14:05:00.000Z')).toBe('14:05');
  });

  it('reads durations at the right unit', () => {
    expect(formatDurationMs(0)).toBe('0 ms');
    expect(formatDurationMs(184.4)).toBe('184 ms');
    expect(formatDurationMs(1234)).toBe('1.2 s');
    expect(formatDurationMs(42_000)).toBe('42 s');
    expect(formatDurationMs(200_000)).toBe('3 min 20 s');
    expect(formatDurationMs(7_500_000)).toBe('2 h 5 min');
    expect(formatDurationMs(Number.NaN)).toBe('');
  });

  it('separates thousands', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1_234_567)).toBe('1,234,567');
    expect(formatCount(Number.NaN)).toBe('-');
  });

  it('shortens ids keeping their type and both ends', () => {
    expect(idType('Customer:019a4a19-19f8-7a6b-9e05-c3d18b7f2e40')).toBe('Customer');
    expect(idType('req-6f1d2c9a')).toBeUndefined();
    expect(shortId('Customer:019a4a19-19f8-7a6b-9e05-c3d18b7f2e40')).toBe('Customer:019a4a19…2e40');
    expect(shortId('Job:short')).toBe('Job:short');
    expect(shortId('019a4a18-2e07-7d5b-8c31-a6f0e4b29d7c')).toBe('019a4a18…9d7c');
  });

  it('turns an error answer into one line naming the code, the reason and every field', () => {
    expect(describeError(404, { status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Resource not found' }, 'x')).toBe('REFERENCE_NOT_FOUND: Resource not found');
    expect(
      describeError(
        400,
        { status: 400, code: 'INVALID_INPUT', message: 'Invalid request', details: { reason: 'SANDBOX_ONLY', errors: [{ field: 'q', message: 'q is required' }, { field: 'hours', message: 'hours must be 1..168' }] } },
        'x',
      ),
    ).toBe('INVALID_INPUT: Invalid request [SANDBOX_ONLY] (q: q is required; hours: hours must be 1..168)');
    expect(describeError(502, undefined, 'Bad gateway')).toBe('Bad gateway (HTTP 502)');
  });

  it('bounds progress to 0..100 and cuts long texts', () => {
    expect(progressPercent(0, 200)).toBe(0);
    expect(progressPercent(199, 200)).toBe(99);
    expect(progressPercent(250, 200)).toBe(100);
    expect(progressPercent(0, 0)).toBe(0);
    expect(progressPercent(3, 0)).toBe(100);
    expect(excerpt('HTTP 503', 40)).toBe('HTTP 503');
    expect(excerpt('x'.repeat(50), 10)).toBe(`${'x'.repeat(9)}…`);
    expect(excerpt(undefined)).toBe('');
  });
});
