import test from 'ava';
import { metricsRegistry } from '../../../services/kit/index.js';
import { waitFor } from '../../helpers/wait-for.js';
import {
  bootGateway,
  deviceRef,
  gatewaysFile,
  grantedSession,
  MAC,
  NAS,
  NAS_SECRET,
  openGatewayDb,
  sessionWorld,
  startNas,
  startRadiusServer,
} from './platform.js';
import { freeUdpPort, radclient } from './radclient.js';

// The RADIUS side's metrics move with what happens, with bounded labels and no MAC or
// user name in them.

/** The value of one series (exact label set given as `{a="b",...}` text), 0 when absent. */
function value(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

test.serial('Accept and Reject by reason, accounting by status, Disconnect answers and open connections per NAS', async (t) => {
  const world = await sessionWorld(t);
  const coaPort = await freeUdpPort();
  await startNas(t, coaPort);
  const db = await openGatewayDb('memory');
  t.teardown(() => db.close());
  const gateway = await bootGateway(t, db, { SESSION_URL: world.session.url, GATEWAYS_FILE: gatewaysFile(t, coaPort) });
  const radius = await startRadiusServer(t, gateway.url);
  const scrape = async () => (await fetch(`${gateway.url}/metrics`)).text();
  const before = await scrape();

  const sessionId = await grantedSession(world);
  const { username, password } = (await gateway.issue({ sessionId, deviceRef: deviceRef(), nasId: NAS })).body as { username: string; password: string };
  const auth = (pw: string) =>
    radclient(radius.authPort, 'auth', NAS_SECRET, [`User-Name = "${username}"`, `User-Password = "${pw}"`, `Calling-Station-Id = "${MAC}"`]);
  t.is((await auth('not-the-password')).code, 'Access-Reject');
  const accept = await auth(password);
  t.is(accept.code, 'Access-Accept');
  await radius.acct([
    `User-Name = "${username}"`,
    'Acct-Status-Type = Start',
    'Acct-Session-Id = "acct-metrics"',
    `Class = ${accept.attributes['Class']}`,
    `Calling-Station-Id = "${MAC}"`,
  ]);
  const open = await scrape();
  t.is(value(open, `radius_open_connections{nas="${NAS}"}`), 1);
  await world.session.revoke(sessionId);
  await waitFor(
    async () => (await gateway.connection(sessionId)).body,
    (body) => body['disconnect'] === 'ACKED',
    { timeoutMs: 15_000 },
  ).catch(() => undefined);
  const after = await scrape();

  const moved = (series: string) => value(after, series) - value(before, series);
  t.is(moved(`radius_access_total{nas="${NAS}",outcome="accept",reason=""}`), 1);
  t.is(moved(`radius_access_total{nas="${NAS}",outcome="reject",reason="not-valid"}`), 1);
  t.is(moved(`radius_accounting_total{nas="${NAS}",status="Start",outcome="recorded"}`), 1);
  t.is(moved(`radius_disconnects_total{nas="${NAS}",answer="ACKED"}`), 1);
  t.is(value(after, `radius_open_connections{nas="${NAS}"}`), 0, 'the ACKed connection is no longer open');
  for (const secret of [MAC, MAC.replace(/-/g, ':'), username]) t.false(after.toLowerCase().includes(secret.toLowerCase()), 'no MAC or user name in a label');
});

test.serial("a scrape never fails because a gateway's store is gone (the registry is the process's, other services share it)", async (t) => {
  const world = await sessionWorld(t);
  const db = await openGatewayDb('memory');
  const gateway = await bootGateway(t, db, { SESSION_URL: world.session.url, GATEWAYS_FILE: gatewaysFile(t, await freeUdpPort()) });
  t.is((await fetch(`${gateway.url}/metrics`)).status, 200);
  await db.close();
  const text = await metricsRegistry.metrics();
  t.true(text.includes('radius_open_connections'), 'the series is there, without a sample');
});
