// `npm run bench:opennds` (issue 28, the gateway's part): Debian's openNDS in network namespaces
// (scripts/opennds/), RUNS times each: `ndsctl auth <client>` -> the client's first 200 from the
// internet server, and `ndsctl deauth` -> the first request openNDS intercepts again (p50, p95).
// Each probe is one curl from the client's namespace (a process start, ~10-30 ms), which bounds
// the resolution. Root with CAP_NET_ADMIN only. The portal's sign-in is not wired to openNDS yet:
// when it is, sign-in -> first byte adds the portal's and authmon's (poll interval) share.
import { loadavg } from 'node:os';
import { waitFor } from '../scripts/opennds/command.js';
import { startHarness } from '../scripts/opennds/harness.js';
import { get, reachesInternet } from '../test/opennds/client-http.js';
import { enforcementSkipReason } from '../test/opennds/host-support.js';
import { machine, writeResult } from './lib/load.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const FAS_PORT = 8090;

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))] ?? 0;

const skip = await enforcementSkipReason();
if (skip !== undefined) {
  process.stderr.write(`bench:opennds cannot run here: ${skip}\n`);
  process.exit(1);
}

const harness = await startHarness({ clients: 1, gatewayName: 'bench-gw', fas: { port: FAS_PORT, path: '/fas', secureLevel: 2, key: 'bench-faskey' } });
const { topology, gateway } = harness;
const authToFirstByte: number[] = [];
const deauthToCutOff: number[] = [];
try {
  const client = topology.clients[0];
  if (client === undefined) throw new Error('no client');
  const url = `http://${topology.internet.ip}/bench`;
  await get(client, url); // openNDS lists the client on its first intercepted request
  for (let run = 0; run < RUNS; run += 1) {
    let start = performance.now();
    if ((await gateway.ndsctl('auth', client.ip)).code !== 0) throw new Error('ndsctl auth failed');
    await waitFor('through', async () => (reachesInternet(await get(client, url)) ? true : undefined), 10_000, 5);
    authToFirstByte.push(performance.now() - start);
    start = performance.now();
    if ((await gateway.ndsctl('deauth', client.ip)).code !== 0) throw new Error('ndsctl deauth failed');
    await waitFor('cut off', async () => (reachesInternet(await get(client, url)) ? undefined : true), 10_000, 5);
    deauthToCutOff.push(performance.now() - start);
  }
} finally {
  await harness.stop();
}
const summary = (values: number[]) => ({ p50: Math.round(quantile(values, 0.5)), p95: Math.round(quantile(values, 0.95)), runs: values.length });
const result = { machine: machine(), loadAverage: loadavg().map((x) => Math.round(x * 100) / 100), authToFirstByteMs: summary(authToFirstByte), deauthToCutOffMs: summary(deauthToCutOff) };
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
process.stdout.write(`written to ${writeResult('opennds', result)}\n`);
