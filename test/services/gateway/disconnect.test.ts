import test, { type ExecutionContext } from 'ava';
import type { Database } from '../../../services/kit/store/index.js';
import { waitFor } from '../../helpers/wait-for.js';
import {
  bootGateway,
  deviceRef,
  disconnectsReceived,
  gatewaysFile,
  grantedSession,
  MAC,
  NAS,
  NAS_SECRET,
  openGatewayDb,
  sessionWorld,
  startNas,
  startRadiusServer,
  tempDir,
  type RadiusServer,
  type World,
} from './platform.js';
import { freeUdpPort, radclient } from './radclient.js';

// Accounting through a real FreeRADIUS, and RFC 5176 Disconnect-Requests received and
// answered by a second FreeRADIUS playing the NAS (its `coa` listener). One test at a time: each
// starts two FreeRADIUS servers and three services, and seven at once on a loaded 2-core machine
// made the gateway answer FreeRADIUS's rest call after its 3 s timeout (an Access-Reject).

async function signedIn(t: ExecutionContext, world: World, gateway: Awaited<ReturnType<typeof bootGateway>>, radius: RadiusServer, acctSessionId: string) {
  const sessionId = await grantedSession(world);
  const issued = await gateway.issue({ sessionId, deviceRef: deviceRef(), nasId: NAS });
  const { username, password } = issued.body as { username: string; password: string };
  const accept = await radclient(radius.authPort, 'auth', NAS_SECRET, [
    `User-Name = "${username}"`,
    `User-Password = "${password}"`,
    `Calling-Station-Id = "${MAC}"`,
  ]);
  t.is(accept.code, 'Access-Accept');
  const acct = (status: string, extra: string[] = []) =>
    radius.acct([
      `User-Name = "${username}"`,
      `Acct-Status-Type = ${status}`,
      `Acct-Session-Id = "${acctSessionId}"`,
      `Class = ${accept.attributes['Class']}`,
      `Calling-Station-Id = "${MAC}"`,
      ...extra,
    ]);
  return { sessionId, username, password, acct };
}

async function setup(t: ExecutionContext, options: { db?: Database; naks?: string[] } = {}) {
  const world = await sessionWorld(t);
  const coaPort = await freeUdpPort();
  const nas = await startNas(t, coaPort, options.naks);
  const db = options.db ?? (await openGatewayDb('memory'));
  if (options.db === undefined) t.teardown(() => db.close());
  const env = { SESSION_URL: world.session.url, GATEWAYS_FILE: gatewaysFile(t, coaPort) };
  const gateway = await bootGateway(t, db, env);
  const radius = await startRadiusServer(t, gateway.url);
  return { world, nas, db, env, gateway, radius };
}

test.serial('accounting Start, Interim and Stop make the connection state and usage the portal reads', async (t) => {
  const { world, gateway, radius } = await setup(t);
  const { sessionId, acct } = await signedIn(t, world, gateway, radius, 'acct-1');
  t.like((await gateway.connection(sessionId)).body, { state: 'NONE', connected: false });
  t.is((await acct('Start')).code, 'Accounting-Response');
  t.like((await gateway.connection(sessionId)).body, { state: 'CONNECTED', connected: true, nasId: NAS });
  await acct('Interim-Update', ['Acct-Input-Octets = 1000', 'Acct-Output-Octets = 5000', 'Acct-Output-Gigawords = 1', 'Acct-Session-Time = 60']);
  t.like((await gateway.connection(sessionId)).body, { connected: true, inputOctets: 1000, outputOctets: 2 ** 32 + 5000, sessionTime: 60 });
  await acct('Stop', ['Acct-Input-Octets = 2000', 'Acct-Output-Octets = 9000', 'Acct-Session-Time = 90']);
  const stopped = (await gateway.connection(sessionId)).body;
  t.like(stopped, { state: 'DISCONNECTED', connected: false, inputOctets: 2000, sessionTime: 90 });
  t.is(typeof stopped['stoppedAt'], 'string');
});

test.serial('a revoke reaches the NAS as a Disconnect-Request, ACKed, and the session is refused from then on', async (t) => {
  const { world, nas, gateway, radius } = await setup(t);
  const { sessionId, acct } = await signedIn(t, world, gateway, radius, 'acct-revoke');
  await acct('Start');
  await world.session.revoke(sessionId);
  await waitFor(
    () => disconnectsReceived(nas),
    (ids) => ids.includes('acct-revoke'),
    { timeoutMs: 15_000 },
  );
  const state = await waitFor(
    async () => (await gateway.connection(sessionId)).body,
    (body) => body['disconnect'] === 'ACKED',
    { timeoutMs: 15_000 },
  );
  t.like(state, { connected: false, state: 'DISCONNECTED' });
  t.is((await gateway.issue({ sessionId, deviceRef: deviceRef(), nasId: NAS })).status, 409);
});

