// Shared benchmark plumbing: run a server in its own process (so the load generator does not
// steal its event loop), drive it with autocannon, write results as JSON.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { COHOST_NODE_FLAGS, SERVICE_NODE_FLAGS, stopChild, waitHealthy } from '../../scripts/child-process.js';

export const ROOT = new URL('../..', import.meta.url).pathname;

export interface ServerProcess {
  /** The service's folder name (services/<name>/main.ts), or the entry file. */
  name: string;
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

let built = false;
/**
 * A service is measured as `make up` runs it: compiled (dist/, built here once per run,
 * a few seconds) and with SERVICE_NODE_FLAGS. Other entries (the bare comparison servers) run
 * from source with the same flags.
 */
export function commandFor(entry: string): string[] {
  if (!/^services\/[^/]+\/(main|cohost)\.ts$/.test(entry)) return [...SERVICE_NODE_FLAGS, '--import', 'tsx', join(ROOT, entry)];
  if (!built) {
    execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'tsconfig.build.json')], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    built = true;
  }
  return [...(entry.endsWith('cohost.ts') ? COHOST_NODE_FLAGS : SERVICE_NODE_FLAGS), join(ROOT, 'dist', entry.replace(/\.ts$/, '.js'))];
}

/**
 * Starts a server process (`commandFor`) with env, waits for `GET /health` 200 (for `readyWithinMs`;
 * a first PGlite start runs initdb in WebAssembly, which takes longer on a busy machine).
 */
export async function startServer(
  entry: string,
  port: number,
  env: Record<string, string> = {},
  readyWithinMs = 20_000,
  args: string[] = [],
): Promise<ServerProcess> {
  const url = `http://127.0.0.1:${port}`;
  // Something already answering there would pass for the new server (which then fails to bind).
  if (
    await fetch(`${url}/health`).then(
      () => true,
      () => false,
    )
  )
    throw new Error(`port ${port} is already in use; ${entry} not started`);
  // BENCH_PROFILE_DIR=<dir>: each server writes a V8 CPU profile there when it stops.
  const profile = [
    ...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean),
    ...(process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : []),
  ];
  const name = /services\/([^/]+)\/main\.ts$/.exec(entry)?.[1] ?? entry;
  // BENCH_LOG_DIR=<dir>: each server's output goes to <dir>/<name>.log (appended), at
  // BENCH_LOG_LEVEL when given (else the level the benchmark asks for), to see why a request failed.
  const logDir = process.env.BENCH_LOG_DIR;
  const logLevel = process.env.BENCH_LOG_LEVEL === undefined ? {} : { LOG_LEVEL: process.env.BENCH_LOG_LEVEL };
  let output: 'ignore' | number = 'ignore';
  if (logDir !== undefined) {
    mkdirSync(logDir, { recursive: true });
    output = openSync(join(logDir, `${name.replace(/[^A-Za-z0-9.-]/g, '_')}.log`), 'a');
  }
  const child = spawn(process.execPath, [...profile, ...commandFor(entry), ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', ...env, ...logLevel, PORT: String(port) },
    stdio: ['ignore', output, output],
  });
  if (typeof output === 'number') closeSync(output);
  await waitHealthy(url, child, readyWithinMs).catch((error: Error) => {
    child.kill('SIGTERM');
    throw new Error(`${entry}: ${error.message}`);
  });
  return { name, url, child, stop: () => stopChild(child) };
}

/**
 * Services co-hosted in one process, as `make up` runs them (services/kit/cohost.ts): the settings
 * of all in one environment (each reads only its own names), each service on its own port, named
 * on the command line. Ready when every port answers `GET /health`.
 */
export async function startCohost(ports: Record<string, number>, env: Record<string, string>, readyWithinMs = 600_000): Promise<ServerProcess> {
  const names = Object.keys(ports);
  const host = await startServer(
    'services/kit/cohost.ts',
    ports[names[0] as string] as number,
    env,
    readyWithinMs,
    names.map((name) => `${name}:${ports[name]}`),
  );
  try {
    for (const name of names) await waitHealthy(`http://127.0.0.1:${ports[name]}`, host.child, readyWithinMs);
  } catch (error) {
    await host.stop();
    throw error;
  }
  return { ...host, name: 'cohost' };
}

export interface LoadResult {
  requestsPerSecond: number;
  latencyMs: { p50: number; p99: number; max: number };
  requests: number;
  non2xx: number;
  errors: number;
}

export interface LoadOptions {
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
  connections?: number;
  seconds?: number;
}

/** One autocannon run (POST with a JSON body when given). */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    method: options.body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...options.headers },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    connections: options.connections ?? 32,
    duration: options.seconds ?? 10,
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** A short run whose figures are thrown away, so the JIT and connection pools are warm. */
export async function warm(options: LoadOptions): Promise<void> {
  await load({ ...options, seconds: 2 });
}

/**
 * Runs the two loads alternately for `rounds` rounds and keeps each one's best round, so a
 * burst of unrelated load on a shared machine does not bias the comparison to one side.
 */
export async function compare(a: LoadOptions, b: LoadOptions, rounds = 3): Promise<[LoadResult, LoadResult]> {
  const best = (x: LoadResult | undefined, y: LoadResult) => (x === undefined || y.requestsPerSecond > x.requestsPerSecond ? y : x);
  let bestA: LoadResult | undefined;
  let bestB: LoadResult | undefined;
  for (let round = 0; round < rounds; round += 1) {
    bestA = best(bestA, await load(a));
    bestB = best(bestB, await load(b));
  }
  return [bestA as LoadResult, bestB as LoadResult];
}

export function writeResult(name: string, result: unknown): string {
  const dir = join(ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.json`);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  return file;
}

export function machine() {
  return { node: process.version, platform: `${process.platform}-${process.arch}`, cpus: cpus().length, memoryGiB: Math.round(totalmem() / 2 ** 30) };
}

/** The q-quantile of `values` (nearest rank), to two decimals. */
export const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0) * 100) / 100;
};

/** POSTs `body` as JSON (or nothing) and answers the JSON reply; a status other than 2xx throws, naming it. */
/** p50 and p95 of millisecond timings in whole milliseconds, and how many there were. */
export const msSummary = (values: number[]) => ({ p50: Math.round(quantile(values, 0.5)), p95: Math.round(quantile(values, 0.95)), runs: values.length });

export async function json(url: string, headers: Record<string, string>, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, { method: 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const answer = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}
