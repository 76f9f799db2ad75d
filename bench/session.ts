// `npm run bench:session`: the session cycle create + grant + read over HTTP, against the session
// service on the in-memory store, on PGlite in a folder and on a PostgreSQL server (embedded-
// postgres). Target: the durable cycle on PostgreSQL >= 50% of the in-memory one's cycles/s.
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPostgres } from '../test/helpers/postgres-server.js';
import { runCycles, type CycleResult } from './lib/cycles.js';
import { machine, startServer, writeResult } from './lib/load.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WORKERS = 16;
const headers = { 'content-type': 'application/json', 'X-API-Key': 'dev-session-tools-key' };

async function cycleAgainst(url: string): Promise<boolean> {
  const created = await fetch(`${url}/api/v1/sessions`, { method: 'POST', headers, body: JSON.stringify({ subjectId: randomUUID(), deviceRef: 'dev-bench' }) });
  const { sessionId } = (await created.json()) as { sessionId: string };
  const granted = await fetch(`${url}/api/v1/sessions/${sessionId}/grant`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      entitlementId: `ent-${randomUUID()}`,
      tier: 'BASIC',
      qosClass: 'STANDARD',
      validUntil: new Date(Date.now() + 3_600_000).toISOString(),
    }),
  });
  await granted.arrayBuffer();
  const read = await fetch(`${url}/api/v1/sessions/${sessionId}`, { headers });
  const body = (await read.json()) as { state: string };
  return created.status === 201 && granted.status === 200 && body.state === 'GRANTED';
}

async function measure(env: Record<string, string>, port: number): Promise<CycleResult> {
  const server = await startServer('services/session/main.ts', port, { ...env, LOG_LEVEL: 'warn' });
  try {
    await runCycles(() => cycleAgainst(server.url), WORKERS, 2);
    return await runCycles(() => cycleAgainst(server.url), WORKERS, SECONDS);
  } finally {
    await server.stop();
  }
}

const postgres = await startPostgres();
try {
  const memory = await measure({ DATABASE_URL: 'memory:' }, 3993);
  const pglite = await measure({ DATA_DIR: mkdtempSync(join(tmpdir(), 'wifi-bench-')) }, 3994);
  const server = await measure({ DATABASE_URL: await postgres.createDatabase() }, 3995);
  const ratio = server.cyclesPerSecond / memory.cyclesPerSecond;
  const result = {
    benchmark: 'session',
    at: new Date().toISOString(),
    machine: machine(),
    workers: WORKERS,
    seconds: SECONDS,
    cycle: 'POST /sessions, POST /grant, GET /sessions/{id}',
    memory,
    pglite,
    postgres: server,
    postgresToMemoryRatio: Math.round(ratio * 1000) / 1000,
    targets: { postgresToMemoryAtLeast: 0.5 },
    met: ratio >= 0.5 && server.failures === 0,
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n${writeResult('session', result)}\n`);
} finally {
  await postgres.stop();
}
