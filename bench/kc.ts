// `npm run bench:kc`: Keycloak with the GraalJS extension, in one run against the same
// Keycloak (started fresh by scripts/kc.sh on ports of its own and run dirs, with its own HR):
// p50/p95 of a client-credentials grant, a customer password grant, an employee grant and HR
// verify alone, sequential and interleaved. Targets: employee p50 - (client-credentials
// p50 + HR verify p50) <= 10 ms warm; first employee grant after start < 2 s; resident memory at
// most 200 MB above the same Keycloak started without the extension and given the same load.
// A JVM's resident size mostly tracks how far its heap has grown, so both Keycloaks run with
// the same fixed, pre-touched heap (its pages are resident in both) and the extension's cost is
// what it adds on top: resident size beyond that heap, plus live heap after a full GC.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, machine, startServer, writeResult } from './lib/load.js';

// Each Keycloak gets its own port: pooled keep-alive sockets never outlive their server.
const PLAIN_PORT = 8181;
const PORT = 8182;
const HR_PORT = 3993;
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 200);
const WARM_ROUNDS = Number(process.env['BENCH_WARM_ROUNDS'] ?? 40);
const HR = `http://127.0.0.1:${HR_PORT}`;
// Demo data of realm-export.json and services/hr/README.md.
const CLIENT = { client_id: 'wifi-portal-api', client_secret: 'dev-portal-api-secret' };
const EMPLOYEE_CLIENT = { client_id: 'wifi-portal-employee-api', client_secret: 'dev-portal-employee-api-secret' };
const EMPLOYEE = { employeeId: 'C-3002', citizenId: '079203005678' };

type Call = () => Promise<void>;

interface Instance {
  runDir: string;
  port: number;
  env: Record<string, string>;
}

