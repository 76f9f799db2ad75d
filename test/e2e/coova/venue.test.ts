import test from 'ava';
import { waitFor } from '../../../scripts/opennds/command.js';
import { requireTools } from '../../helpers/host-tools.js';
import { COOVA_GATEWAYS } from '../../../scripts/coova/gateways.js';
import { chilliBinary, COOVA_TOOLS, RELEASES, startChilli, type RunningChilli } from '../../../scripts/coova/harness.js';
import { get, reachesInternet } from '../../opennds/client-http.js';
import { browse } from '../../opennds/portal-client.js';

// A real CoovaChilli, both releases (built from their sources by scripts/ensure-coova.sh), in
// network namespaces in front of the platform the harness started (scripts/test-run.ts: Keycloak,
// the services, FreeRADIUS), registered as coova-18 and coova-19 in fixtures/gateways.json with a
// UAM secret. The whole venue flow: a lease from chilli, captive, the portal's arrival (from an
// ordinary page and from chilli's /prelogin), the customer's sign-in, chilli's /logon, traffic
// through, accounting on the page, logout: Disconnect ACKed and captive again.
// chilli signs the URL it redirects to: the portal's public address, as the started portal has it.
const PORTAL = process.env['PORTAL_PUBLIC_URL'] ?? 'http://localhost:3000';
const GATEWAY = process.env['GATEWAY_URL'] ?? 'http://127.0.0.1:3004';
const GATEWAY_KEY = 'dev-gateway-tools-key';
const RADIUS = { server: '127.0.0.1', auth: Number(process.env['RADIUS_AUTH_PORT'] ?? 1812), acct: Number(process.env['RADIUS_ACCT_PORT'] ?? 1813) };
const CUSTOMER = { username: 'bob@example.com', password: 'bob-demo-pass' };

// What this file runs, checked when it loads: a missing program fails it at once, naming it.
requireTools([...COOVA_TOOLS, '/dev/net/tun', ...RELEASES.flatMap((release) => [chilliBinary(release), chilliBinary(release, 'chilli_query')])], 'scripts/ensure-coova.sh installs and builds them (as root; make test runs it)');
if (process.getuid?.() !== 0) throw new Error('the CoovaChilli tests need root (network namespaces, chilli\'s tun device)');

const connectionOf = async (sessionId: string) => (await (await fetch(`${GATEWAY}/api/v1/connections/${sessionId}`, { headers: { 'X-API-Key': GATEWAY_KEY } })).json()) as Record<string, unknown>;
const untilConnection = (sessionId: string, probe: (connection: Record<string, unknown>) => boolean, what: string) =>
  waitFor(`the connection ${what}`, async () => {
    const connection = await connectionOf(sessionId);
    return probe(connection) ? connection : undefined;
  }, 20_000, 200);


