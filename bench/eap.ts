// `npm run bench:eap`: a full 802.1X authentication (EAP-TTLS with inner PAP: the TLS tunnel, the
// inner identity posted to the gateway service, the session read, the Accept with its keys) as a
// device makes it, with Debian's eapol_test (wpa_supplicant) as the supplicant against FreeRADIUS
// and the gateway and session services in their own processes on in-memory stores. Measured: p50
// one at a time, authentications per second and p50 at 16 in flight, and the CPU each process
// spent per authentication from /proc (FreeRADIUS, gateway, session, and the bench client with the
// eapol_test processes it started). Its own ports and folders, never the spec's: no lock needed.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { deviceRefFor } from '../edge/index.js';
import { startFreeradius, writeFreeradiusConfig } from '../edge/freeradius-site.js';
import { ensureEapCertificates } from '../edge/radius-ca.js';
import { GatewayConfig } from '../services/gateway/config.js';
import { createSealer } from '../services/kit/index.js';
import { eapolTest } from '../test/services/gateway/eapol.js';
import { freeUdpPort } from '../test/services/gateway/radclient.js';
import { cpuMeter } from './lib/cpu.js';
import { json, machine, quantile, startServer, writeResult } from './lib/load.js';

const WORKERS = Number(process.env.BENCH_WORKERS ?? 16);
const AUTHS = Number(process.env.BENCH_AUTHS ?? 480);
const SERIAL = Number(process.env.BENCH_SERIAL ?? 100);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 48);
const PORTS = { session: 3931, gateway: 3932 };
const NAS = 'bench-eap-nas';
const SECRET = 'bench-eap-secret';
const defaults = GatewayConfig.parse({});
const REALM = defaults.EAP_REALM;
const SERVER_NAME = `radius.${REALM}`;
const tmp = mkdtempSync(join(tmpdir(), 'wifi-bench-eap-'));
const sessionHeaders = { 'content-type': 'application/json', 'X-API-Key': 'dev-session-tools-key' };
const gatewayHeaders = { 'content-type': 'application/json', 'X-API-Key': 'dev-gateway-tools-key' };

const mac = (i: number) => `02:00:00:00:${(i >> 8).toString(16).padStart(2, '0')}:${(i & 255).toString(16).padStart(2, '0')}`;

const authPort = await freeUdpPort();
const acctPort = await freeUdpPort();
const gatewaysFile = join(tmp, 'gateways.json');
const sealer = createSealer(defaults.GATEWAY_SEAL_KEY);
// Cisco WLC: an 802.1X controller; its Accepts record their caps (no CoA), as they do in production.
writeFileSync(
  gatewaysFile,
  JSON.stringify({
    gateways: [
      {
        nasId: NAS,
        profile: 'cisco-wlc',
        address: '127.0.0.1',
        secret: sealer.seal(SECRET),
        coaPort: await freeUdpPort(),
        loginUrls: ['https://192.0.2.1/login.html'],
      },
    ],
  }),
);
const certificates = ensureEapCertificates(join(tmp, 'ca'), SERVER_NAME);
// What started is stopped even when a later start fails (a loaded machine can take minutes).
const started: { stop(): Promise<void> }[] = [];
const stopAll = async () => {
  for (const running of started.reverse()) await running.stop();
  rmSync(tmp, { recursive: true, force: true });
};
async function begin<T extends { stop(): Promise<void> }>(starting: Promise<T>): Promise<T> {
  try {
    const running = await starting;
    started.push(running);
    return running;
  } catch (error) {
    await stopAll();
    throw error;
  }
}
const session = await begin(startServer('services/session/main.ts', PORTS.session, { DATABASE_URL: 'memory:', LOG_LEVEL: 'warn' }, 180_000));
const gateway = await begin(
  startServer(
    'services/gateway/main.ts',
    PORTS.gateway,
    { DATABASE_URL: 'memory:', LOG_LEVEL: 'warn', SESSION_URL: session.url, GATEWAYS_FILE: gatewaysFile, SESSION_TIMEOUT_MS: '10000' },
    180_000,
  ),
);
writeFreeradiusConfig({
  dir: join(tmp, 'server'),
  role: 'server',
  authPort,
  acctPort,
  restUrl: gateway.url,
  restKey: defaults.RADIUS_API_KEY,
  clients: [{ name: NAS, address: '127.0.0.1', secret: SECRET }],
  eap: certificates,
});
const server = await begin(startFreeradius(join(tmp, 'server')));
const pids = { freeradius: server.child.pid!, gateway: gateway.child.pid!, session: session.child.pid!, benchClient: process.pid };

