import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { startFreeradius, writeFreeradiusConfig } from '../../../edge/freeradius-site.js';
import { deviceRefFor } from '../../../edge/index.js';
import { waitFor } from '../../../scripts/opennds/command.js';
import { chilliBinary, COOVA_TOOLS, RELEASES, startChilli, type RunningChilli } from '../../../scripts/coova/harness.js';
import { GatewayConfig } from '../../../services/gateway/config.js';
import { createSealer, listen } from '../../../services/kit/index.js';
import { createApp as createSessionApp } from '../../../services/session/app.js';
import { SessionConfig } from '../../../services/session/config.js';
import { requireTools } from '../../helpers/host-tools.js';
import { capturingLogger } from '../../helpers/service.js';
import { get, reachesInternet } from '../../opennds/client-http.js';
import { bootGateway, openGatewayDb, tempDir } from '../../services/gateway/platform.js';
import { freeUdpPort } from '../../services/gateway/radclient.js';
import { grantBody, KEY as SESSION_PORTAL_KEY, openSessionDb, subject, TestClock } from '../../services/session/session-service.js';

// A data allowance really stops traffic at a real CoovaChilli: a device signs in with 300 kB left
// of its day, downloads more than that from a server outside chilli's namespaces, and chilli ends
// the session on its own (the Accept's ChilliSpot-Max-Total-Octets): the device is captive again.
// Its accounting (the Stop's octets) reaches the allowance counters, so the next sign-in is an
// Access-Reject and the device stays captive; when the clock passes the venue's midnight the
// same person signs in again and traffic passes. The session and gateway services run in this
// process on a clock the test moves (both read it: the gateway dates the usage, the session
// service counts it in its period), FreeRADIUS as the platform runs it on free ports, chilli in
// namespaces of its own (a NAS of its own, 127.0.0.28, so it never meets the venue test's).
requireTools(
  [...COOVA_TOOLS, '/dev/net/tun', ...RELEASES.flatMap((release) => [chilliBinary(release), chilliBinary(release, 'chilli_query')])],
  'scripts/ensure-coova.sh installs and builds them (as root; make test runs it)',
);
if (process.getuid?.() !== 0) throw new Error("the CoovaChilli tests need root (network namespaces, chilli's tun device)");

const NAS_ID = 'coova-allowance';
const NAS_IP = '127.0.0.28';
const SUBNET = 28;
const RADIUS_SECRET = 'coova-allowance-nas-secret';
const UAM_SECRET = 'coova-allowance-uam-secret';
const ALLOWANCE_BYTES = 300_000;
const DAY_MS = 86_400_000;

interface Venue {
  chilli: RunningChilli;
  /** Moves the services' clock (the test's days). */
  shift(ms: number): void;
  sessionUrl: string;
  gateway: Awaited<ReturnType<typeof bootGateway>>;
}

async function venue(t: ExecutionContext, release: (typeof RELEASES)[number]): Promise<Venue> {
  let offset = 0;
  const now = () => new Date(Date.now() + offset);
  const sessionDb = await openSessionDb('memory');
  t.teardown(() => sessionDb.close());
  const session = await createSessionApp(SessionConfig.parse({}), capturingLogger('session').logger, { db: sessionDb, now });
  const server = await listen(session.app, 0);
  t.teardown(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await session.close();
  });
  const sessionUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const coaPort = await freeUdpPort();
  const sealer = createSealer(GatewayConfig.parse({}).GATEWAY_SEAL_KEY);
  const gatewaysFile = `${tempDir(t, 'wifi-coova-allowance-')}/gateways.json`;
  writeFileSync(
    gatewaysFile,
    JSON.stringify({
      gateways: [
        {
          nasId: NAS_ID,
          profile: 'coovachilli',
          address: NAS_IP,
          secret: sealer.seal(RADIUS_SECRET),
          coaPort,
          uamSecret: sealer.seal(UAM_SECRET),
          loginUrls: [`http://10.71.${SUBNET}.1:3990/logon`],
        },
      ],
    }),
  );
  const gatewayDb = await openGatewayDb('memory');
  t.teardown(() => gatewayDb.close());
  const gateway = await bootGateway(t, gatewayDb, { SESSION_URL: sessionUrl, GATEWAYS_FILE: gatewaysFile, USAGE_PUSH_MS: '200', INTERIM_FLUSH_MS: '100' }, now);

  const [auth, acct] = [await freeUdpPort(), await freeUdpPort()];
  const radiusDir = tempDir(t, 'wifi-coova-allowance-radius-');
  writeFreeradiusConfig({
    dir: radiusDir,
    role: 'server',
    authPort: auth,
    acctPort: acct,
    restUrl: gateway.url,
    restKey: GatewayConfig.parse({}).RADIUS_API_KEY,
    clients: [{ name: NAS_ID, address: NAS_IP, secret: RADIUS_SECRET }],
    replayRetrySeconds: 4,
  });
  const radius = await startFreeradius(radiusDir, { debug: false });
  t.teardown(() => radius.stop());

  const chilli = await startChilli({
    release,
    nasId: NAS_ID,
    nasIp: NAS_IP,
    coaPort,
    subnet: SUBNET,
    radiusSecret: RADIUS_SECRET,
    uamSecret: UAM_SECRET,
    portal: 'http://localhost:3000',
    radius: { server: '127.0.0.1', auth, acct },
  });
  t.teardown(() => chilli.stop());
  t.teardown(() => {
    if (!t.passed) t.log(`chilli ${release} output:\n${chilli.output().slice(-3000)}\ngateway:\n${gateway.lines.slice(-60).join('\n')}`);
  });
  await chilli.lease();
  return { chilli, shift: (ms) => (offset += ms), sessionUrl, gateway };
}

