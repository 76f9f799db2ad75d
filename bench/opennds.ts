// `npm run bench:opennds`: Debian's openNDS in network namespaces (scripts/opennds/),
// RUNS times each. The gateway's part: `ndsctl auth <client>` -> the client's first 200 from the
// internet server, and `ndsctl deauth` -> the first request openNDS intercepts again. Through the
// portal as the FAS at level 3 (the started platform with Keycloak when PLATFORM_UP=1, else its
// services in-process with the identity provider stood in: test/opennds/fas-platform.ts): the
// sign-in's answer -> first byte through the gateway (authmon's poll, AUTHMON_POLL_S), and the
// revoke API's answer -> cut off (the change feed, revocation-poll.sh's interval). p50 and p95.
// Each probe is one curl from the client's namespace (a process start, ~10-30 ms), which bounds
// the resolution. Root with CAP_NET_ADMIN only.
import { loadavg } from 'node:os';
import { waitFor } from '../scripts/opennds/command.js';
import { startHarness, untilGatewayPolls } from '../scripts/opennds/harness.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stopChild } from '../scripts/child-process.js';
import { bridgeToTcp } from '../scripts/opennds/fas-relay.js';
import { get, reachesInternet } from '../test/opennds/client-http.js';
import { fasPlatform } from '../test/opennds/fas-platform.js';
import { signInThroughPortal } from '../test/opennds/portal-client.js';
import { enforcementSkipReason } from '../test/opennds/host-support.js';
import { machine, msSummary, writeResult } from './lib/load.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const FAS_PORT = 8090;

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

// Through the portal: the registry's demo-opennds, as test/e2e/opennds/portal-fas.test.ts runs it.
const AUTHMON_POLL_S = 1;
const platform = await fasPlatform();
const folder = mkdtempSync(join(tmpdir(), 'ndst-bench-'));
const bridge = await bridgeToTcp(join(folder, 'portal.sock'), Number(new URL(platform.portal).port), new URL(platform.portal).hostname);
const signInToFirstByte: number[] = [];
const revokeToCutOff: number[] = [];
const portalHarness = await startHarness({
  clients: 1,
  gatewayName: 'demo-opennds',
  fas: { port: 8443, path: '/opennds/demo-opennds', secureLevel: 3, key: 'demo-opennds-faskey-0123456789' },
  fasRelaySocket: join(folder, 'portal.sock'),
  gateway: { authmonPollSeconds: AUTHMON_POLL_S },
});
const poller = portalHarness.gateway.runScript(fileURLToPath(new URL('../edge/router/revocation-poll.sh', import.meta.url)), [String(AUTHMON_POLL_S)]);
try {
  const client = portalHarness.topology.clients[0];
  if (client === undefined) throw new Error('no client');
  const url = `http://${portalHarness.topology.internet.ip}/bench`;
  const fasOrigin = `https://${portalHarness.topology.internet.ip}:8443`;
  await untilGatewayPolls(platform.gateway, 'demo-opennds');
  for (let run = 0; run < RUNS; run += 1) {
    const { sessionId } = await signInThroughPortal(folder, client, url, fasOrigin, 'demo-opennds');
    let start = performance.now();
    await waitFor('through after the sign-in', async () => (reachesInternet(await get(client, url)) ? true : undefined), 30_000, 20);
    signInToFirstByte.push(performance.now() - start);
    const revoked = await fetch(`${platform.session}/api/v1/sessions/${sessionId}/revoke`, {
      method: 'POST',
      headers: { 'X-API-Key': 'dev-session-tools-key' },
    });
    if (revoked.status !== 200) throw new Error(`revoke answered ${revoked.status}`);
    start = performance.now();
    await waitFor('cut off after the revoke', async () => (reachesInternet(await get(client, url)) ? undefined : true), 15_000, 20);
    revokeToCutOff.push(performance.now() - start);
  }
} finally {
  await stopChild(poller);
  await portalHarness.stop();
  await new Promise<void>((resolve) => bridge.close(() => resolve()));
  await platform.stop();
  rmSync(folder, { recursive: true, force: true });
}

const result = {
  machine: machine(),
  loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
  authToFirstByteMs: msSummary(authToFirstByte),
  deauthToCutOffMs: msSummary(deauthToCutOff),
  throughThePortal: {
    platform: platform.kind,
    authmonPollSeconds: AUTHMON_POLL_S,
    revocationPollSeconds: AUTHMON_POLL_S,
    signInToFirstByteMs: msSummary(signInToFirstByte),
    revokeToCutOffMs: msSummary(revokeToCutOff),
  },
};
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
process.stdout.write(`written to ${writeResult('opennds', result)}\n`);
