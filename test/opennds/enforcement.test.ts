import test from 'ava';
import { authUrl, type OpenndsFasQuery } from '../../edge/controllers/opennds.js';
import { decryptFasQuery, rhidOf } from '../../edge/opennds-crypto.js';
import { waitFor } from '../../scripts/opennds/command.js';
import { startHarness, type Harness } from '../../scripts/opennds/harness.js';
import { INTERNET_MARKER } from '../../scripts/opennds/internet-marker.js';
import { LAN_INTERFACE, type ClientHost } from '../../scripts/opennds/topology.js';
import { get, reachesInternet } from './client-http.js';
import { enforcementSkipReason } from './host-support.js';

// Debian's openNDS 9.10 really enforcing, in network namespaces (two clients, the
// gateway, an "internet" with a web server and a stand-in FAS at level 2: the query encrypted
// as at level 3, over http). The clients speak plain http with curl, as a browser would.
const FASKEY = 'ndst-faskey-0123456789abcdef';
const GATEWAY_NAME = 'ndst-venue-1';
const FAS_PORT = 8090;
const FAS_PATH = '/opennds/fas';
const DEADLINE_MS = 5000;
const CHECK_INTERVAL_S = 2;

const skipReason = await enforcementSkipReason();

let harness: Harness | undefined;

function need(): Harness {
  if (harness === undefined) throw new Error('harness not started');
  return harness;
}

function clientAt(index: number): ClientHost {
  const client = need().topology.clients[index];
  if (client === undefined) throw new Error(`no client ${index}`);
  return client;
}

const internetUrl = () => `http://${need().topology.internet.ip}/hello`;

/** The FAS query openNDS redirected this client with, as the FAS receives and decrypts it. */
async function fasArrival(client: ClientHost): Promise<OpenndsFasQuery> {
  const answer = await get(client, internetUrl());
  const url = new URL(answer.location);
  const query = decryptFasQuery(url.searchParams.get('fas') ?? '', url.searchParams.get('iv') ?? '', FASKEY);
  if (query === undefined) throw new Error(`redirect query did not decrypt (status ${answer.status})`);
  return query;
}

