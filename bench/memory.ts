// `npm run bench:memory`: where the embedded default's memory goes. Every service runs as
// `make up` runs it (its own process from dist/ with SERVICE_NODE_FLAGS: bench/lib/load.ts), on
// bench ports, PGlite in folders of the bench's own, beside a Keycloak of its own (own port and run
// dir, fresh database). For each variant (a set of settings tried), read from /proc/<pid>/status
// (VmRSS) and, for our Node processes, the V8 heap from their /metrics (nodejs_heap_used_bytes):
// right after the first start (initdb runs inside each stateful process), at rest after a
// restart on the same folders, and after BENCH_SIGN_INS employee sign-ins through the portal.
// Target: all our processes together at most 0.6x Keycloak's resident size at rest.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { samples } from '../test/helpers/prometheus.js';
import { ROOT, machine, startServer, writeResult, type ServerProcess } from './lib/load.js';

const SIGN_INS = Number(process.env.BENCH_SIGN_INS ?? 1000);
const WORKERS = 4;
const SETTLE_MS = Number(process.env.BENCH_MEMORY_SETTLE_SECONDS ?? 20) * 1000;
const KC_PORT = 8193;
const KC_RUN_DIR = join(ROOT, '.run/bench/kc-memory');
const IDP = `http://localhost:${KC_PORT}`;
const PORTS = { hr: 3981, entitlement: 3982, session: 3983, gateway: 3984, decision: 3985, loyalty: 3986, portal: 3980, mailcatcher: 3987 };
type Name = keyof typeof PORTS;
const url = (name: Name) => `http://127.0.0.1:${PORTS[name]}`;
const EMPLOYEE = { employeeId: 'C-3002', citizenId: '079203005678' };
const EMPLOYEE_FLOW = 'employee direct grant';
const TARGET_REST_RATIO = 0.6;

/** The settings each variant runs the services with (env) and the Node flags added to SERVICE_NODE_FLAGS. */
const VARIANTS: Record<string, { env: Record<string, string>; nodeFlags: string }> = {
  'shared_buffers 128MB (PostgreSQL default, before)': { env: { PGLITE_SHARED_BUFFERS: '128MB' }, nodeFlags: '' },
  'shared_buffers 8MB (default now)': { env: {}, nodeFlags: '' },
  'shared_buffers 8MB, --max-semi-space-size=1': { env: {}, nodeFlags: '--max-semi-space-size=1' },
};
const chosen = (process.env.BENCH_MEMORY_VARIANTS ?? '').split(',').filter(Boolean);
const variants = Object.entries(VARIANTS).filter(([name], index) => chosen.length === 0 || chosen.includes(String(index)) || chosen.includes(name));

function kc(...args: string[]): void {
  const run = spawnSync(join(ROOT, 'scripts/kc.sh'), args, {
    cwd: ROOT,
    env: { ...process.env, KC_PORT: String(KC_PORT), KC_MGMT_PORT: String(KC_PORT + 1000), KC_RUN_DIR, HR_URL: url('hr') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (run.status !== 0) throw new Error(`scripts/kc.sh ${args.join(' ')} failed (${run.status})`);
}
const keycloakPid = () => Number(readFileSync(`${KC_RUN_DIR}.pid`, 'utf8').trim());
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
  processes: Record<string, { rssMb: number; heapMb?: number }>;
  oursMb: number;
  keycloakMb: number;
  ratioToKeycloak: number;
}

async function read(servers: ServerProcess[]): Promise<Reading> {
  const processes: Reading['processes'] = {};
  for (const server of servers) {
    const heap = await heapMb(server);
    processes[server.name] = { rssMb: rssMb(server.child.pid as number), ...(heap === undefined ? {} : { heapMb: heap }) };
  }
  const keycloakMb = tree(keycloakPid()).reduce((sum, pid) => sum + rssMb(pid), 0);
  const oursMb = Object.values(processes).reduce((sum, { rssMb }) => sum + rssMb, 0);
  return { processes: { ...processes, keycloak: { rssMb: keycloakMb } }, oursMb, keycloakMb, ratioToKeycloak: Math.round((oursMb / keycloakMb) * 100) / 100 };
}

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields),
});

async function adminToken(): Promise<string> {
  const token = await fetch(
    `${IDP}/realms/master/protocol/openid-connect/token`,
    form({ grant_type: 'password', client_id: 'admin-cli', username: 'admin', password: 'admin' }),
  );
  return ((await token.json()) as { access_token: string }).access_token;
}

