/**
 * What an agent has spent in the current UTC day and month (the reference's AgentUsage), in minor
 * units of its spending limits' currency. The counters are folded from the agent's stream: the
 * actions that spend (issue 26, next step) add to them in the same decision that records the
 * action, so the limits hold under concurrency. A counter of a past day or month reads as zero.
 */
export interface AgentUsageCounters {
  /** `YYYY-MM-DD` (UTC) the daily counters belong to; null before the first spend. */
  day: string | null;
  dailySpend: number;
  dailyTransactionCount: number;
  /** `YYYY-MM` (UTC) the monthly counter belongs to; null before the first spend. */
  month: string | null;
  monthlySpend: number;
}

/** AgentUsage as answered. */
export interface AgentUsage {
  dailyTransactionCount: number;
  dailySpend: number;
  /** The UTC date the daily counters reset (tomorrow). */
  dailyResetDate: string;
  monthlySpend: number;
  /** The UTC year-month the monthly counter resets (next month). */
  monthlyResetMonth: string;
}

export function noUsage(): AgentUsageCounters {
  return { day: null, dailySpend: 0, dailyTransactionCount: 0, month: null, monthlySpend: 0 };
}

/** The counters as they stand at `now` (those of a past day or month are zero). */
export function currentUsage(counters: AgentUsageCounters, now: Date): AgentUsageCounters {
  const day = utcDay(now);
  const month = utcMonth(now);
  const sameDay = counters.day === day;
  const sameMonth = counters.month === month;
  return {
    day,
    dailySpend: sameDay ? counters.dailySpend : 0,
    dailyTransactionCount: sameDay ? counters.dailyTransactionCount : 0,
    month,
    monthlySpend: sameMonth ? counters.monthlySpend : 0,
  };
}

/** The counters with one more action of `amount` on `day`/`month` (counters of a past period restart). */
export function reserveUsage(counters: AgentUsageCounters, amount: number, now: Date): AgentUsageCounters {
  const current = currentUsage(counters, now);
  return {
    ...current,
    dailySpend: current.dailySpend + amount,
    dailyTransactionCount: current.dailyTransactionCount + 1,
    monthlySpend: current.monthlySpend + amount,
  };
}

/**
 * Gives back a rejected or failed action's reservation, in the periods it was made in: a period
 * that is over already reads as zero, so nothing is taken from the current one.
 */
export function releaseUsage(counters: AgentUsageCounters, reservation: { amount: number; day: string; month: string }): AgentUsageCounters {
  const sameDay = counters.day === reservation.day;
  const sameMonth = counters.month === reservation.month;
  return {
    ...counters,
    dailySpend: sameDay ? Math.max(0, counters.dailySpend - reservation.amount) : counters.dailySpend,
    dailyTransactionCount: sameDay ? Math.max(0, counters.dailyTransactionCount - 1) : counters.dailyTransactionCount,
    monthlySpend: sameMonth ? Math.max(0, counters.monthlySpend - reservation.amount) : counters.monthlySpend,
  };
}

export function usageAt(counters: AgentUsageCounters, now: Date): AgentUsage {
  const current = currentUsage(counters, now);
  const tomorrow = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return {
    dailyTransactionCount: current.dailyTransactionCount,
    dailySpend: current.dailySpend,
    dailyResetDate: utcDay(tomorrow),
    monthlySpend: current.monthlySpend,
    monthlyResetMonth: utcMonth(nextMonth),
  };
}

export function utcDay(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

export function utcMonth(instant: Date): string {
  return instant.toISOString().slice(0, 7);
}
