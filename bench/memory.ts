// `npm run bench:memory`: where the embedded default's memory goes. Every service runs as
// `make up` runs it (its own process from dist/ with SERVICE_NODE_FLAGS: bench/lib/load.ts), on
// bench ports, PGlite in folders of the bench's own, beside a Keycloak of its own (own port and run
// dir, fresh database). For each variant (a set of settings tried), read from /proc/<pid>/status
// (VmRSS) and, for our Node processes, the V8 heap from their /metrics (nodejs_heap_used_bytes):
// right after the first start (initdb runs inside each stateful process), at rest after a
// restart on the same folders, after N employee sign-ins through the portal (`-- --sign-ins N`
// or BENCH_SIGN_INS), and after an hour of accounting for BENCH_CONNECTIONS connections compressed
// in time: each connection signed in through FreeRADIUS (Access-Request, Accounting Start), then
// one Interim-Update per connection per Acct-Interim-Interval (300 s: twelve rounds), as fast as
// they are answered. Variants run the services one process each (the cluster's way) or co-hosted
// in one process (services/kit/cohost.ts, the embedded default's way).
// Targets: all our processes together at most 0.6x Keycloak's resident size at rest and 0.8x after
// the sign-ins; no process over 120 MB per service it hosts.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { samples } from '../test/helpers/prometheus.js';
import { randomUUID } from 'node:crypto';
import { deviceRefFor } from '../edge/index.js';
import { startPlatformRadius } from '../scripts/platform-radius.js';
import { GatewayConfig } from '../services/gateway/config.js';
import { freeUdpPort } from '../test/services/gateway/radclient.js';
import { benchKeycloak } from './lib/keycloak.js';
import { ROOT, machine, startCohost, startServer, writeResult, type ServerProcess } from './lib/load.js';
import { radiusClient, type Attributes } from './lib/radius-client.js';

const signInsArg = process.argv.indexOf('--sign-ins');
const SIGN_INS = Number(signInsArg > 0 ? process.argv[signInsArg + 1] : (process.env.BENCH_SIGN_INS ?? 1000));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 1000);
/** An hour at the gateway's Acct-Interim-Interval (ACCT_INTERIM_SECONDS, 300 s by default). */
const INTERIM_ROUNDS = 3600 / 300;
const WORKERS = 4;
const SETTLE_MS = Number(process.env.BENCH_MEMORY_SETTLE_SECONDS ?? 20) * 1000;
const KC_PORT = 8193;
const KC_RUN_DIR = join(ROOT, '.run/bench/kc-memory');
const IDP = `http://localhost:${KC_PORT}`;
const PORTS = { hr: 3981, entitlement: 3982, session: 3983, gateway: 3984, decision: 3985, loyalty: 3986, portal: 3980, mailcatcher: 3987, smscatcher: 3988 };
type Name = keyof typeof PORTS;
const url = (name: Name) => `http://127.0.0.1:${PORTS[name]}`;
const keycloak = benchKeycloak({ port: KC_PORT, runDir: KC_RUN_DIR, hrUrl: url('hr') });
const EMPLOYEE = { employeeId: 'C-3002', citizenId: '079203005678' };
const TARGET_REST_RATIO = 0.6;
const TARGET_LOADED_RATIO = 0.8;
const MB_PER_HOSTED_SERVICE = 120;

/**
 * The settings each variant runs the services with (env), the Node flags added to
 * SERVICE_NODE_FLAGS, and whether the services share one co-host process.
 */
const VARIANTS: Record<string, { env: Record<string, string>; nodeFlags: string; cohost: boolean }> = {
  'one process per service, shared_buffers 8MB (before)': { env: {}, nodeFlags: '', cohost: false },
  'co-hosted, one PGlite per service (default now)': { env: {}, nodeFlags: '', cohost: true },
  'co-hosted, --max-semi-space-size=1': { env: {}, nodeFlags: '--max-semi-space-size=1', cohost: true },
  'one process per service, shared_buffers 128MB (PostgreSQL default)': { env: { PGLITE_SHARED_BUFFERS: '128MB' }, nodeFlags: '', cohost: false },
};
const chosen = (process.env.BENCH_MEMORY_VARIANTS ?? '').split(',').filter(Boolean);
// By default the two that decide: before and now.
const variants = Object.entries(VARIANTS).filter(([name], index) =>
  chosen.length === 0 ? index < 2 : chosen.includes(String(index)) || chosen.includes(name),
);