if (skipReason !== undefined) {
  // Reported as skipped (TAP "# SKIP", counted so by scripts/test-run.ts), the reason in its title.
  test.skip(`openNDS enforcement: ${skipReason}`, (t) => t.pass());
} else {
  test.before(async () => {
    const startedAt = Date.now();
    harness = await startHarness({
      // Clients 1 and 2 have DHCP leases; client 3 has none.
      clients: 3,
      leased: 2,
      gatewayName: GATEWAY_NAME,
      fas: { port: FAS_PORT, path: FAS_PATH, secureLevel: 2, key: FASKEY },
      // Quotas and timeouts are checked every checkinterval: short, so the quota test is quick.
      gateway: { checkIntervalSeconds: CHECK_INTERVAL_S },
    });
    process.stdout.write(`# openNDS harness up in ${Date.now() - startedAt} ms\n`);
  });

  test.after.always(async () => {
    await harness?.stop();
  });

  test.afterEach.always((t) => {
    if (!t.passed && harness !== undefined) t.log(`openNDS output (MACs removed):\n${harness.gateway.output().slice(-4000)}`);
  });

  test.serial("before sign-in, a client's plain-http GET is answered by openNDS with a redirect to the FAS, not by the server", async (t) => {
    for (const index of [0, 1]) {
      const answer = await get(clientAt(index), internetUrl());
      t.is(answer.status, 307);
      t.true(answer.location.startsWith(`http://${need().topology.internet.ip}:${FAS_PORT}${FAS_PATH}?fas=`), answer.location.slice(0, 60));
      t.false(answer.body.includes(INTERNET_MARKER));
    }
  });

  test.serial('the FAS receives the redirect, and its encrypted query decrypts into the client, the gateway and the original URL', async (t) => {
    const client = clientAt(0);
    const answer = await get(client, internetUrl());
    const fasAnswer = await get(client, answer.location);
    t.is(fasAnswer.status, 200, 'openNDS lets a preauthenticated client reach the FAS');
    const received = await waitFor('FAS request recorded', async () => need().internet.fasRequests.at(-1), DEADLINE_MS);
    const url = new URL(received, 'http://fas.invalid');
    t.is(url.pathname, FAS_PATH);
    const query = decryptFasQuery(url.searchParams.get('fas') ?? '', url.searchParams.get('iv') ?? '', FASKEY);
    t.is(query?.clientip, client.ip);
    t.true(query?.clientmac === client.mac, "clientmac is the client's (not printed: a MAC never goes to a log)");
    t.is(query?.gatewayname, GATEWAY_NAME);
    t.is(query?.gatewayaddress, `${need().topology.gateway.lanIp}:2050`);
    t.is(query?.originurl, internetUrl());
    t.is(query?.clientif, LAN_INTERFACE);
    t.regex(query?.hid ?? '', /^[0-9a-f]{64}$/);
    t.is(decryptFasQuery(url.searchParams.get('fas') ?? '', url.searchParams.get('iv') ?? '', 'another-key'), undefined);
  });

  test.serial('ndsctl auth opens the network for that client only; ndsctl deauth closes it again', async (t) => {
    const [first, second] = [clientAt(0), clientAt(1)];
    const auth = await need().gateway.ndsctl('auth', first.ip);
    t.is(auth.code, 0, auth.stdout);
    const openedAt = Date.now();
    const through = await waitFor(
      'first client reaches the server',
      async () => {
        const answer = await get(first, internetUrl());
        return reachesInternet(answer) ? answer : undefined;
      },
      DEADLINE_MS,
    );
    t.log(`auth -> first byte through the gateway: ${Date.now() - openedAt} ms`);
    t.true(through.body.includes(first.ip), "the server sees the client's own address (no NAT)");
    const other = await get(second, internetUrl());
    t.is(other.status, 307, 'the second client on the same gateway stays captive');
    t.false(reachesInternet(other));

    const deauth = await need().gateway.ndsctl('deauth', first.ip);
    t.is(deauth.code, 0, deauth.stdout);
    const closedAt = Date.now();
    const blocked = await waitFor(
      'first client blocked again',
      async () => {
        const answer = await get(first, internetUrl());
        return reachesInternet(answer) ? undefined : answer;
      },
      DEADLINE_MS,
    );
    t.log(`deauth -> cut off: ${Date.now() - closedAt} ms`);
    t.is(blocked.status, 307);
  });

  test.serial("a wrong return hash grants nothing; the FAS's rhid = sha256(hid + faskey) at openNDS's authdir opens the network", async (t) => {
    const client = clientAt(1);
    const query = await fasArrival(client);
    const forged = await get(client, authUrl(query, rhidOf(query.hid, 'not-the-faskey'), internetUrl()));
    t.not(forged.status, 0, 'openNDS answered the forged tok');
    t.false(reachesInternet(await get(client, internetUrl())), 'still captive after a forged tok');

    const signedIn = await get(client, authUrl(query, rhidOf(query.hid, FASKEY), internetUrl()));
    t.not(signedIn.status, 0);
    await waitFor(
      'client reaches the server after the FAS sign-in',
      async () => (reachesInternet(await get(client, internetUrl())) ? true : undefined),
      DEADLINE_MS,
    );
    t.is((await get(clientAt(0), internetUrl())).status, 307, 'the other client stays captive');
    t.is((await need().gateway.ndsctl('deauth', client.ip)).code, 0);
    await waitFor('client blocked after deauth', async () => (reachesInternet(await get(client, internetUrl())) ? undefined : true), DEADLINE_MS);
    t.pass();
  });

  test.serial('a client without a DHCP lease is refused (403) and cannot be authorised', async (t) => {
    const client = clientAt(2);
    t.is((await get(client, internetUrl())).status, 403);
    const auth = await need().gateway.ndsctl('auth', client.ip);
    t.regex(auth.stdout, /Failed to authenticate/);
    t.is((await get(client, internetUrl())).status, 403);
    t.true(need().gateway.output().includes(`IP not allocated by dhcp [${client.ip}]`));
  });

  test.serial('a download quota given with ndsctl auth cuts the client off once used, within a few check intervals', async (t) => {
    const client = clientAt(0);
    // ndsctl auth <ip> <minutes> <upload kbit/s> <download kbit/s> <upload kB> <download kB>: 0 is no limit.
    const auth = await need().gateway.ndsctl('auth', client.ip, '0', '0', '0', '0', '100');
    t.is(auth.code, 0, auth.stdout);
    await waitFor('client reaches the server', async () => (reachesInternet(await get(client, internetUrl())) ? true : undefined), DEADLINE_MS);
    const download = await get(client, `http://${need().topology.internet.ip}/bytes/1000000`);
    t.is(download.status, 200, 'the quota is enforced at the next check, not within a transfer');
    const usedAt = Date.now();
    await waitFor(
      'client cut off after its quota',
      async () => (reachesInternet(await get(client, internetUrl())) ? undefined : true),
      4 * CHECK_INTERVAL_S * 1000 + DEADLINE_MS,
      250,
    );
    t.log(`quota used -> cut off: ${Date.now() - usedAt} ms (checkinterval ${CHECK_INTERVAL_S} s)`);
    t.true(need().gateway.output().includes(`Download quota reached, deauthenticating: ${client.ip}`), 'openNDS says why (LOG_NOTICE, debuglevel 1)');
    t.is((await get(clientAt(1), internetUrl())).status, 307, 'the other client was never let through');
  });
}
