// Starting and stopping child processes, shared by the platform runner (scripts/platform.ts)
// and the benchmarks (bench/lib/load.ts). Only the child given is ever signalled.
import type { ChildProcess } from 'node:child_process';

/** Polls `GET {url}/health` until it answers 200; fails when the child exits or the time is up. */
export async function waitHealthy(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited with ${child.exitCode ?? child.signalCode}`);
    try {
      const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(1000) });
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`no healthy answer within ${timeoutMs} ms`);
}

/** SIGTERM, then SIGKILL after 5 s; resolves once the child has exited (at once if it has: by a code or a signal). */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * The Node flags every service process runs with (make up, make test, the cluster, the
 * benchmarks). `--no-memory-reducer`: V8's memory reducer runs garbage collections on a timer
 * for a while after activity stops, to hand memory back; at idle that was two thirds of the
 * platform's CPU (bench:idle: 340 -> 115 ms per minute). The heap then keeps its size after a
 * burst until the next regular collection: memory for CPU, the right trade for a server that
 * waits most of the time.
 * `--no-flush-bytecode`: V8 throws away the bytecode of functions not run for a while, and
 * compiles them again when they next run; at idle that is every function of the few requests
 * that still come (a held feed read every few minutes): the same request then cost several times
 * its CPU (perf: Compiler::Compile, LoadIC_NoFeedback). The bytecode of code that ran stays,
 * a few megabytes.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--no-memory-reducer', '--no-flush-bytecode'];

/**
 * The co-host's flags (`make up`, the test harness, the benchmarks' co-hosted runs): the services'
 * flags, and a young generation of at most 2 MB per semi-space instead of V8's 16 MB. Nine
 * services starting in one process grew it to its maximum, and without the memory reducer it
 * never shrank: 32 MB resident at rest for a few MB of live short-lived objects
 * (docs/decisions/0108-co-host-memory-at-rest.md).
 */
export const COHOST_NODE_FLAGS: readonly string[] = [...SERVICE_NODE_FLAGS, '--max-semi-space-size=2'];