function kc(instance: Instance, ...args: string[]): void {
  const run = spawnSync(join(ROOT, 'scripts/kc.sh'), args, {
    cwd: ROOT,
    // Management port beside the HTTP port, so a running platform (9000) is left alone.
    env: {
      ...process.env,
      KC_PORT: String(instance.port),
      KC_MGMT_PORT: String(instance.port + 1000),
      KC_RUN_DIR: instance.runDir,
      HR_URL: HR,
      ...instance.env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`scripts/kc.sh ${args.join(' ')} failed (${run.status})`);
}

const FIXED_HEAP = '-Xms768m -Xmx768m -XX:+AlwaysPreTouch';

function javaPid(instance: Instance): string {
  const scriptPid = readFileSync(`${instance.runDir}.pid`, 'utf8').trim();
  // Keycloak's kc.sh either exec'd java (after re-augmenting) or runs it as its only child.
  const child = readFileSync(`/proc/${scriptPid}/task/${scriptPid}/children`, 'utf8').trim().split(/\s+/)[0];
  return child !== undefined && child !== '' ? child : scriptPid;
}

function jcmd(pid: string, command: string): string {
  const run = spawnSync('jcmd', [pid, command], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`jcmd ${command} failed: ${run.stderr}`);
  return run.stdout;
}

/** Resident size, and live heap after a full collection (G1: "used NK" of the heap summary). */
function memoryMb(instance: Instance): { resident: number; liveHeap: number } {
  const pid = javaPid(instance);
  jcmd(pid, 'GC.run');
  const used = /garbage-first heap\s+total \d+K, used (\d+)K/.exec(jcmd(pid, 'GC.heap_info'))?.[1];
  const rss =
    readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:')) ?? '';
  if (used === undefined) throw new Error('no heap figure from jcmd GC.heap_info');
  return { resident: Math.round(Number(rss.replace(/\D+/g, '')) / 1024), liveHeap: Math.round(Number(used) / 1024) };
}

async function post(url: string, body: URLSearchParams | string, headers: Record<string, string> = {}): Promise<void> {
  const response = await fetch(url, { method: 'POST', body, headers });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${text.slice(0, 200)}`);
}

const tokenUrl = (port: number): string => `http://127.0.0.1:${port}/realms/wifi/protocol/openid-connect/token`;
const grant =
  (form: Record<string, string>): Call =>
  () =>
    post(tokenUrl(port), new URLSearchParams(form));
let port = PLAIN_PORT;
const calls: Record<string, Call> = {
  clientCredentials: grant({ grant_type: 'client_credentials', ...CLIENT }),
  customerPassword: grant({ grant_type: 'password', ...CLIENT, username: 'carol@example.com', password: 'carol-demo-pass' }),
  employee: grant({ grant_type: 'password', ...EMPLOYEE_CLIENT, ...EMPLOYEE }),
  hrVerify: () => post(`${HR}/api/v1/employees/verify`, JSON.stringify(EMPLOYEE), { 'Content-Type': 'application/json', 'X-API-Key': 'dev-hr-tools-key' }),
};

async function timed(call: Call): Promise<number> {
  const start = performance.now();
  await call();
  return performance.now() - start;
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
const round = (ms: number): number => Math.round(ms * 10) / 10;

/** Runs the named calls round-robin, so drift affects all of them alike. */
async function measure(names: string[], rounds: number): Promise<Record<string, { p50: number; p95: number; n: number }>> {
  const samples = Object.fromEntries(names.map((name) => [name, [] as number[]]));
  for (let i = 0; i < rounds; i++) {
    for (const name of names) samples[name]!.push(await timed(calls[name]!));
  }
  return Object.fromEntries(
    names.map((name) => {
      const sorted = samples[name]!.sort((a, b) => a - b);
      return [name, { p50: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)), n: sorted.length }];
    }),
  );
}

const plain: Instance = { runDir: join(ROOT, '.run/bench/kc-plain'), port: PLAIN_PORT, env: { KC_WITH_EXTENSION: '0', JAVA_OPTS_KC_HEAP: FIXED_HEAP } };
const withExtension: Instance = { runDir: join(ROOT, '.run/bench/kc-ext'), port: PORT, env: { KC_WITH_EXTENSION: '1', JAVA_OPTS_KC_HEAP: FIXED_HEAP } };
const hr = await startServer('services/hr/main.ts', HR_PORT, { HR_GLOBAL_LIMIT: '100000000', LOG_LEVEL: 'warn' });
try {
  const keycloakOnly = ['clientCredentials', 'customerPassword'];

  process.stderr.write('baseline: Keycloak without the extension\n');
  kc(plain, 'build');
  kc(plain, 'start', '--fresh');
  let baseline: { resident: number; liveHeap: number };
  try {
    await measure(keycloakOnly, WARM_ROUNDS + ROUNDS);
    baseline = memoryMb(plain);
  } finally {
    kc(plain, 'stop');
  }

  process.stderr.write('Keycloak with the extension\n');
  port = PORT;
  kc(withExtension, 'build');
  kc(withExtension, 'start', '--fresh');
  let result;
  try {
    const firstEmployeeGrantMs = round(await timed(calls['employee']!));
    await measure([...keycloakOnly, 'employee', 'hrVerify'], WARM_ROUNDS);
    const latency = await measure([...keycloakOnly, 'employee', 'hrVerify'], ROUNDS);
    const extension = memoryMb(withExtension);
    // Same committed heap in both: the resident difference is non-heap (classes, code, Truffle's
    // native parts); live heap difference is what the extension keeps (ASTs, pooled Contexts).
    const deltaMb = extension.resident - baseline.resident + (extension.liveHeap - baseline.liveHeap);
    const overheadMs = round(latency['employee']!.p50 - (latency['clientCredentials']!.p50 + latency['hrVerify']!.p50));
    result = {
      benchmark: 'kc',
      at: new Date().toISOString(),
      machine: machine(),
      method: `sequential, ${WARM_ROUNDS} warm-up rounds then ${ROUNDS} measured rounds, calls interleaved round-robin; fresh dev-mode Keycloaks on ports ${PLAIN_PORT} (baseline) and ${PORT}`,
      latencyMs: latency,
      employeeOverheadP50Ms: overheadMs,
      firstEmployeeGrantAfterStartMs: firstEmployeeGrantMs,
      memoryMb: {
        method: `both with ${FIXED_HEAP}; delta = resident difference + live-heap-after-full-GC difference`,
        withoutExtension: baseline,
        withExtension: extension,
        delta: deltaMb,
      },
      targets: { employeeOverheadP50MsAtMost: 10, firstEmployeeGrantMsBelow: 2000, residentDeltaMbAtMost: 200 },
      met: overheadMs <= 10 && firstEmployeeGrantMs < 2000 && deltaMb <= 200,
    };
  } finally {
    kc(withExtension, 'stop');
  }
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n${writeResult('kc', result)}\n`);
} finally {
  await hr.stop();
}
