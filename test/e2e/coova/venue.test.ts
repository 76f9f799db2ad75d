import test, { type ExecutionContext } from 'ava';
import { waitFor } from '../../../scripts/opennds/command.js';
import { requireTools } from '../../helpers/host-tools.js';
import { COOVA_GATEWAYS } from '../../../scripts/coova/gateways.js';
import { chilliBinary, COOVA_TOOLS, RELEASES, startChilli, type Release, type RunningChilli } from '../../../scripts/coova/harness.js';
import { get, reachesInternet } from '../../opennds/client-http.js';
import { browse } from '../../opennds/portal-client.js';

// A real CoovaChilli, both releases (built from their sources by scripts/ensure-coova.sh), in
// network namespaces in front of the platform the harness started (scripts/test-run.ts: Keycloak,
// the services, FreeRADIUS), registered as coova-18 and coova-19 in fixtures/gateways.json with a
// UAM secret and macAuthentication. The whole venue flow, one chilli per release: a lease,
// captive, the portal's arrival (from an ordinary page and from chilli's /prelogin), the
// customer's sign-in, chilli's /logon, traffic through, Start and Interim octets on the page,
// logout (Disconnect ACKed, captive again), the spent credential replayed; a device that left and
// came back gets in by chilli's macauth, the session service's revoke cuts it off; an employee's
// sign-in, cut off by the HR webhook's subject revoke; /logoff at chilli ends the network session.
// chilli signs the URL it redirects to: the portal's public address, as the started portal has it.
const PORTAL = process.env['PORTAL_PUBLIC_URL'] ?? 'http://localhost:3000';
const GATEWAY = process.env['GATEWAY_URL'] ?? 'http://127.0.0.1:3004';
const SESSION = process.env['SESSION_URL'] ?? 'http://127.0.0.1:3003';
const GATEWAY_KEY = 'dev-gateway-tools-key';
const SESSION_KEY = 'dev-session-tools-key';
// The key Keycloak's svc-admin webhook calls the subject revoke with (EMPLOYEE_TERMINATED).
const KEYCLOAK_SESSION_KEY = 'dev-session-keycloak-key';
const RADIUS = { server: '127.0.0.1', auth: Number(process.env['RADIUS_AUTH_PORT'] ?? 1812), acct: Number(process.env['RADIUS_ACCT_PORT'] ?? 1813) };
const CUSTOMER = { username: 'bob@example.com', password: 'bob-demo-pass' };
const EMPLOYEE = { employeeId: 'C-3002', citizenId: '079203005678' };

// What this file runs, checked when it loads: a missing program fails it at once, naming it.
requireTools(
  [...COOVA_TOOLS, '/dev/net/tun', ...RELEASES.flatMap((release) => [chilliBinary(release), chilliBinary(release, 'chilli_query')])],
  'scripts/ensure-coova.sh installs and builds them (as root; make test runs it)',
);
if (process.getuid?.() !== 0) throw new Error("the CoovaChilli tests need root (network namespaces, chilli's tun device)");

type Json = Record<string, unknown>;
const readJson = async (url: string, key: string) => (await (await fetch(url, { headers: { 'X-API-Key': key } })).json()) as Json;
const connectionOf = (sessionId: string) => readJson(`${GATEWAY}/api/v1/connections/${sessionId}`, GATEWAY_KEY);
const sessionOf = (sessionId: string) => readJson(`${SESSION}/api/v1/sessions/${sessionId}`, SESSION_KEY);
const untilConnection = (sessionId: string, probe: (connection: Json) => boolean, what: string) =>
  waitFor(
    `the connection ${what}`,
    async () => {
      const connection = await connectionOf(sessionId);
      return probe(connection) ? connection : undefined;
    },
    20_000,
    200,
  );
const withoutMac = (text: string) => text.replace(/mac=[^&]*/g, 'mac=<mac>').replace(/\b[0-9A-F]{2}(-[0-9A-F]{2}){5}\b/gi, '<mac>');

const chillis = new Map<Release, RunningChilli>();
test.after.always(async () => {
  for (const chilli of chillis.values()) await chilli.stop();
});

