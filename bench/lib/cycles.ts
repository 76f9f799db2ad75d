// A closed-loop load of multi-request cycles (autocannon drives one URL; a cycle whose later
// requests use ids from earlier answers needs its own loop): `workers` loops run `cycle` until
// the time is up, each passing its own index (so a worker can keep to its own account); answers
// cycles per second and per-cycle latency percentiles.
export interface CycleResult {
  cyclesPerSecond: number;
  latencyMs: { p50: number; p99: number; max: number };
  cycles: number;
  failures: number;
}

export async function runCycles(cycle: (worker: number) => Promise<boolean>, workers: number, seconds: number): Promise<CycleResult> {
  const latencies: number[] = [];
  let failures = 0;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        const ok = await cycle(worker).catch(() => false);
        if (ok) latencies.push(performance.now() - t0);
        else failures += 1;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0) * 10) / 10;
  return {
    cyclesPerSecond: Math.round(latencies.length / elapsed),
    latencyMs: { p50: at(0.5), p99: at(0.99), max: at(1) },
    cycles: latencies.length,
    failures,
  };
}