/** The employee authenticator limits sign-ins per client address; in this bench's own Keycloak that limit is lifted (as bench/portal.ts does). */
async function liftEmployeeLimits(): Promise<void> {
  const headers = { authorization: `Bearer ${await adminToken()}`, 'content-type': 'application/json' };
  const executions = (await (
    await fetch(`${IDP}/admin/realms/wifi/authentication/flows/${encodeURIComponent(EMPLOYEE_FLOW)}/executions`, { headers })
  ).json()) as { authenticationConfig?: string }[];
  const id = executions.find((execution) => execution.authenticationConfig !== undefined)?.authenticationConfig;
  if (id === undefined) throw new Error(`no configured execution in the flow ${EMPLOYEE_FLOW}`);
  const current = (await (await fetch(`${IDP}/admin/realms/wifi/authentication/config/${id}`, { headers })).json()) as { config: Record<string, string> };
  const update = await fetch(`${IDP}/admin/realms/wifi/authentication/config/${id}`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ ...current, config: { ...current.config, addressLimit: '1000000' } }),
  });
  if (update.status !== 204) throw new Error(`lifting the employee limits answered ${update.status}: ${await update.text()}`);
}

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

/** Every service as `make up` starts it, wired to each other and to this bench's Keycloak. */
async function startAll(dataDir: string, env: Record<string, string>): Promise<ServerProcess[]> {
  const common = { LOG_LEVEL: 'warn', DATA_DIR: dataDir, ...env };
  const started: ServerProcess[] = [];
  const start = async (name: Name, extra: Record<string, string> = {}) => {
    started.push(await startServer(`services/${name}/main.ts`, PORTS[name], { ...common, ...extra }, 300_000));
  };
  try {
    // The stateless ones together, then the four stateful ones one at a time: four first starts
    // (initdb each) at once did not finish in two minutes on a loaded 2-core machine.
    const together = await Promise.allSettled([
      start('hr', { HR_GLOBAL_LIMIT: '100000000' }),
      start('decision'),
      start('loyalty', { LOYALTY_GLOBAL_LIMIT: '100000000' }),
      start('mailcatcher', { MAIL_SMTP_PORT: '0' }),
    ]);
    // Every one settled first, so none still starting is left running when another failed.
    const failed = together.find((outcome) => outcome.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    await start('session');
    await start('entitlement', {
      IDP_ISSUER: `${IDP}/realms/wifi`,
      IDP_JWKS_URL: `${IDP}/realms/wifi/protocol/openid-connect/certs`,
      DECISION_URL: url('decision'),
      LOYALTY_URL: url('loyalty'),
    });
    await start('gateway', { SESSION_URL: url('session') });
    await start('portal', {
      IDP_URL: IDP,
      ENTITLEMENT_URL: url('entitlement'),
      SESSION_URL: url('session'),
      GATEWAY_URL: url('gateway'),
      PORTAL_PUBLIC_URL: url('portal'),
      PORTAL_EMPLOYEE_ADDRESS_LIMIT: '1000000',
    });
  } catch (error) {
    await Promise.all(started.map((server) => server.stop()));
    throw error;
  }
  return started;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
const results: Record<string, unknown> = {};
let servers: ServerProcess[] = [];
const tmp = mkdtempSync(join(tmpdir(), 'wifi-bench-memory-'));
try {
  kc('build');
  kc('start', '--fresh');
  await liftEmployeeLimits();
  for (const [name, variant] of variants) {
    process.env.BENCH_NODE_FLAGS = variant.nodeFlags;
    const dataDir = join(tmp, name.replace(/[^A-Za-z0-9]+/g, '-'));
    servers = await startAll(dataDir, variant.env);
    await settle();
    const firstStart = await read(servers);
    await Promise.all(servers.map((server) => server.stop()));
    servers = await startAll(dataDir, variant.env);
    await settle();
    const atRest = await read(servers);
    const done = await signIns(SIGN_INS);
    await settle();
    const afterSignIns = await read(servers);
    results[name] = { firstStart, atRest, afterSignIns: { signIns: done.ok, failed: done.failed, ...afterSignIns } };
    process.stdout.write(`${name}: at rest ours ${atRest.oursMb} MB, Keycloak ${atRest.keycloakMb} MB (${atRest.ratioToKeycloak}x)\n`);
    await Promise.all(servers.splice(0).map((server) => server.stop()));
  }
  const result = {
    machine: machine(),
    method: `every service from dist/ with SERVICE_NODE_FLAGS on PGlite in the bench's own folders, beside a fresh Keycloak of the bench's own; RSS from /proc/<pid>/status, heap from each service's nodejs_heap_used_bytes; readings ${SETTLE_MS / 1000} s after the first start (initdb in process), after a restart on the same folders (at rest), and after ${SIGN_INS} employee sign-ins through the portal (${WORKERS} at a time). FreeRADIUS (about 90 MB, the same whatever our settings) is not started.`,
    variants: results,
    targets: { oursAtRestToKeycloakAtMost: TARGET_REST_RATIO },
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n${writeResult('memory', result)}\n`);
} finally {
  await Promise.all(servers.map((server) => server.stop()));
  kc('stop');
  rmSync(tmp, { recursive: true, force: true });
}
