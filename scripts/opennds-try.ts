// `node --import tsx scripts/opennds-try.ts` (root): Debian's openNDS in network namespaces, as
// the enforcement test builds it, left running until Ctrl-C, with the commands a person runs to
// see a client's network closed, opened and closed again. The FAS is the harness's stand-in for
// now (issue 28: the portal's FAS route is not wired yet); removes everything on exit.
import { startHarness } from './opennds/harness.js';

const startup = startHarness({ clients: 2, gatewayName: 'try-gateway', fas: { port: 8090, path: '/opennds/fas', secureLevel: 2, key: 'try-faskey' } });
// Ctrl-C during start-up too: start-up finishes (a failed one has undone itself), then it stops.
let stopping = false;
async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  const harness = await startup.catch(() => undefined);
  await harness?.stop();
  process.exit(code);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

try {
  const { topology, gateway } = await startup;
  const [first, second] = topology.clients;
  const url = `http://${topology.internet.ip}/`;
  const ndsctl = `nsenter -t ${gateway.pid} -n -m --pid=/proc/${gateway.pid}/ns/pid_for_children ndsctl`;
  process.stdout.write(`openNDS 9.10 runs in ${topology.gateway.ns}; clients ${first?.ns} (${first?.ip}) and ${second?.ns} (${second?.ip}).
Captive (307 to the FAS):     ip netns exec ${first?.ns} curl -si ${url} | head -4
Open the first client:        ${ndsctl} auth ${first?.ip}
Through (the server's body):  ip netns exec ${first?.ns} curl -s ${url}
The second stays captive:     ip netns exec ${second?.ns} curl -si ${url} | head -4
Close it again:               ${ndsctl} deauth ${first?.ip}
Ctrl-C stops openNDS and removes the namespaces.
`);
} catch (error) {
  process.stderr.write(`opennds-try: ${error instanceof Error ? error.message : String(error)}\n`);
  await stop(1);
}