for (const release of RELEASES) {
  test.serial(`CoovaChilli ${release}: lease, captive, the portal's arrival (ordinary page and /prelogin), sign-in, /logon, traffic, accounting on the page, logout: Disconnect ACKed, captive again`, async (t) => {
    const gateway = COOVA_GATEWAYS[release];
    const chilli: RunningChilli = await startChilli({ release, ...gateway, portal: PORTAL, radius: RADIUS });
    t.teardown(() => chilli.stop());
    const fail = (what: string) => `${what}\nchilli ${release} output (MACs removed):\n${chilli.output().slice(-3000)}`;
    try {
      const leased = await chilli.lease();
      t.regex(leased, new RegExp(`^10\\.71\\.${gateway.subnet}\\.\\d+$`), 'the client\'s lease comes from chilli');
      const { client } = chilli;

      // Captive: an ordinary page is a redirect to the portal's arrival, signed (md).
      const captive = await waitFor('chilli redirects a captive page', async () => {
        const answer = await get(client, chilli.internetUrl);
        t.false(reachesInternet(answer), 'captive before sign-in');
        return answer.status === 302 ? answer : undefined;
      }, 10_000, 200);
      t.true(captive.location.startsWith(`${PORTAL}/gateway?res=notyet&uamip=10.71.${gateway.subnet}.1&uamport=3990&challenge=`), captive.location.replace(/mac=[^&]*/, 'mac=<mac>'));
      t.regex(captive.location, /&md=[0-9A-F]{32}$/);
      const arrival = await browse(chilli.folder, client, captive.location);
      t.is(arrival.status, 303, fail(`arrival: ${arrival.body.slice(0, 400)}`));
      t.is(arrival.location, `${PORTAL}/`);

      // chilli's own /prelogin sends the device to the portal too.
      const prelogin = await get(client, `${chilli.uamOrigin}/prelogin`);
      t.is(prelogin.status, 302);
      const fromPrelogin = await browse(chilli.folder, client, prelogin.location);
      t.is(fromPrelogin.status, 303, fail(`arrival from /prelogin: ${fromPrelogin.body.slice(0, 400)}`));

      // The customer's sign-in; the page hands the device to chilli's /logon.
      const login = await browse(chilli.folder, client, `${PORTAL}/api/v1/auth/login`, CUSTOMER);
      t.is(login.status, 200, login.body.slice(0, 400));
      const body = JSON.parse(login.body) as { gateway?: { loginUrl: string; method: string; fields: Record<string, string> }; connection?: { sessionId?: string } };
      const sessionId = /"(sess-[0-9a-f-]{36})"/.exec(login.body)?.[1];
      t.truthy(sessionId, login.body.slice(0, 400));
      t.is(body.gateway?.loginUrl, `${chilli.uamOrigin}/logon`, 'the registry\'s login URL');
      t.is(body.gateway?.method, 'GET');
      const logon = await browse(chilli.folder, client, `${body.gateway?.loginUrl ?? ''}?${new URLSearchParams(body.gateway?.fields ?? {}).toString()}`);
      t.is(logon.status, 302, fail(`logon: ${logon.status} ${logon.body.slice(0, 200)}`));
      t.regex(logon.location, new RegExp(`^${PORTAL}/gateway\\?res=success&`), fail(`logon went to ${logon.location.replace(/mac=[^&]*/, 'mac=<mac>')}`));
      const connected = await browse(chilli.folder, client, logon.location);
      t.is(connected.status, 200);
      t.regex(connected.body, /You are connected/);

      // Traffic passes; chilli's Accounting-Start reaches the platform and the page.
      await waitFor('the client reaches the internet through chilli', async () => (reachesInternet(await get(client, chilli.internetUrl)) ? true : undefined), 15_000, 200);
      await untilConnection(sessionId!, (c) => c['state'] === 'CONNECTED', 'reads CONNECTED (Accounting-Start)');
      const page = JSON.parse((await browse(chilli.folder, client, `${PORTAL}/api/v1/auth/session`)).body) as { connection?: { state?: string } };
      t.is(page.connection?.state, 'CONNECTED', 'the page shows the device connected');
      t.log(`chilli ${release}: ${await chilli.query('list').then((l) => l.replace(/\b[0-9A-F]{2}(-[0-9A-F]{2}){5}\b/g, '<mac>').trim())}`);

      // Logout at the portal: the platform's Disconnect-Request, ACKed by chilli; captive again.
      const logout = await browse(chilli.folder, client, `${PORTAL}/api/v1/auth/logout`, {});
      t.true([200, 204].includes(logout.status), logout.body.slice(0, 300));
      t.like(await untilConnection(sessionId!, (c) => c['state'] === 'DISCONNECTED', 'reads DISCONNECTED'), { disconnect: 'ACKED' });
      await waitFor('captive again', async () => {
        const again = await get(client, chilli.internetUrl);
        return !reachesInternet(again) && again.status === 302 ? true : undefined;
      }, 10_000, 200);

      // The spent credential at /logon again: refused, the device stays captive. 1.8 answers with
      // its res=failed redirect; 1.9 may send no HTTP answer at all after the Access-Reject
      // (its redir.c: "Unknown res in switch"), which the test reports rather than hides.
      const replay = await browse(chilli.folder, client, `${body.gateway?.loginUrl ?? ''}?${new URLSearchParams(body.gateway?.fields ?? {}).toString()}`);
      t.false(replay.location.includes('res=success'), 'a spent credential is never accepted');
      t.log(`chilli ${release}: the spent credential at /logon answered ${replay.status === 0 ? 'nothing (no HTTP answer)' : `${replay.status} ${replay.location.replace(/[?].*$/, '')}?res=${/res=(\w+)/.exec(replay.location)?.[1] ?? ''}`}`);
      t.false(reachesInternet(await get(client, chilli.internetUrl)), 'still captive after the refused replay');
    } catch (error) {
      t.log(fail('failed'));
      throw error;
    }
  });
}
