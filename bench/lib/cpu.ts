// CPU time a process spent, read from the operating system (/proc/<pid>/stat), so a benchmark
// can say how many CPU milliseconds one operation costs in each process, whatever else the
// machine is doing. A process tree counts whole: its live descendants, and (cutime/cstime)
// the children it has already reaped — PostgreSQL's backends, Keycloak's re-augmentation.
import { readdirSync, readFileSync } from 'node:fs';

// USER_HZ is 100 on every Linux the platform targets (`getconf CLK_TCK`); /proc reports ticks.
const TICKS_PER_SECOND = 100;

interface Stat {
  ppid: number;
  ownTicks: number;
  reapedTicks: number;
}

function stat(pid: number): Stat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may contain spaces: fields start after ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const field = (n: number) => Number(fields[n - 3]);
  return { ppid: field(4), ownTicks: field(14) + field(15), reapedTicks: field(16) + field(17) };
}

/** CPU milliseconds of `pid` and every process below it, so far. */
export function treeCpuMs(pid: number): number {
  const all = new Map<number, Stat>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const found = stat(Number(entry));
    if (found !== undefined) all.set(Number(entry), found);
  }
  const root = all.get(pid);
  if (root === undefined) return 0;
  let ticks = root.ownTicks + root.reapedTicks;
  const below = [pid];
  while (below.length > 0) {
    const parent = below.pop() as number;
    for (const [child, found] of all) {
      if (found.ppid !== parent) continue;
      ticks += found.ownTicks + found.reapedTicks;
      below.push(child);
    }
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** CPU milliseconds per operation of each named process tree over `run` (which answers how many operations it did). */
export async function cpuPerOperation(pids: Record<string, number>, run: () => Promise<number>): Promise<{ operations: number; cpuMsPerOperation: Record<string, number> }> {
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, treeCpuMs(pid)]));
  const operations = await run();
  const cpuMsPerOperation: Record<string, number> = {};
  for (const [name, pid] of Object.entries(pids)) {
    cpuMsPerOperation[name] = operations === 0 ? 0 : Math.round(((treeCpuMs(pid) - (before[name] as number)) / operations) * 100) / 100;
  }
  return { operations, cpuMsPerOperation };
}

/** Snapshots of named process trees; `perOperation` divides what each used since by `operations`, with their total. */
export function cpuMeter(pids: Record<string, number>) {
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, treeCpuMs(pid)]));
  return {
    perOperation(operations: number): Record<string, number> & { total: number } {
      const used = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, Math.round(((treeCpuMs(pid) - (before[name] ?? 0)) / operations) * 1000) / 1000]));
      return { ...used, total: Math.round(Object.values(used).reduce((a, b) => a + b, 0) * 1000) / 1000 };
    },
  };
}
