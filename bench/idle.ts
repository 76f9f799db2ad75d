// `npm run bench:idle`: what the platform costs when nobody signs in. Every service
// runs as `make up` runs it (co-hosted in one process from dist/, compiled first, with SERVICE_NODE_FLAGS: bench/lib/load.ts; PGlite in a folder of the bench's own;
// BENCH_IDLE_COHOST=0: one process each, as the cluster),
// with FreeRADIUS in front of the gateway service; after a settling time, the CPU all of them
// spend over BENCH_IDLE_SECONDS (default 600) is read from /proc. Target: under 0.1 s of CPU per
// minute for all our processes together. Keycloak is not ours and is left out.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSealer } from '../services/kit/index.js';
import { GatewayConfig } from '../services/gateway/config.js';
import { startFreeradius, writeFreeradiusConfig } from '../edge/freeradius-site.js';
import { freeUdpPort } from '../test/services/gateway/radclient.js';
import { waitHealthy } from '../scripts/child-process.js';
import { cpuMeter } from './lib/cpu.js';
import { machine, startServer, writeResult, type ServerProcess } from './lib/load.js';

// A platform idle for hours is what is measured: the settling takes in the first held feed read
// (290 s) and its answer, whose path runs then for the first time (compiled lazily, without
// type feedback: 160 ms of the session's CPU in one measured run), and the window takes two more.
const SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 600);
const SETTLE_SECONDS = Number(process.env.BENCH_IDLE_SETTLE_SECONDS ?? 330);
const TARGET_CPU_MS_PER_MINUTE = 100;
/** The services co-hosted in one process as `make up` runs them (default), or one process each (BENCH_IDLE_COHOST=0, the cluster's way). */
const COHOST = process.env.BENCH_IDLE_COHOST !== '0';
const PORTS = { hr: 3961, entitlement: 3962, session: 3963, gateway: 3964, decision: 3965, loyalty: 3966, portal: 3960 };
const url = (name: keyof typeof PORTS) => `http://127.0.0.1:${PORTS[name]}`;
const NAS = 'bench-idle-nas';
const SECRET = 'bench-idle-secret';
const tmp = mkdtempSync(join(tmpdir(), 'wifi-bench-idle-'));
const defaults = GatewayConfig.parse({});

const servers: ServerProcess[] = [];
/** A service as `make up` runs it (bench/lib/load.ts: BENCH_NODE_FLAGS and BENCH_LOG_DIR apply); answers its pid. */
async function start(name: keyof typeof PORTS, env: Record<string, string> = {}): Promise<number> {
  const server = await startServer(`services/${name}/main.ts`, PORTS[name], { DATA_DIR: join(tmp, 'data'), ...env }, 120_000);
  servers.push(server);
  return server.child.pid as number;
}

const [authPort, acctPort] = [await freeUdpPort(), await freeUdpPort()];
const gatewaysFile = join(tmp, 'gateways.json');
writeFileSync(
  gatewaysFile,
  JSON.stringify({
    gateways: [
      {
        nasId: NAS,
        profile: 'coovachilli',
        address: '127.0.0.1',
        secret: createSealer(defaults.GATEWAY_SEAL_KEY).seal(SECRET),
        coaPort: 3799,
        uamSecret: createSealer(defaults.GATEWAY_SEAL_KEY).seal('bench-uam-secret'),
        loginUrls: ['http://10.1.0.1:3990/logon'],
      },
    ],
  }),
);
let radiusServer: Awaited<ReturnType<typeof startFreeradius>> | undefined;
try {
  const pids: Record<string, number> = {};
  const extra: Record<keyof typeof PORTS, Record<string, string>> = {
    hr: {},
    decision: {},
    loyalty: {},
    session: {},
    entitlement: { DECISION_URL: url('decision'), LOYALTY_URL: url('loyalty') },
    gateway: { SESSION_URL: url('session'), GATEWAYS_FILE: gatewaysFile },
    portal: {
      ENTITLEMENT_URL: url('entitlement'),
      SESSION_URL: url('session'),
      GATEWAY_URL: url('gateway'),
      GATEWAYS_FILE: gatewaysFile,
      PORTAL_PUBLIC_URL: url('portal'),
    },
  };
  const names = Object.keys(PORTS) as (keyof typeof PORTS)[];
  if (COHOST) {
    // As `make up` runs them: one co-host process, each service's settings in one environment.
    const merged = Object.assign({ DATA_DIR: join(tmp, 'data') }, ...Object.values(extra)) as Record<string, string>;
    const host = await startServer(
      'services/kit/cohost.ts',
      PORTS.portal,
      merged,
      300_000,
      names.map((name) => `${name}:${PORTS[name]}`),
    );
    servers.push(host);
    for (const name of names) await waitHealthy(url(name), host.child, 300_000);
    pids['cohost'] = host.child.pid as number;
  } else for (const name of names) pids[name] = await start(name, extra[name]);
  writeFreeradiusConfig({
    dir: join(tmp, 'freeradius'),
    role: 'server',
    authPort,
    acctPort,
    restUrl: url('gateway'),
    restKey: defaults.RADIUS_API_KEY,
    clients: [{ name: NAS, address: '127.0.0.1', secret: SECRET }],
  });
  radiusServer = await startFreeradius(join(tmp, 'freeradius'));
  pids['freeradius'] = radiusServer.child.pid as number;
  // Start-up work (migrations, first compilations, the first held read's answer) settles first.
  await new Promise((resolve) => setTimeout(resolve, SETTLE_SECONDS * 1000));
  const meter = cpuMeter(pids);
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  const perMinute = meter.perOperation(SECONDS / 60);
  const result = {
    machine: machine(),
    method: `every service from dist/ on PGlite (${COHOST ? 'co-hosted in one process, as make up' : 'one process each'}), FreeRADIUS in front of the gateway; ${SETTLE_SECONDS} s settling, then CPU from /proc over ${SECONDS} s with no traffic`,
    cpuMsPerMinute: perMinute,
    targets: { allProcessesCpuMsPerMinuteAtMost: TARGET_CPU_MS_PER_MINUTE },
    met: { idle: perMinute.total <= TARGET_CPU_MS_PER_MINUTE },
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n${writeResult('idle', result)}\n`);
} finally {
  if (radiusServer !== undefined) await radiusServer.stop();
  await Promise.all(servers.map((server) => server.stop()));
  rmSync(tmp, { recursive: true, force: true });
}
