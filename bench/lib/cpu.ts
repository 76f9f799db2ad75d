// CPU time of processes as the OS counts it (/proc/<pid>/stat utime + stime, every thread),
// so a benchmark on a shared machine reports cost per operation, which other load cannot skew
// the way it skews wall-clock throughput.
import { readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux (getconf CLK_TCK)

/** User + system CPU milliseconds the process has used so far. */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** Snapshots of named processes; `perOperation` divides what each used since by `operations`. */
export function cpuMeter(pids: Record<string, number>) {
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMs(pid)]));
  return {
    perOperation(operations: number): Record<string, number> & { total: number } {
      const used = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, Math.round(((cpuMs(pid) - (before[name] ?? 0)) / operations) * 1000) / 1000]));
      return { ...used, total: Math.round(Object.values(used).reduce((a, b) => a + b, 0) * 1000) / 1000 };
    },
  };
}