interface Device {
  username: string;
  password: string;
  mac: string;
}

/** A person signed in with one device credential issued for the sign-in. */
async function device(i: number): Promise<Device> {
  const created = await json(`${session.url}/api/v1/sessions`, sessionHeaders, {
    subjectId: randomUUID(),
    deviceRef: deviceRefFor(defaults.DEVICE_REF_KEY, NAS, mac(i)),
  });
  const sessionId = String(created['sessionId']);
  await json(`${session.url}/api/v1/sessions/${sessionId}/grant`, sessionHeaders, {
    entitlementId: `ent-${randomUUID()}`,
    tier: 'BASIC',
    qosClass: 'STANDARD',
    validUntil: new Date(Date.now() + 3_600_000).toISOString(),
    deviceSlots: 3,
  });
  const issued = await json(`${gateway.url}/api/v1/devices`, gatewayHeaders, { sessionId, label: `bench ${i}` });
  return { username: String(issued['username']), password: String(issued['password']), mac: mac(i) };
}

/** Each worker runs eapol_test for its device one after another, all workers at once. */
async function phase(devices: Device[], perWorker: number) {
  const latencies: number[] = [];
  let failures = 0;
  const meter = cpuMeter(pids);
  const started = performance.now();
  await Promise.all(
    devices.map(async (d) => {
      for (let i = 0; i < perWorker; i += 1) {
        const t0 = performance.now();
        const outcome = await eapolTest(authPort, SECRET, {
          identity: d.username,
          password: d.password,
          anonymousIdentity: `anonymous@${REALM}`,
          caFile: certificates.caFile,
          serverName: SERVER_NAME,
          mac: d.mac,
        });
        if (outcome.success) latencies.push(performance.now() - t0);
        else failures += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const authentications = latencies.length + failures;
  const cpu = meter.perOperation(authentications);
  const { benchClient, total: _withBenchClient, ...platform } = cpu;
  const platformTotal = Math.round(Object.values(platform).reduce((sum, ms) => sum + ms, 0) * 1000) / 1000;
  return {
    inFlight: devices.length,
    authentications,
    failures,
    authsPerSecond: Math.round((latencies.length / seconds) * 10) / 10,
    latencyMs: { p50: quantile(latencies, 0.5), p95: quantile(latencies, 0.95), max: quantile(latencies, 1) },
    cpuMsPerAuth: { ...platform, platformTotal, benchClientWithEapolTest: benchClient },
  };
}

try {
  const devices = await Promise.all(Array.from({ length: WORKERS }, (_, i) => device(i)));
  // Warm-up (JIT, FreeRADIUS's threads, the gateway's pools), not reported.
  await phase(devices, Math.ceil(WARMUP / WORKERS));
  const oneAtATime = await phase(devices.slice(0, 1), SERIAL);
  const inFlight16 = await phase(devices, Math.ceil(AUTHS / WORKERS));
  const result = {
    benchmark: 'eap',
    at: new Date().toISOString(),
    machine: machine(),
    loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
    method: 'EAP-TTLS, inner PAP, TLS 1.2+ (P-256 server certificate), eapol_test as the supplicant',
    oneAtATime,
    inFlight16,
    note:
      process.env.BENCH_NOTE ??
      'Latency is the whole eapol_test run, its process start and configuration read included. CPU: /proc ticks of each process tree over the phase, divided by its authentications; benchClientWithEapolTest is this process and the eapol_test processes it reaped.',
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\nwritten to ${writeResult('eap', result)}\n`);
} finally {
  await stopAll();
}