/** The pid file names the launcher script; Java runs as its child: the tree's processes. */
function tree(pid: number): number[] {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(' ').filter(Boolean).map(Number);
  return [pid, ...children.flatMap(tree)];
}

/** Resident size of a process in MB, from /proc (what `ps` shows as RSS). */
function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return Math.round(kb / 1024);
}

async function heapMb(server: ServerProcess): Promise<number | undefined> {
  const answer = await fetch(`${server.url}/metrics`).catch(() => undefined);
  if (answer === undefined || answer.status !== 200) return undefined;
  const value = samples(await answer.text()).find((sample) => sample.name === 'nodejs_heap_used_bytes')?.value;
  return value === undefined ? undefined : Math.round(value / 2 ** 20);
}

interface Reading {
  processes: Record<string, { rssMb: number; heapMb?: number; services?: number }>;
  oursMb: number;
  keycloakMb: number;
  ratioToKeycloak: number;
  /** Processes over MB_PER_HOSTED_SERVICE per service they run. */
  overPerServiceLimit: string[];
}

async function read(servers: ServerProcess[]): Promise<Reading> {
  const processes: Reading['processes'] = {};
  for (const server of servers) {
    const heap = await heapMb(server);
    const services = hostedBy.get(server) ?? 1;
    processes[server.name] = {
      rssMb: rssMb(server.child.pid as number),
      ...(heap === undefined ? {} : { heapMb: heap }),
      ...(services > 1 ? { services } : {}),
    };
  }
  const keycloakMb = tree(keycloak.pid()).reduce((sum, pid) => sum + rssMb(pid), 0);
  const oursMb = Object.values(processes).reduce((sum, { rssMb }) => sum + rssMb, 0);
  const overLimit = Object.entries(processes)
    .filter(([, { rssMb, services }]) => rssMb > MB_PER_HOSTED_SERVICE * (services ?? 1))
    .map(([name]) => name);
  return {
    processes: { ...processes, keycloak: { rssMb: keycloakMb } },
    oursMb,
    keycloakMb,
    ratioToKeycloak: Math.round((oursMb / keycloakMb) * 100) / 100,
    overPerServiceLimit: overLimit,
  };
}
/** How many services each co-host process runs (absent: one). */
const hostedBy = new Map<ServerProcess, number>();

/** `count` employee sign-ins through the portal (token, entitlement, session create and grant, portal session), `WORKERS` at a time. */
async function signIns(count: number): Promise<{ ok: number; failed: Record<string, number> }> {
  let next = 0;
  let ok = 0;
  const failed: Record<string, number> = {};
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      while (next < count) {
        next += 1;
        const answer = await fetch(`${url('portal')}/api/v1/auth/employee`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: url('portal') },
          body: JSON.stringify(EMPLOYEE),
        }).catch(() => undefined);
        await answer?.arrayBuffer();
        if (answer?.status === 200) ok += 1;
        else {
          const reason = String(answer?.status ?? 'no answer');
          failed[reason] = (failed[reason] ?? 0) + 1;
        }
      }
    }),
  );
  return { ok, failed };
}

/** What each service is started with beyond the common settings: wired to each other and to this bench's Keycloak. */
function extraEnv(): Record<Name, Record<string, string>> {
  return {
    hr: { HR_GLOBAL_LIMIT: '100000000' },
    decision: {},
    loyalty: { LOYALTY_GLOBAL_LIMIT: '100000000' },
    mailcatcher: { MAIL_SMTP_PORT: '0' },
    smscatcher: {},
    session: {},
    entitlement: {
      IDP_ISSUER: `${IDP}/realms/wifi`,
      IDP_JWKS_URL: `${IDP}/realms/wifi/protocol/openid-connect/certs`,
      DECISION_URL: url('decision'),
      LOYALTY_URL: url('loyalty'),
    },
    gateway: { SESSION_URL: url('session') },
    portal: {
      IDP_URL: IDP,
      ENTITLEMENT_URL: url('entitlement'),
      SESSION_URL: url('session'),
      GATEWAY_URL: url('gateway'),
      PORTAL_PUBLIC_URL: url('portal'),
      PORTAL_EMPLOYEE_ADDRESS_LIMIT: '1000000',
    },
  };
}

/** Every service co-hosted in one process, as `make up` runs them. */
async function startCohosted(dataDir: string, env: Record<string, string>): Promise<ServerProcess[]> {
  const merged = Object.assign({ LOG_LEVEL: 'warn', DATA_DIR: dataDir, ...env }, ...Object.values(extraEnv())) as Record<string, string>;
  const host = await startCohost(PORTS, merged);
  hostedBy.set(host, Object.keys(PORTS).length);
  return [host];
}