/** A GRANTED session of a new person with a day's data allowance, valid three days. */
async function allowanceSession(sessionUrl: string, deviceRef: string): Promise<{ sessionId: string }> {
  const call = async (path: string, body: unknown) => {
    const answer = await fetch(`${sessionUrl}${path}`, {
      method: 'POST',
      headers: { ...SESSION_PORTAL_KEY, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await answer.json()) as Record<string, unknown>;
    if (!answer.ok) throw new Error(`${path}: ${answer.status} ${JSON.stringify(json)}`);
    return json;
  };
  const created = await call('/api/v1/sessions', { subjectId: subject(), deviceRef });
  const sessionId = String(created['sessionId']);
  await call(
    `/api/v1/sessions/${sessionId}/grant`,
    grantBody(new TestClock(new Date()), {
      validUntil: new Date(Date.now() + 3 * DAY_MS).toISOString(),
      deviceSlots: 2,
      allowance: { dataBytes: ALLOWANCE_BYTES, timeSeconds: null, period: 'DAY' },
    }),
  );
  return { sessionId };
}

/** The captive redirect's CHAP challenge, then chilli's /logon with the gateway's one-time credential and its CHAP answer. */
async function logon(venueOf: Venue, sessionId: string, deviceRef: string): Promise<{ status: number; location: string }> {
  const { chilli, gateway } = venueOf;
  const captive = await waitFor(
    'chilli redirects a captive page',
    async () => {
      const answer = await get(chilli.client, chilli.internetUrl);
      return answer.status === 302 ? answer : undefined;
    },
    10_000,
    200,
  );
  const challenge = new URL(captive.location).searchParams.get('challenge');
  if (challenge === null) throw new Error(`no challenge in ${captive.location}`);
  const issued = await gateway.issue({ sessionId, deviceRef, nasId: NAS_ID, challenge });
  if (issued.status !== 201) throw new Error(`issue: ${issued.status} ${issued.text}`);
  const { username, chapResponse } = issued.body as { username: string; chapResponse: string };
  const answer = await get(chilli.client, `${chilli.uamOrigin}/logon?${new URLSearchParams({ username, response: chapResponse }).toString()}`);
  return { status: answer.status, location: answer.location };
}

const remaining = async (sessionUrl: string, sessionId: string) => {
  const read = (await (await fetch(`${sessionUrl}/api/v1/sessions/${sessionId}`, { headers: SESSION_PORTAL_KEY })).json()) as {
    remaining?: { bytesRemaining: number | null } | null;
  };
  return read.remaining?.bytesRemaining;
};

/** Whether the client reaches the internet through chilli within 15 s. */
const passes = (chilli: RunningChilli) =>
  waitFor(
    'the client reaches the internet through chilli',
    async () => (reachesInternet(await get(chilli.client, chilli.internetUrl)) ? true : undefined),
    15_000,
    200,
  ).catch(() => false);

for (const release of RELEASES) {
  test.serial(
    `CoovaChilli ${release}: traffic past the data allowance stops (chilli's own cap from the Accept), the next sign-in is refused, the next day restores it`,
    async (t) => {
      const place = await venue(t, release);
      const { chilli } = place;
      const deviceRef = deviceRefFor(GatewayConfig.parse({}).DEVICE_REF_KEY, NAS_ID, chilli.client.mac);
      if (deviceRef === undefined) throw new Error('no deviceRef for the client');
      const { sessionId } = await allowanceSession(place.sessionUrl, deviceRef);

      const first = await logon(place, sessionId, deviceRef);
      t.is(first.status, 302);
      t.true(first.location.includes('res=success'), `logon went to ${first.location.replace(/mac=[^&]*/g, 'mac=<mac>')}`);
      t.true(await passes(chilli), 'traffic passes after the sign-in');
      // Later steps need this one: a failure ends the test here, as an assertion.
      if (!t.passed) return;

      // More than the allowance, from a server outside chilli's namespaces.
      const big = await get(chilli.client, `http://198.51.100.10/bytes/${4 * ALLOWANCE_BYTES}`);
      t.log(`the download answered ${big.status} with ${big.body.length} characters`);
      // chilli ends the session on its own once the octets pass the Accept's cap: captive again.
      const stopped = await waitFor(
        'chilli stops the traffic (captive again)',
        async () => {
          const again = await get(chilli.client, chilli.internetUrl);
          return !reachesInternet(again) && again.status === 302 ? true : undefined;
        },
        20_000,
        200,
      ).catch(() => false);
      t.true(stopped, 'traffic past the allowance stops: captive again');
      if (!t.passed) return;
      // The Stop's octets reach the person's counter for the day: nothing left.
      const counted = await waitFor(
        'the usage is counted',
        async () => ((await remaining(place.sessionUrl, sessionId)) === 0 ? true : undefined),
        30_000,
        200,
      ).catch(() => false);
      t.true(counted, 'the usage is counted: nothing left today');
      if (!t.passed) return;

      // Signing in again the same day: chilli's /logon is refused (Access-Reject naming the renewal).
      const refused = await logon(place, sessionId, deviceRef);
      t.false(refused.location.includes('res=success'), 'a sign-in with nothing left is refused');
      if (!t.passed) return;
      t.false(reachesInternet(await get(chilli.client, chilli.internetUrl)), 'still captive');

      // The next day (the services' clock past midnight): the allowance is whole again, traffic passes.
      place.shift(DAY_MS);
      t.is(await remaining(place.sessionUrl, sessionId), ALLOWANCE_BYTES);
      const nextDay = await logon(place, sessionId, deviceRef);
      t.true(nextDay.location.includes('res=success'), 'the next day signs in');
      t.true(await passes(chilli), 'traffic passes again the next day');
    },
  );
}