/** The release's chilli, started (and the client leased) by the first test of the release. */
async function venueOf(t: ExecutionContext, release: Release): Promise<RunningChilli> {
  const running = chillis.get(release);
  if (running !== undefined) return running;
  const chilli = await startChilli({ release, ...COOVA_GATEWAYS[release], portal: PORTAL, radius: RADIUS });
  chillis.set(release, chilli);
  const leased = await chilli.lease();
  t.regex(leased, new RegExp(`^10\\.71\\.${COOVA_GATEWAYS[release].subnet}\\.\\d+$`), "the client's lease comes from chilli");
  return chilli;
}

/** Reports chilli's own output with a failure (MACs removed). */
async function withOutput(t: ExecutionContext, chilli: RunningChilli, steps: () => Promise<void>): Promise<void> {
  try {
    await steps();
  } catch (error) {
    t.log(`chilli ${chilli.release} output (MACs removed):\n${chilli.output().slice(-3000)}`);
    throw error;
  }
  if (!t.passed) t.log(`chilli ${chilli.release} output (MACs removed):\n${chilli.output().slice(-3000)}`);
}

/** The captive page's redirect to the portal, signed by chilli (md). */
async function captiveRedirect(t: ExecutionContext, chilli: RunningChilli): Promise<string> {
  const captive = await waitFor(
    'chilli redirects a captive page',
    async () => {
      const answer = await get(chilli.client, chilli.internetUrl);
      t.false(reachesInternet(answer), 'captive before sign-in');
      return answer.status === 302 ? answer : undefined;
    },
    10_000,
    200,
  );
  t.true(captive.location.startsWith(`${PORTAL}/gateway?res=notyet&uamip=${chilli.settings.uamListen}&uamport=3990&challenge=`), withoutMac(captive.location));
  t.regex(captive.location, /&md=[0-9A-F]{32}$/);
  return captive.location;
}

const untilThrough = (chilli: RunningChilli, timeoutMs = 15_000) =>
  waitFor(
    'the client reaches the internet through chilli',
    async () => (reachesInternet(await get(chilli.client, chilli.internetUrl)) ? true : undefined),
    timeoutMs,
    200,
  );
const untilCaptive = (chilli: RunningChilli) =>
  waitFor(
    'captive again',
    async () => {
      const again = await get(chilli.client, chilli.internetUrl);
      return !reachesInternet(again) && again.status === 302 ? true : undefined;
    },
    10_000,
    100,
  );

interface SignedIn {
  sessionId: string;
  /** chilli's /logon with the one-time credential the page hands over. */
  logonUrl: string;
}

/** Arrival, sign-in (customer or employee), then chilli's /logon, answered res=success and "You are connected". */
async function signInThroughChilli(t: ExecutionContext, chilli: RunningChilli, who: 'customer' | 'employee'): Promise<SignedIn> {
  const arrival = await browse(chilli.folder, chilli.client, await captiveRedirect(t, chilli));
  t.is(arrival.status, 303, `arrival: ${arrival.body.slice(0, 400)}`);
  t.is(arrival.location, `${PORTAL}/`);
  const login =
    who === 'customer'
      ? await browse(chilli.folder, chilli.client, `${PORTAL}/api/v1/auth/login`, CUSTOMER)
      : await browse(chilli.folder, chilli.client, `${PORTAL}/api/v1/auth/employee`, EMPLOYEE);
  t.is(login.status, 200, login.body.slice(0, 400));
  const body = JSON.parse(login.body) as { gateway?: { loginUrl: string; method: string; fields: Record<string, string> } };
  const sessionId = /"(sess-[0-9a-f-]{36})"/.exec(login.body)?.[1];
  if (sessionId === undefined) throw new Error(`no session in the sign-in answer: ${login.body.slice(0, 400)}`);
  t.is(body.gateway?.loginUrl, `${chilli.uamOrigin}/logon`, "the registry's login URL");
  t.is(body.gateway?.method, 'GET');
  const logonUrl = `${body.gateway?.loginUrl ?? ''}?${new URLSearchParams(body.gateway?.fields ?? {}).toString()}`;
  const logon = await browse(chilli.folder, chilli.client, logonUrl);
  t.is(logon.status, 302, `logon: ${logon.status} ${logon.body.slice(0, 200)}`);
  t.regex(logon.location, new RegExp(`^${PORTAL}/gateway\\?res=success&`), `logon went to ${withoutMac(logon.location)}`);
  const connected = await browse(chilli.folder, chilli.client, logon.location);
  t.is(connected.status, 200);
  t.regex(connected.body, /You are connected/);
  return { sessionId, logonUrl };
}

