import { noUsage, usageAt } from './usage';

describe('agent usage', () => {
  it('zeros, resetting tomorrow and next month (UTC)', () => {
    expect(usageAt(noUsage(), new Date('2025-12-31T23:59:59.000Z'))).toEqual({
      dailyTransactionCount: 0, dailySpend: 0, dailyResetDate: '2026-01-01', monthlySpend: 0, monthlyResetMonth: '2026-01',
    });
  });

  it('counters of a past day read as zero, of the same month still count', () => {
    const counters = { day: '2025-07-21', dailySpend: 150_000, dailyTransactionCount: 3, month: '2025-07', monthlySpend: 750_000 };
    expect(usageAt(counters, new Date('2025-07-21T10:00:00.000Z'))).toMatchObject({ dailySpend: 150_000, dailyTransactionCount: 3, monthlySpend: 750_000 });
    expect(usageAt(counters, new Date('2025-07-22T10:00:00.000Z'))).toMatchObject({ dailySpend: 0, dailyTransactionCount: 0, monthlySpend: 750_000 });
  });
});
