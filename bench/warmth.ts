// `npm run bench:warmth`: what a request costs after its process sat idle. At
// concurrency 1, and at the 20-50 sign-ins/s this machine reaches, every service waits a few
// milliseconds to tens of milliseconds between two requests; the work it then does is measured
// here against the same work back to back:
// - the session service as `make up` runs it (PGlite in a folder of the bench's own), create and
//   grant over HTTP: CPU of its process from /proc and the time the client waits; beside it its
//   bare twin of `npm run bench:overhead` (Express and the same statements, nothing of the kit);
// - the same two statements on the session store inside this process (no HTTP): CPU and time;
// - a plain JavaScript job of similar length (JSON out and back in), as the baseline.
// Each is measured back to back and after an idle gap of 1, 5, 20 and 50 ms before each round.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openDatabase } from '../services/kit/store/index.js';
import { MIGRATIONS } from '../services/session/app.js';
import { SessionConfig } from '../services/session/config.js';
import { createSessionStore } from '../services/session/session-store.js';
import { cpuMeter } from './lib/cpu.js';
import { machine, startServer, writeResult } from './lib/load.js';

const GAPS_MS = [0, 1, 5, 20, 50];
const ROUNDS = Number(process.env.BENCH_WARMTH_ROUNDS ?? 400);
const WARM_ROUNDS = 300;
const PORTS = { service: 3953, twin: 3954 };
const tmp = mkdtempSync(join(tmpdir(), 'wifi-bench-warmth-'));
const round2 = (value: number) => Math.round(value * 100) / 100;

/** Mean milliseconds per round of `round` (CPU of this process and wall time), with `gapMs` idle before each. */
async function timed(round: () => Promise<void>, gapMs: number): Promise<{ cpuMs: number; wallMs: number }> {
  let cpu = 0;
  let wall = 0;
  for (let i = 0; i < ROUNDS; i += 1) {
    if (gapMs > 0) await sleep(gapMs);
    const cpu0 = process.cpuUsage();
    const wall0 = performance.now();
    await round();
    wall += performance.now() - wall0;
    const used = process.cpuUsage(cpu0);
    cpu += (used.user + used.system) / 1000;
  }
  return { cpuMs: round2(cpu / ROUNDS), wallMs: round2(wall / ROUNDS) };
}

const grantBody = () => ({
  entitlementId: `ent-${randomUUID()}`,
  entitlementType: 'CUSTOMER',
  tier: 'BASIC',
  qosClass: 'STANDARD',
  validUntil: new Date(Date.now() + 3_600_000).toISOString(),
  deviceSlots: 3,
});
const subjects = Array.from({ length: 500 }, () => randomUUID());
let next = 0;

// A plain JavaScript job: a 200-item list to JSON and back, 8 times (about the length of a warm create + grant).
const items = Array.from({ length: 200 }, (_, i) => ({ id: i, name: `item-${i}`, values: [i, i * 2, { text: String(i) }] }));
async function javascript(): Promise<void> {
  let total = 0;
  for (let k = 0; k < 8; k += 1) total += (JSON.parse(JSON.stringify(items)) as unknown[]).length;
  if (total === 0) throw new Error('unreachable');
}

const db = await openDatabase('session', SessionConfig.parse({ DATA_DIR: join(tmp, 'in-process') }), MIGRATIONS);
const store = createSessionStore(db);
async function statements(): Promise<void> {
  const created = await store.create(
    { subjectId: subjects[(next += 1) % subjects.length] as string, deviceRef: null, idempotencyKey: `warmth-${randomUUID()}` },
    'corr-bench',
  );
  if (created.kind !== 'created') throw new Error(`create answered ${created.kind}`);
  const body = grantBody();
  const granted = await store.grant(created.session.sessionId, { ...body, validUntil: new Date(body.validUntil) }, 'corr-bench');
  if (granted.kind !== 'granted') throw new Error(`grant answered ${granted.kind}`);
}

const server = await startServer('services/session/main.ts', PORTS.service, { DATA_DIR: join(tmp, 'service') }, 120_000);
const twin = await startServer('bench/servers/twins.ts', PORTS.twin, { TWIN: 'session', DATA_DIR: join(tmp, 'twin') }, 120_000);
const headers = { 'content-type': 'application/json', 'X-API-Key': 'dev-session-portal-key' };
async function overHttp(port: number): Promise<void> {
  const base = `http://127.0.0.1:${port}/api/v1/sessions`;
  const created = await fetch(base, {
    method: 'POST',
    headers: { ...headers, 'Idempotency-Key': `warmth-${randomUUID()}` },
    body: JSON.stringify({ subjectId: subjects[(next += 1) % subjects.length], deviceRef: null }),
  });
  const { sessionId } = (await created.json()) as { sessionId: string };
  const granted = await fetch(`${base}/${sessionId}/grant`, { method: 'POST', headers, body: JSON.stringify(grantBody()) });
  await granted.arrayBuffer();
  if (created.status !== 201 || granted.status !== 200) throw new Error(`create ${created.status}, grant ${granted.status}`);
}

try {
  const rows: Record<string, unknown>[] = [];
  for (let i = 0; i < WARM_ROUNDS; i += 1) {
    await javascript();
    await statements();
    await overHttp(PORTS.service);
    await overHttp(PORTS.twin);
  }
  /** CPU of the server's process per round (from /proc, in 10 ms ticks: 0.03 ms over 400 rounds) and the client's wait. */
  const measured = async (target: typeof server, port: number, gapMs: number) => {
    const meter = cpuMeter({ server: target.child.pid as number });
    const { wallMs } = await timed(() => overHttp(port), gapMs);
    return { serverCpuMs: round2(meter.perOperation(ROUNDS).server as number), clientWaitMs: wallMs };
  };
  for (const gapMs of GAPS_MS) {
    rows.push({
      idleGapMs: gapMs,
      sessionServiceCreateAndGrant: await measured(server, PORTS.service, gapMs),
      bareTwinCreateAndGrant: await measured(twin, PORTS.twin, gapMs),
      storeCreateAndGrantInProcess: await timed(statements, gapMs),
      plainJavaScript: await timed(javascript, gapMs),
    });
  }
  const result = {
    benchmark: 'warmth',
    at: new Date().toISOString(),
    machine: machine(),
    rounds: ROUNDS,
    method:
      'each figure a mean per round; an idle gap before every round; the session service compiled, as make up runs it (LOG_LEVEL info), and its bare twin (bench/servers/twins.ts), each on PGlite in a folder; CPU from /proc for the service, process.cpuUsage in process',
    rows,
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n${writeResult('warmth', result)}\n`);
} finally {
  await server.stop();
  await twin.stop();
  await db.close();
  rmSync(tmp, { recursive: true, force: true });
}