/** Every service in its own process, as the cluster runs them. */
async function startAll(dataDir: string, env: Record<string, string>): Promise<ServerProcess[]> {
  const common = { LOG_LEVEL: 'warn', DATA_DIR: dataDir, ...env };
  const extra = extraEnv();
  const started: ServerProcess[] = [];
  const start = async (name: Name) => {
    started.push(await startServer(`services/${name}/main.ts`, PORTS[name], { ...common, ...extra[name] }, 300_000));
  };
  try {
    // The stateless ones together, then the four stateful ones one at a time: four first starts
    // (initdb each) at once did not finish in two minutes on a loaded 2-core machine.
    const together = await Promise.allSettled([start('hr'), start('decision'), start('loyalty'), start('mailcatcher'), start('smscatcher')]);
    // Every one settled first, so none still starting is left running when another failed.
    const failed = together.find((outcome) => outcome.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    for (const name of ['session', 'entitlement', 'gateway', 'portal'] as const) await start(name);
  } catch (error) {
    await Promise.all(started.map((server) => server.stop()));
    throw error;
  }
  return started;
}

const sessionHeaders = { 'content-type': 'application/json', 'X-API-Key': 'dev-session-tools-key' };
const gatewayHeaders = { 'content-type': 'application/json', 'X-API-Key': 'dev-gateway-tools-key' };
const mac = (i: number) => `02-00-00-01-${(i >> 8).toString(16).padStart(2, '0')}-${(i & 255).toString(16).padStart(2, '0')}`;

async function posted(target: string, headers: Record<string, string>, body?: unknown): Promise<Record<string, unknown>> {
  const answer = await fetch(target, { method: 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const parsed = (await answer.json()) as Record<string, unknown>;
  if (!answer.ok) throw new Error(`${target}: ${answer.status} ${JSON.stringify(parsed)}`);
  return parsed;
}

/**
 * An hour of accounting for `connections` connections, compressed: FreeRADIUS in front of the
 * gateway (as `make up` runs it, fixtures/gateways.json's demo NAS), each connection a granted
 * session with a one-time credential, accepted (Access-Request) and started (Accounting Start),
 * then INTERIM_ROUNDS Interim-Updates each, WORKERS sockets at a time.
 */
async function interimHour(connections: number, runDir: string): Promise<{ connections: number; interimUpdates: number; accepted: number; seconds: number }> {
  const [authPort, acctPort] = [await freeUdpPort(), await freeUdpPort()];
  const radius = await startPlatformRadius(
    { ...process.env, RADIUS_AUTH_PORT: String(authPort), RADIUS_ACCT_PORT: String(acctPort), GATEWAY_URL: url('gateway') },
    runDir,
    `${runDir}.log`,
  );
  const started = performance.now();
  try {
    const { nasId, secret } = radius.demo;
    const deviceKey = GatewayConfig.parse({}).DEVICE_REF_KEY;
    const indices = Array.from({ length: connections }, (_, i) => i);
    const perWorker = Math.ceil(connections / WORKERS);
    const lanes = Array.from({ length: WORKERS }, (_, w) => indices.slice(w * perWorker, (w + 1) * perWorker));
    const credentials = new Map<number, { sessionId: string; username: string }>();
    let accepted = 0;
    await Promise.all(
      lanes.map(async (lane) => {
        const auth = radiusClient(authPort, secret);
        const acct = radiusClient(acctPort, secret);
        for (const i of lane) {
          const deviceRef = deviceRefFor(deviceKey, nasId, mac(i)) as string;
          const sessionId = String((await posted(`${url('session')}/api/v1/sessions`, sessionHeaders, { subjectId: randomUUID(), deviceRef }))['sessionId']);
          await posted(`${url('session')}/api/v1/sessions/${sessionId}/grant`, sessionHeaders, {
            entitlementId: `ent-${randomUUID()}`,
            tier: 'BASIC',
            qosClass: 'STANDARD',
            validUntil: new Date(Date.now() + 7_200_000).toISOString(),
            deviceSlots: 4,
          });
          const { username, password } = (await posted(`${url('gateway')}/api/v1/credentials`, gatewayHeaders, { sessionId, deviceRef, nasId })) as {
            username: string;
            password: string;
          };
          const answer = await auth.send('Access-Request', [
            ['User-Name', username],
            ['User-Password', password],
            ['Calling-Station-Id', mac(i)],
          ]);
          if (answer === 'Access-Accept') accepted += 1;
          await acct.send('Accounting-Request', accountingPacket('Start', username, sessionId, i, 0));
          credentials.set(i, { sessionId, username });
        }
        auth.close();
        acct.close();
      }),
    );
    for (let round = 1; round <= INTERIM_ROUNDS; round += 1) {
      await Promise.all(
        lanes.map(async (lane) => {
          const acct = radiusClient(acctPort, secret);
          for (const i of lane) {
            const { sessionId, username } = credentials.get(i) as { sessionId: string; username: string };
            await acct.send('Accounting-Request', accountingPacket('Interim-Update', username, sessionId, i, round * 300));
          }
          acct.close();
        }),
      );
    }
    return { connections, interimUpdates: connections * INTERIM_ROUNDS, accepted, seconds: Math.round((performance.now() - started) / 1000) };
  } finally {
    await radius.stop();
  }
}

function accountingPacket(status: string, username: string, sessionId: string, i: number, sessionTime: number): Attributes {
  return [
    ['User-Name', username],
    ['Acct-Status-Type', status],
    ['Acct-Session-Id', `bench-memory-${i}`],
    ['Class', Buffer.from(sessionId)],
    ['Calling-Station-Id', mac(i)],
    ['Acct-Session-Time', sessionTime],
    ['Acct-Input-Octets', sessionTime * 1000],
    ['Acct-Output-Octets', sessionTime * 5000],
  ];
}

const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
const results: Record<string, unknown> = {};
let servers: ServerProcess[] = [];
const tmp = mkdtempSync(join(tmpdir(), 'wifi-bench-memory-'));
try {
  keycloak.kc('build');
  keycloak.kc('start', '--fresh');
  await keycloak.liftEmployeeLimits();
  for (const [name, variant] of variants) {
    process.env.BENCH_NODE_FLAGS = variant.nodeFlags;
    const dataDir = join(tmp, name.replace(/[^A-Za-z0-9]+/g, '-'));
    const start = variant.cohost ? startCohosted : startAll;
    servers = await start(dataDir, variant.env);
    await settle();
    const firstStart = await read(servers);
    await Promise.all(servers.map((server) => server.stop()));
    servers = await start(dataDir, variant.env);
    await settle();
    const atRest = await read(servers);
    const done = await signIns(SIGN_INS);
    await settle();
    const afterSignIns = await read(servers);
    const hour = await interimHour(CONNECTIONS, join(dataDir, 'freeradius'));
    await settle();
    const afterInterimHour = await read(servers);
    results[name] = {
      firstStart,
      atRest,
      afterSignIns: { signIns: done.ok, failed: done.failed, ...afterSignIns },
      afterInterimHour: { ...hour, ...afterInterimHour },
    };
    process.stdout.write(
      `${name}: at rest ours ${atRest.oursMb} MB, Keycloak ${atRest.keycloakMb} MB (${atRest.ratioToKeycloak}x); after ${done.ok} sign-ins ${afterSignIns.oursMb} MB (${afterSignIns.ratioToKeycloak}x); after the interim hour ${afterInterimHour.oursMb} MB (${afterInterimHour.ratioToKeycloak}x)\n`,
    );
    await Promise.all(servers.splice(0).map((server) => server.stop()));
  }
  const result = {
    machine: machine(),
    method: `every service from dist/ with SERVICE_NODE_FLAGS (the co-host with COHOST_NODE_FLAGS) on PGlite in the bench's own folders (one process each, or co-hosted in one), beside a fresh Keycloak of the bench's own; RSS from /proc/<pid>/status, heap from nodejs_heap_used_bytes; readings ${SETTLE_MS / 1000} s after the first start, after a restart on the same folders (at rest), after ${SIGN_INS} employee sign-ins through the portal (${WORKERS} at a time), and after an hour of accounting compressed (${CONNECTIONS} connections through FreeRADIUS, ${INTERIM_ROUNDS} Interim-Updates each). FreeRADIUS (about 90 MB, the same whatever our settings) is started only for the accounting hour and not counted.`,
    variants: results,
    targets: {
      oursAtRestToKeycloakAtMost: TARGET_REST_RATIO,
      oursAfterSignInsToKeycloakAtMost: TARGET_LOADED_RATIO,
      mbPerHostedServiceAtMost: MB_PER_HOSTED_SERVICE,
    },
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n${writeResult('memory', result)}\n`);
} finally {
  await Promise.all(servers.map((server) => server.stop()));
  keycloak.kc('stop');
  rmSync(tmp, { recursive: true, force: true });
}