test.serial('a NAK is recorded as NAKED and not retried', async (t) => {
  const { world, nas, gateway, radius } = await setup(t, { naks: ['acct-nak'] });
  const { sessionId, acct } = await signedIn(t, world, gateway, radius, 'acct-nak');
  await acct('Start');
  await world.session.revoke(sessionId);
  const state = await waitFor(
    async () => (await gateway.connection(sessionId)).body,
    (body) => body['disconnect'] === 'NAKED',
    { timeoutMs: 15_000 },
  );
  t.true(state['connected'] as boolean, 'a NAK means the NAS did not end it');
  t.is(disconnectsReceived(nas).filter((id) => id === 'acct-nak').length, 1);
});

test.serial('a NAS that never answers is retried with backoff, then recorded as NO_ANSWER', async (t) => {
  const world = await sessionWorld(t);
  const db = await openGatewayDb('memory');
  t.teardown(() => db.close());
  const gateway = await bootGateway(t, db, {
    SESSION_URL: world.session.url,
    GATEWAYS_FILE: gatewaysFile(t, await freeUdpPort()),
    DISCONNECT_ATTEMPTS: '3',
    DISCONNECT_TIMEOUT_MS: '100',
    DISCONNECT_BACKOFF_MS: '50',
  });
  const radius = await startRadiusServer(t, gateway.url);
  const { sessionId, acct } = await signedIn(t, world, gateway, radius, 'acct-silent');
  await acct('Start');
  await world.session.revoke(sessionId);
  await waitFor(
    async () => (await gateway.connection(sessionId)).body,
    (body) => body['disconnect'] === 'NO_ANSWER',
    { timeoutMs: 15_000 },
  );
  t.is(gateway.lines.filter((line) => line.includes('"answer":"NO_ANSWER"')).length, 3);
});

test.serial('a Start arriving after the revoke is disconnected at once', async (t) => {
  const { world, nas, gateway, radius } = await setup(t);
  const { sessionId, acct } = await signedIn(t, world, gateway, radius, 'acct-late');
  await world.session.revoke(sessionId);
  await waitFor(
    async () => (await gateway.issue({ sessionId, deviceRef: deviceRef(), nasId: NAS })).status,
    (status) => status === 409,
  );
  // The feed has been read once the gateway itself knows the session ended.
  await new Promise((resolve) => setTimeout(resolve, 300));
  await acct('Start');
  await waitFor(
    () => disconnectsReceived(nas),
    (ids) => ids.includes('acct-late'),
    { timeoutMs: 15_000 },
  );
  t.pass();
});

test.serial('a restart of the gateway service between a revoke and its Disconnect still sends it', async (t) => {
  const db = await openGatewayDb('pglite', tempDir(t, 'wifi-gateway-db-'));
  t.teardown(() => db.close());
  const { world, nas, env, gateway, radius } = await setup(t, { db });
  const { sessionId, acct } = await signedIn(t, world, gateway, radius, 'acct-restart');
  await acct('Start');
  await gateway.close();
  await world.session.revoke(sessionId);
  await new Promise((resolve) => setTimeout(resolve, 500));
  t.deepEqual(disconnectsReceived(nas), [], 'nothing is sent while the gateway service is down');
  const again = await bootGateway(t, db, env);
  await waitFor(
    () => disconnectsReceived(nas),
    (ids) => ids.includes('acct-restart'),
    { timeoutMs: 15_000 },
  );
  await waitFor(
    async () => (await again.connection(sessionId)).body,
    (body) => body['disconnect'] === 'ACKED',
    { timeoutMs: 15_000 },
  );
  t.pass();
});

test.serial("no MAC address, password or user name reaches the gateway's logs, store or answers, nor FreeRADIUS's log", async (t) => {
  const { world, db, gateway, radius } = await setup(t);
  const { sessionId, username, password, acct } = await signedIn(t, world, gateway, radius, 'acct-privacy');
  await acct('Start');
  await world.session.revoke(sessionId);
  await waitFor(
    async () => (await gateway.connection(sessionId)).body,
    (body) => body['disconnect'] === 'ACKED',
    { timeoutMs: 15_000 },
  );
  const stored = JSON.stringify(
    await Promise.all(['credentials', 'connections', 'ended_sessions', 'feed_cursor'].map((table) => db.query(`SELECT * FROM ${table}`))),
  );
  const seen = [gateway.lines.join('\n'), stored, JSON.stringify((await gateway.connection(sessionId)).body), radius.output.join('\n')]
    .join('\n')
    .toLowerCase();
  for (const secret of [MAC, MAC.replace(/-/g, ':'), MAC.replace(/-/g, ''), password, username])
    t.false(seen.includes(secret.toLowerCase()), 'a secret leaked');
  t.true(stored.includes(sessionId), 'the store was read');
});
