// `node --import tsx scripts/opennds-try.ts` (root): Debian's openNDS in network namespaces, as
// the tests build it, left running until Ctrl-C, with the commands a person runs to see a client's
// network closed, opened and closed again. With the platform running (`make up`: the portal
// answers on PORTAL_URL, default http://127.0.0.1:3000) the portal is the FAS at level 3, as the
// registry's demo-opennds (fixtures/gateways.json), reached through a relay into the namespaces
// (scripts/opennds/fas-relay.ts), with router/revocation-poll.sh running on the gateway; without
// it the FAS is the harness's stand-in and `ndsctl` opens the network. Removes everything on exit.
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stopChild } from './child-process.js';
import { bridgeToTcp } from './opennds/fas-relay.js';
import { startHarness, untilGatewayPolls, type Harness } from './opennds/harness.js';

const PORTAL = process.env['PORTAL_URL'] ?? 'http://127.0.0.1:3000';
const GATEWAY_SERVICE = process.env['GATEWAY_URL'] ?? 'http://127.0.0.1:3004';
const REVOCATION_POLL = fileURLToPath(new URL('../edge/router/revocation-poll.sh', import.meta.url));
const portalUp = await fetch(`${PORTAL}/health`).then(
  (answer) => answer.ok,
  () => false,
);
const folder = mkdtempSync(join(tmpdir(), 'ndst-try-'));
let bridge: Server | undefined;

async function start(): Promise<Harness> {
  if (!portalUp) return startHarness({ clients: 2, gatewayName: 'try-gateway', fas: { port: 8090, path: '/opennds/fas', secureLevel: 2, key: 'try-faskey' } });
  const socket = join(folder, 'portal.sock');
  bridge = await bridgeToTcp(socket, Number(new URL(PORTAL).port), new URL(PORTAL).hostname);
  return startHarness({
    clients: 2,
    gatewayName: 'demo-opennds',
    fas: { port: 8443, path: '/opennds/demo-opennds', secureLevel: 3, key: 'demo-opennds-faskey-0123456789' },
    fasRelaySocket: socket,
    gateway: { authmonPollSeconds: 2, binauth: '/usr/lib/opennds/binauth_log.sh' },
  });
}

const startup = start();
let poller: ReturnType<Harness['gateway']['runScript']> | undefined;
// Ctrl-C during start-up too: start-up finishes (a failed one has undone itself), then it stops.
let stopping = false;
async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  const harness = await startup.catch(() => undefined);
  if (poller !== undefined) await stopChild(poller);
  await harness?.stop();
  await new Promise<void>((resolve) => (bridge === undefined ? resolve() : bridge.close(() => resolve())));
  rmSync(folder, { recursive: true, force: true });
  process.exit(code);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

try {
  const { topology, gateway } = await startup;
  const [first, second] = topology.clients;
  const url = `http://${topology.internet.ip}/`;
  const ndsctl = `nsenter -t ${gateway.pid} -n -m --pid=/proc/${gateway.pid}/ns/pid_for_children ndsctl`;
  if (portalUp) {
    poller = gateway.runScript(REVOCATION_POLL, ['2']);
    // The portal refuses arrivals until the gateway's authmon polls it (a few seconds after the start).
    await untilGatewayPolls(GATEWAY_SERVICE, 'demo-opennds');
    const jar = join(folder, 'cookies');
    const inFirst = `ip netns exec ${first?.ns} curl -sk -b ${jar} -c ${jar}`;
    process.stdout.write(`openNDS 9.10 runs in ${topology.gateway.ns} with the portal (${PORTAL}) as its FAS at level 3; clients ${first?.ns} (${first?.ip}) and ${second?.ns} (${second?.ip}).
Captive (307 to the portal):   ip netns exec ${first?.ns} curl -si ${url} | head -4
Arrive at the portal (303):    ${inFirst} -o /dev/null -w '%{http_code}\\n' "$(ip netns exec ${first?.ns} curl -s -o /dev/null -w '%{redirect_url}' ${url})"
Sign in (a demo customer):     ${inFirst} -H 'content-type: application/json' --data '{"username":"bob@example.com","password":"bob-demo-pass"}' https://${topology.internet.ip}:8443/api/v1/auth/login
A few seconds later, through:  ip netns exec ${first?.ns} curl -s ${url}
The second stays captive:      ip netns exec ${second?.ns} curl -si ${url} | head -4
Log out (the portal revokes):  ${inFirst} -X POST https://${topology.internet.ip}:8443/api/v1/auth/logout ; ip netns exec ${first?.ns} curl -si ${url} | head -1
Ctrl-C stops openNDS and removes the namespaces.
`);
  } else {
    process.stdout.write(`The portal does not answer on ${PORTAL} (start the platform with make up to use it as the FAS); the FAS is the stand-in.
openNDS 9.10 runs in ${topology.gateway.ns}; clients ${first?.ns} (${first?.ip}) and ${second?.ns} (${second?.ip}).
Captive (307 to the FAS):     ip netns exec ${first?.ns} curl -si ${url} | head -4
Open the first client:        ${ndsctl} auth ${first?.ip}
Through (the server's body):  ip netns exec ${first?.ns} curl -s ${url}
The second stays captive:     ip netns exec ${second?.ns} curl -si ${url} | head -4
Close it again:               ${ndsctl} deauth ${first?.ip}
Ctrl-C stops openNDS and removes the namespaces.
`);
  }
} catch (error) {
  process.stderr.write(`opennds-try: ${error instanceof Error ? error.message : String(error)}\n`);
  await stop(1);
}
