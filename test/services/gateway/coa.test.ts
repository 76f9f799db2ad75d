import test, { type ExecutionContext } from 'ava';
import type { ProfileId } from '../../../edge/controllers/index.js';
import { waitFor } from '../../helpers/wait-for.js';
import { FEED_KEY, grantBody } from '../session/session-service.js';
import { deviceRef, disconnectsReceived, lastReceived, grantedSession, MAC, NAS, NAS_SECRET, type openGatewayDb, controllerWorld } from './platform.js';
import { radclient } from './radclient.js';

// When a running session's limits change (it is granted again under another
// entitlement), a controller that takes a CoA-Request gets one naming the session as its
// Disconnect would, with the new limits in its own attributes; a controller that does not gets
// nothing (its next authentication carries them). The NAS stand-in is strict: a request without
// an attribute the controller needs to find the session is NAKed.

const FRAMED_IP = '10.1.0.9';
const ACCOUNTING = [`Calling-Station-Id = "${MAC}"`, `Framed-IP-Address = ${FRAMED_IP}`, 'NAS-IP-Address = 127.0.0.1', `NAS-Identifier = "${NAS}"`];

async function setup(t: ExecutionContext, profile: ProfileId) {
  const { world, nas, db, gateway, radius } = await controllerWorld(t, profile);
  const sessionId = await grantedSession(world, deviceRef(), 3600, { tier: 'BASIC', qosClass: 'STANDARD' });
  const { username, password } = (await gateway.issue({ sessionId, deviceRef: deviceRef(), nasId: NAS })).body as { username: string; password: string };
  const accept = await radclient(radius.authPort, 'auth', NAS_SECRET, [
    `User-Name = "${username}"`,
    `User-Password = "${password}"`,
    `Calling-Station-Id = "${MAC}"`,
    `NAS-Identifier = "${NAS}"`,
  ]);
  t.is(accept.code, 'Access-Accept', JSON.stringify(accept));
  const acctSessionId = `acct-coa-${profile}`;
  const start = await radius.acct([
    `User-Name = "${username}"`,
    'Acct-Status-Type = Start',
    `Acct-Session-Id = "${acctSessionId}"`,
    `Class = ${accept.attributes['Class']}`,
    ...ACCOUNTING,
  ]);
  t.is(start.code, 'Accounting-Response');
  const upgrade = async () => {
    const answer = await world.session.grant(
      sessionId,
      grantBody(world.clock, { tier: 'BOOST', qosClass: 'HIGH', validUntil: new Date(Date.now() + 7200_000).toISOString(), deviceSlots: 4 }),
    );
    t.is(answer.status, 200, answer.text);
  };
  return { world, nas, db, gateway, sessionId, username, acctSessionId, upgrade };
}

/** The connection's CoA state once it got a final answer, or as it stands after 20 s (then asserted). */
const coaSettled = (store: { coaOf(nasId: string, acctSessionId: string): Promise<{ status: string | null } | undefined> }, acctSessionId: string) =>
  waitFor(
    () => store.coaOf(NAS, acctSessionId),
    (coa) => coa !== undefined && coa.status !== null && coa.status !== 'PENDING',
    { timeoutMs: 20_000 },
  ).catch(() => store.coaOf(NAS, acctSessionId));

const connectionStore = async (db: Awaited<ReturnType<typeof openGatewayDb>>) =>
  (await import('../../../services/gateway/connection-store.js')).createConnectionStore(db);

test.serial(
  'coovachilli: an upgraded session gets a CoA-Request with the new WISPr limits and Session-Timeout, named as its Disconnect would be; the strict stand-in ACKs it',
  async (t) => {
    const { db, nas, username, acctSessionId, upgrade } = await setup(t, 'coovachilli');
    await upgrade();
    t.is((await coaSettled(await connectionStore(db), acctSessionId))?.status, 'ACKED');
    const sent = lastReceived(nas.output, 'CoA-Request') ?? {};
    t.is(sent['Acct-Session-Id'], acctSessionId);
    t.is(sent['User-Name'], username);
    t.is(sent['NAS-Identifier'], NAS);
    t.is(sent['WISPr-Bandwidth-Max-Down'], '100000000');
    t.is(sent['WISPr-Bandwidth-Max-Up'], '20000000');
    t.true(Number(sent['Session-Timeout']) > 3600, `Session-Timeout ${sent['Session-Timeout']}: the new entitlement's two hours`);
  },
);

test.serial(
  'mikrotik: an upgraded session gets a CoA-Request with the new Mikrotik-Rate-Limit, naming the session by User-Name and Framed-IP-Address',
  async (t) => {
    const { db, nas, username, acctSessionId, upgrade } = await setup(t, 'mikrotik');
    await upgrade();
    t.is((await coaSettled(await connectionStore(db), acctSessionId))?.status, 'ACKED');
    const sent = lastReceived(nas.output, 'CoA-Request') ?? {};
    t.is(sent['Acct-Session-Id'], acctSessionId);
    t.is(sent['User-Name'], username);
    t.is(sent['Framed-IP-Address'], FRAMED_IP);
    t.is(sent['Mikrotik-Rate-Limit'], '20000000/100000000');
  },
);

test.serial('pfsense (no CoA): an upgrade sends nothing to the controller; the revoke after it is still a Disconnect', async (t) => {
  const { world, db, nas, sessionId, acctSessionId, upgrade } = await setup(t, 'pfsense');
  await upgrade();
  // The gateway has read the upgrade from the feed (its stored cursor is the feed's last) ...
  const feed = await world.session.request('GET', '/api/v1/sessions/changes?limit=500', { headers: FEED_KEY });
  const last = String(feed.body['next']);
  const store = await connectionStore(db);
  await waitFor(
    () => store.cursor('session-changes'),
    (cursor) => cursor === last,
    { timeoutMs: 20_000 },
  );
  // ... and a revoke after it is a Disconnect; by then any CoA would have been sent first.
  await world.session.revoke(sessionId);
  await waitFor(
    () => disconnectsReceived(nas),
    (ids) => ids.includes(acctSessionId),
    { timeoutMs: 20_000 },
  );
  t.is(lastReceived(nas.output, 'CoA-Request'), undefined);
  t.is((await (await connectionStore(db)).coaOf(NAS, acctSessionId))?.status, null);
});
