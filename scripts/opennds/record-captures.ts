// Records what the real openNDS (Debian's opennds package, scripts/ensure-opennds.sh) sends a FAS,
// for test/edge/controllers/captures/opennds.json:
//   flock /tmp/wifi-platform.lock node --import tsx scripts/opennds/record-captures.ts > test/edge/controllers/captures/opennds.json
// For each FAS level the platform reads (1, 2 and 3) openNDS runs in its namespaces (harness.ts)
// in front of the stand-in FAS (fas-stub.ts); a client (curl in its namespace) opens a page with a
// query string and follows the redirect: the redirect's Location and the request the FAS received
// are one capture each. At level 3 authmon and BinAuth (Debian's binauth_log.sh) speak to the FAS
// through the signing post-request.php an operator installs: its first "clear", a "view" poll, the
// acknowledgement of a grant the FAS queued, router/revocation-poll.sh's "revocations" poll and
// "revoked" report, and the "deauthed" notice after the revocation; each POST is kept as it came.
// Needs root. The client MAC is the harness's locally administered one, never a device's.
import { fileURLToPath } from 'node:url';
import { stopChild } from '../child-process.js';
import { rhidOf, decryptFasQuery } from '../../edge/opennds-crypto.js';
import { run, waitFor } from './command.js';
import { startHarness } from './harness.js';
import type { AuthmonRequest } from './internet.js';

const FASKEY = 'ndst-capture-faskey-0123456789';
const GATEWAY_NAME = 'ndst-capture-venue';
const FAS_PATH = '/opennds/fas';
const POLL_S = 1;
const REVOCATION_POLL = fileURLToPath(new URL('../../edge/router/revocation-poll.sh', import.meta.url));

/** One GET from the client's namespace as a browser sends it; the status and Location openNDS answered. */
async function redirectOf(ns: string, url: string): Promise<{ status: number; location: string }> {
  const answer = await run('ip', ['netns', 'exec', ns, 'curl', '-s', '-k', '-m', '10', '-o', '/dev/null', '-w', '%{http_code} %{redirect_url}', url]);
  const [status = '0', location = ''] = answer.stdout.split(' ');
  return { status: Number(status), location };
}

interface ArrivalCapture {
  level: 1 | 2 | 3;
  what: string;
  status: number;
  location: string;
  fasRequest: string;
}
interface AuthmonCapture {
  what: string;
  method: 'POST';
  path: string;
  contentType: string;
  body: string;
}

const arrivals: ArrivalCapture[] = [];
const authmon: AuthmonCapture[] = [];
let client = { ip: '', mac: '' };
let gatewayAddress = '';
let originUrl = '';

for (const level of [1, 2, 3] as const) {
  const harness = await startHarness({
    clients: 1,
    gatewayName: GATEWAY_NAME,
    fas: { port: level === 3 ? 8443 : 8090, path: FAS_PATH, secureLevel: level, key: FASKEY },
    gateway: level === 3 ? { authmonPollSeconds: POLL_S, binauth: '/usr/lib/opennds/binauth_log.sh' } : {},
  });
  try {
    const host = harness.topology.clients[0];
    if (host === undefined) throw new Error('no client');
    client = { ip: host.ip, mac: host.mac };
    gatewayAddress = `${harness.topology.gateway.lanIp}:2050`;
    originUrl = `http://${harness.topology.internet.ip}/news?topic=wifi&lang=en`;
    const captive = await redirectOf(host.ns, originUrl);
    if (captive.status !== 307) throw new Error(`level ${level}: openNDS answered ${captive.status}, not a redirect`);
    const before = harness.internet.fasRequests.length;
    await redirectOf(host.ns, captive.location);
    const fasRequest = await waitFor(`level ${level}: the FAS receives the arrival`, async () => harness.internet.fasRequests[before], 10_000);
    arrivals.push({ level, what: `FAS level ${level}: a new device's first page (a URL with a query string)`, ...captive, fasRequest });
    if (level !== 3) continue;

    const sent = harness.internet.authmonRequests;
    const keep = (what: string, request: AuthmonRequest) => authmon.push({ what, method: 'POST', ...request.wire });
    const find = (what: string, test: (request: AuthmonRequest) => boolean) => waitFor(what, async () => sent.find(test), 30_000, 200);
    keep('authmon starts: auth_get=clear', await find('authmon clear', (r) => r.action === 'clear'));
    keep('authmon polls: auth_get=view, payload "none"', await find('authmon view', (r) => r.action === 'view' && r.payload === 'none'));
    const url = new URL(fasRequest, 'https://fas.invalid');
    const query = decryptFasQuery(url.searchParams.get('fas') ?? '', url.searchParams.get('iv') ?? '', FASKEY);
    if (query === undefined) throw new Error('the level 3 arrival did not decrypt');
    const rhid = rhidOf(query.hid, FASKEY);
    harness.internet.authorise({
      rhid,
      sessionMinutes: 30,
      uploadKbitPerSecond: 0,
      downloadKbitPerSecond: 0,
      uploadQuotaKB: 0,
      downloadQuotaKB: 0,
      custom: Buffer.from('capture-session').toString('base64'),
    });
    keep(
      'authmon acknowledges the grant it applied: auth_get=view, payload "* <rhid>"',
      await find('authmon ack', (r) => r.action === 'view' && r.payload.includes(rhid)),
    );
    const poller = harness.gateway.runScript(REVOCATION_POLL, [String(POLL_S)]);
    try {
      keep(
        'revocation-poll.sh polls: auth_get=custom, payload "revocations"',
        await find('revocations poll', (r) => r.action === 'custom' && r.payload === 'revocations'),
      );
      harness.internet.revoke(rhid);
      keep(
        'revocation-poll.sh reports the session it ended: auth_get=custom, payload "revoked <rhid>"',
        await find('revoked report', (r) => r.action === 'custom' && r.payload.startsWith('revoked ')),
      );
    } finally {
      await stopChild(poller);
    }
    keep('BinAuth (binauth_log.sh) reports the end: auth_get=deauthed', await find('deauthed notice', (r) => r.action === 'deauthed'));
  } finally {
    await harness.stop();
  }
}

const version = (await run('dpkg-query', ['-W', '-f', '${Version}', 'opennds'])).stdout.trim();
process.stdout.write(
  `${JSON.stringify(
    {
      controller: 'opennds',
      release: `openNDS ${version} (Debian package opennds)`,
      source: `recorded from the real openNDS ${version} (Debian's package, scripts/ensure-opennds.sh) by scripts/opennds/record-captures.ts: openNDS in network namespaces at FAS levels 1, 2 and 3 in front of a stand-in FAS; a client opening a page and following the redirect (each arrival: the Location openNDS answered and the request the FAS received); at level 3 the POSTs authmon, BinAuth (binauth_log.sh) and router/revocation-poll.sh sent through the signing router/post-request.php, as they came`,
      faskey: FASKEY,
      gatewayName: GATEWAY_NAME,
      gatewayAddress,
      client,
      originUrl,
      faspath: FAS_PATH,
      arrivals,
      authmon,
    },
    null,
    2,
  )}\n`,
);
