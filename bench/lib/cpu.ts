// CPU time a process spent, read from the operating system (/proc/<pid>/stat), so a benchmark
// can say how many CPU milliseconds one operation costs in each process, whatever else the
// machine is doing. A process tree counts whole: its live descendants, and (cutime/cstime)
// the children it has already reaped — PostgreSQL's backends, Keycloak's re-augmentation.
import { readdirSync, readFileSync } from 'node:fs';

// USER_HZ is 100 on every Linux the platform targets (`getconf CLK_TCK`); /proc reports ticks.
const TICKS_PER_SECOND = 100;

interface Stat {
  ppid: number;
  /** Ticks in user mode and in the kernel, the process's own and its reaped children's. */
  user: number;
  system: number;
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
  return { ppid: field(4), user: field(14) + field(16), system: field(15) + field(17) };
}

/** CPU milliseconds of `pid` and every process below it so far, in user mode and in the kernel. */
export function treeCpu(pid: number): { user: number; system: number } {
  const all = new Map<number, Stat>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const found = stat(Number(entry));
    if (found !== undefined) all.set(Number(entry), found);
  }
  const root = all.get(pid);
  if (root === undefined) return { user: 0, system: 0 };
  let user = root.user;
  let system = root.system;
  const below = [pid];
  while (below.length > 0) {
    const parent = below.pop() as number;
    for (const [child, found] of all) {
      if (found.ppid !== parent) continue;
      user += found.user;
      system += found.system;
      below.push(child);
    }
  }
  return { user: (user * 1000) / TICKS_PER_SECOND, system: (system * 1000) / TICKS_PER_SECOND };
}

/** CPU milliseconds per operation of each named process tree over `run` (which answers how many operations it did). */
export async function cpuPerOperation(
  pids: Record<string, number>,
  run: () => Promise<number>,
): Promise<{ operations: number; cpuMsPerOperation: Record<string, number>; kernelMsPerOperation: Record<string, number> }> {
  const meter = cpuMeter(pids);
  const operations = await run();
  const { total: _total, ...cpuMsPerOperation } = meter.perOperation(operations);
  return { operations, cpuMsPerOperation, kernelMsPerOperation: meter.kernelPerOperation(operations) };
}

/**
 * Snapshots of named process trees: `perOperation` divides what each used since by `operations`,
 * with their total; `kernelPerOperation` the kernel's part of it (system time).
 */
export function cpuMeter(pids: Record<string, number>) {
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, treeCpu(pid)]));
  const per = (operations: number, used: (now: { user: number; system: number }, then: { user: number; system: number }) => number) =>
    Object.fromEntries(
      Object.entries(pids).map(([name, pid]) => {
        const then = before[name] ?? { user: 0, system: 0 };
        return [name, operations === 0 ? 0 : Math.round((used(treeCpu(pid), then) / operations) * 1000) / 1000];
      }),
    );
  return {
    perOperation(operations: number): Record<string, number> & { total: number } {
      const used = per(operations, (now, then) => now.user + now.system - then.user - then.system);
      return { ...used, total: Math.round(Object.values(used).reduce((a, b) => a + b, 0) * 1000) / 1000 };
    },
    kernelPerOperation: (operations: number): Record<string, number> => per(operations, (now, then) => now.system - then.system),
  };
}