const revokeSession = async (sessionId: string) =>
  (await fetch(`${SESSION}/api/v1/sessions/${sessionId}/revoke`, { method: 'POST', headers: { 'X-API-Key': SESSION_KEY } })).status;

for (const release of RELEASES) {
  test.serial(
    `CoovaChilli ${release}: captive, the portal's arrival (ordinary page and /prelogin), the customer's sign-in, /logon, traffic, Start and Interim octets on the page, logout: Disconnect ACKed, captive again; the spent credential replayed is refused`,
    async (t) => {
      const chilli = await venueOf(t, release);
      await withOutput(t, chilli, async () => {
        // chilli's own /prelogin sends the device to the portal too.
        const prelogin = await get(chilli.client, `${chilli.uamOrigin}/prelogin`);
        t.is(prelogin.status, 302);
        const fromPrelogin = await browse(chilli.folder, chilli.client, prelogin.location);
        t.is(fromPrelogin.status, 303, `arrival from /prelogin: ${fromPrelogin.body.slice(0, 400)}`);

        const { sessionId, logonUrl } = await signInThroughChilli(t, chilli, 'customer');
        await untilThrough(chilli);
        await untilConnection(sessionId, (c) => c['state'] === 'CONNECTED', 'reads CONNECTED (Accounting-Start)');
        // chilli takes no Acct-Interim-Interval under 60 s from RADIUS; the operator's own
        // chilli_query sets this session's to 1 s so an Interim-Update comes within the test.
        await chilli.query('update', 'ip', chilli.client.ip, 'interiminterval', '1', 'sessiontimeout', '3600');
        t.true(reachesInternet(await get(chilli.client, `${chilli.internetUrl}?after-start`)));
        const counted = await untilConnection(
          sessionId,
          (c) => Number(c['inputOctets']) > 0 && Number(c['outputOctets']) > 0,
          'counts octets (Interim-Update)',
        );
        const page = JSON.parse((await browse(chilli.folder, chilli.client, `${PORTAL}/api/v1/auth/session`)).body) as {
          connection?: { state?: string; inputOctets?: number; outputOctets?: number };
        };
        t.is(page.connection?.state, 'CONNECTED', 'the page shows the device connected');
        t.true(
          (page.connection?.inputOctets ?? 0) >= Number(counted['inputOctets']) && (page.connection?.outputOctets ?? 0) > 0,
          `the page shows the octets: ${JSON.stringify(page.connection)}`,
        );
        t.log(`chilli ${release}: ${withoutMac(await chilli.query('list')).trim()}`);

        // Logout at the portal: the platform's Disconnect-Request, ACKed by chilli; captive again.
        const logout = await browse(chilli.folder, chilli.client, `${PORTAL}/api/v1/auth/logout`, {});
        t.true([200, 204].includes(logout.status), logout.body.slice(0, 300));
        t.like(await untilConnection(sessionId, (c) => c['state'] === 'DISCONNECTED', 'reads DISCONNECTED'), { disconnect: 'ACKED' });
        await untilCaptive(chilli);

        // The spent credential at /logon again: RADIUS rejects it and the device stays captive. 1.8
        // sends the browser to the portal with res=failed, whose page says the Wi-Fi did not let the
        // person in; 1.9 sends no HTTP answer at all after the Access-Reject (its redir.c: "Unknown
        // res in switch"), so the person sees the browser's own error page.
        const replay = await browse(chilli.folder, chilli.client, logonUrl);
        t.false(replay.location.includes('res=success'), 'a spent credential is never accepted');
        if (release === '1.9') {
          t.is(replay.status, 0, '1.9 answers the refused /logon with nothing');
        } else {
          t.is(replay.status, 302);
          t.regex(replay.location, new RegExp(`^${PORTAL}/gateway\\?res=failed&`));
          const seen = await browse(chilli.folder, chilli.client, replay.location);
          t.is(seen.status, 200);
          t.regex(seen.body, /The Wi-Fi did not let you in/);
          t.regex(seen.body, /<a href="\/">Try again<\/a>/);
        }
        t.false(reachesInternet(await get(chilli.client, chilli.internetUrl)), 'still captive after the refused replay');
      });
    },
  );

  test.serial(
    `CoovaChilli ${release}: a device that left gets back in by chilli's macauth while its sign-in lasts; the session service's revoke: Disconnect ACKed, captive again`,
    async (t) => {
      const chilli = await venueOf(t, release);
      await withOutput(t, chilli, async () => {
        const { sessionId } = await signInThroughChilli(t, chilli, 'customer');
        await untilThrough(chilli);
        await untilConnection(sessionId, (c) => c['state'] === 'CONNECTED', 'reads CONNECTED');
        // The device leaves: chilli releases its lease (Stop, Admin-Reset), the sign-in lasts.
        await chilli.query('dhcp-release', chilli.client.mac.replace(/:/g, '-'));
        t.like(await untilConnection(sessionId, (c) => c['state'] === 'DISCONNECTED', 'reads DISCONNECTED (Stop)'), { disconnect: null });
        t.is((await sessionOf(sessionId))['state'], 'GRANTED');
        // It comes back: a new lease, chilli's MAC authentication, through with no sign-in.
        await chilli.lease();
        await untilThrough(chilli);
        await untilConnection(sessionId, (c) => c['state'] === 'CONNECTED', 'reads CONNECTED again (Accounting-Start after macauth)');

        const revokedAt = Date.now();
        t.is(await revokeSession(sessionId), 200);
        t.like(await untilConnection(sessionId, (c) => c['state'] === 'DISCONNECTED', 'reads DISCONNECTED'), { disconnect: 'ACKED' });
        await untilCaptive(chilli);
        t.log(`chilli ${release}: revoke -> captive ${Date.now() - revokedAt} ms`);
      });
    },
  );

  test.serial(`CoovaChilli ${release}: an employee's sign-in through chilli; the HR webhook's subject revoke: Disconnect ACKed, captive again`, async (t) => {
    const chilli = await venueOf(t, release);
    await withOutput(t, chilli, async () => {
      const { sessionId } = await signInThroughChilli(t, chilli, 'employee');
      await untilThrough(chilli);
      await untilConnection(sessionId, (c) => c['state'] === 'CONNECTED', 'reads CONNECTED');
      const subjectId = String((await sessionOf(sessionId))['subjectId']);
      // kc-extension/svc-admin/webhook.ts makes this call for EMPLOYEE_TERMINATED, with Keycloak's key.
      const answer = await fetch(`${SESSION}/api/v1/subjects/${subjectId}/revoke`, {
        method: 'POST',
        headers: { 'X-API-Key': KEYCLOAK_SESSION_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ reason: 'EMPLOYEE_TERMINATED' }),
      });
      t.is(answer.status, 200);
      t.true(((await answer.json()) as { revoked: string[] }).revoked.includes(sessionId));
      t.like(await untilConnection(sessionId, (c) => c['state'] === 'DISCONNECTED', 'reads DISCONNECTED'), { disconnect: 'ACKED' });
      await untilCaptive(chilli);
    });
  });

  test.serial(
    `CoovaChilli ${release}: /logoff at chilli (Stop, Acct-Terminate-Cause User-Request) ends the network session; the page says logged off`,
    async (t) => {
      const chilli = await venueOf(t, release);
      await withOutput(t, chilli, async () => {
        const { sessionId } = await signInThroughChilli(t, chilli, 'customer');
        await untilThrough(chilli);
        await untilConnection(sessionId, (c) => c['state'] === 'CONNECTED', 'reads CONNECTED');
        const logoff = await get(chilli.client, `${chilli.uamOrigin}/logoff`);
        t.is(logoff.status, 302);
        t.regex(logoff.location, new RegExp(`^${PORTAL}/gateway\\?res=logoff&`));
        const seen = await browse(chilli.folder, chilli.client, logoff.location);
        t.regex(seen.body, /You are logged off/);
        t.like(await untilConnection(sessionId, (c) => c['state'] === 'DISCONNECTED', 'reads DISCONNECTED'), { disconnect: null });
        await waitFor('the network session ends', async () => ((await sessionOf(sessionId))['state'] === 'REVOKED' ? true : undefined), 10_000, 200);
        await untilCaptive(chilli);
      });
    },
  );
}
