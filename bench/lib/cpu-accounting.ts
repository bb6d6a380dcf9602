import { readFileSync, readdirSync } from 'node:fs';

/**
 * CPU time spent by the processes of a benchmark (this one, Postgres with its backends, Redis,
 * the endpoint), from /proc. On a shared machine throughput depends on the neighbours; CPU per
 * operation does not, so the benchmarks report both.
 */
const CLOCK_TICKS_PER_SECOND = 100;

interface ProcStat {
  pid: number;
  parentPid: number;
  /** utime + stime, and cutime + cstime (children already reaped), in clock ticks. */
  ownTicks: number;
  reapedChildrenTicks: number;
}

function readStat(pid: number): ProcStat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may contain spaces: split after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return {
      pid,
      parentPid: Number(fields[1]),
      ownTicks: Number(fields[11]) + Number(fields[12]),
      reapedChildrenTicks: Number(fields[13]) + Number(fields[14]),
    };
  } catch {
    return null;
  }
}

function allStats(): ProcStat[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map((entry) => readStat(Number(entry)))
    .filter((stat): stat is ProcStat => stat !== null);
}

/** CPU milliseconds of a process tree (root, its reaped children, its live descendants). */
export function treeCpuMs(rootPid: number): number {
  const stats = allStats();
  const children = new Map<number, ProcStat[]>();
  for (const stat of stats) children.set(stat.parentPid, [...(children.get(stat.parentPid) ?? []), stat]);
  let ticks = 0;
  const visit = (stat: ProcStat | undefined) => {
    if (!stat) return;
    ticks += stat.ownTicks + stat.reapedChildrenTicks;
    for (const child of children.get(stat.pid) ?? []) visit(child);
  };
  visit(stats.find((stat) => stat.pid === rootPid));
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** This process's CPU milliseconds (user + system). */
export function ownCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

export type CpuSnapshot = Record<string, number>;

/** Samples named CPU counters; `since` gives the milliseconds each spent in between. */
export class CpuMeter {
  constructor(private readonly sources: Record<string, () => number>) {}

  snapshot(): CpuSnapshot {
    return Object.fromEntries(Object.entries(this.sources).map(([name, read]) => [name, read()]));
  }

  since(before: CpuSnapshot): CpuSnapshot {
    const now = this.snapshot();
    return Object.fromEntries(Object.keys(now).map((name) => [name, now[name] - before[name]]));
  }
}

/** `service 0.41, postgres 0.30, redis 0.12, endpoint 0.05 = 0.88 ms CPU per delivery`. */
export function describeCpuPerItem(spent: CpuSnapshot, items: number, unit: string): { text: string; totalMs: number } {
  const perItem = Object.entries(spent).map(([name, ms]) => [name, ms / items] as const);
  const totalMs = perItem.reduce((sum, [, ms]) => sum + ms, 0);
  const parts = perItem.map(([name, ms]) => `${name} ${ms.toFixed(2)}`).join(', ');
  return { text: `${parts} = ${totalMs.toFixed(2)} ms CPU per ${unit}`, totalMs };
}
