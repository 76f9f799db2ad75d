import test, { type ExecutionContext } from 'ava';
import { waitFor } from '../../helpers/wait-for.js';
import { bootGateway, deviceRef, gatewaysFile, grantedSession, MAC, NAS, NAS_SECRET, openGatewayDb, sessionWorld, startRadiusServer } from './platform.js';
import { freeUdpPort, radclient } from './radclient.js';

// NAS hygiene, through a real FreeRADIUS: a NAS's reboot (Accounting-On/Off)
// closes what it had open, a reused Acct-Session-Id is a new connection, a person's logoff at the
// gateway ends the network session, other Stops do not, and a connection gone silent is closed.

async function setup(t: ExecutionContext, env: Record<string, string> = {}, now?: () => Date) {
  const world = await sessionWorld(t);
  const db = await openGatewayDb('memory');
  t.teardown(() => db.close());
  const gateway = await bootGateway(t, db, { SESSION_URL: world.session.url, GATEWAYS_FILE: gatewaysFile(t, await freeUdpPort()), ...env }, now);
  const radius = await startRadiusServer(t, gateway.url);
  const acct = (lines: string[]) => radius.acct([...lines, `NAS-Identifier = "${NAS}"`]);
  const signIn = async (acctSessionId: string) => {
    const sessionId = await grantedSession(world);
    const { username, password } = (await gateway.issue({ sessionId, deviceRef: deviceRef(), nasId: NAS })).body as { username: string; password: string };
    const accept = await radclient(radius.authPort, 'auth', NAS_SECRET, [
      `User-Name = "${username}"`,
      `User-Password = "${password}"`,
      `Calling-Station-Id = "${MAC}"`,
    ]);
    t.is(accept.code, 'Access-Accept');
    const packet = (status: string, extra: string[] = []) =>
      acct([
        `User-Name = "${username}"`,
        `Acct-Status-Type = ${status}`,
        `Acct-Session-Id = "${acctSessionId}"`,
        `Class = ${accept.attributes['Class']}`,
        `Calling-Station-Id = "${MAC}"`,
        ...extra,
      ]);
    t.is((await packet('Start')).code, 'Accounting-Response');
    return { sessionId, packet };
  };
  const connected = async (sessionId: string) => (await gateway.connection(sessionId)).body['connected'];
  return { world, gateway, acct, signIn, connected };
}

for (const status of ['Accounting-On', 'Accounting-Off']) {
  test.serial(`${status} from a NAS closes every connection it had open`, async (t) => {
    const { acct, signIn, connected } = await setup(t);
    const first = await signIn('acct-a');
    const second = await signIn('acct-b');
    t.true(await connected(first.sessionId));
    t.is((await acct([`Acct-Status-Type = ${status}`, 'Acct-Session-Id = "00000000"'])).code, 'Accounting-Response');
    t.false(await connected(first.sessionId));
    t.false(await connected(second.sessionId));
  });
}

test.serial('a reused Acct-Session-Id after a reboot starts a new connection of the new session, not the old one', async (t) => {
  const { acct, signIn, connected } = await setup(t);
  const before = await signIn('acct-reused');
  await acct(['Acct-Status-Type = Accounting-On', 'Acct-Session-Id = "00000000"']);
  const after = await signIn('acct-reused');
  t.true(await connected(after.sessionId), 'the new session is connected under the reused id');
  t.false(await connected(before.sessionId));
});

test.serial('a Stop with Acct-Terminate-Cause User-Request (logged off at the gateway) ends the network session; an Idle-Timeout Stop does not', async (t) => {
  const { world, signIn, connected } = await setup(t);
  const loggedOff = await signIn('acct-logoff');
  await loggedOff.packet('Stop', ['Acct-Terminate-Cause = User-Request']);
  t.false(await connected(loggedOff.sessionId));
  t.is((await world.session.read(loggedOff.sessionId)).body['state'], 'REVOKED');
  const idle = await signIn('acct-idle');
  await idle.packet('Stop', ['Acct-Terminate-Cause = Idle-Timeout']);
  t.false(await connected(idle.sessionId));
  t.is((await world.session.read(idle.sessionId)).body['state'], 'GRANTED', 'the entitlement stays valid: the device comes back');
});

test.serial('a connection with no accounting for two interim intervals and the grace is closed as stale; one still reporting is not', async (t) => {
  let offsetMs = 0;
  const now = () => new Date(Date.now() + offsetMs);
  const { signIn, connected } = await setup(t, { STALE_CHECK_MS: '50', STALE_GRACE_SECONDS: '30', ACCT_INTERIM_SECONDS: '60' }, now);
  const silent = await signIn('acct-silent');
  const talking = await signIn('acct-talking');
  offsetMs = 100_000;
  await talking.packet('Interim-Update', ['Acct-Session-Time = 100']);
  offsetMs = 160_000;
  t.true(
    await waitFor(
      async () => !(await connected(silent.sessionId)),
      (gone) => gone,
      { timeoutMs: 10_000 },
    ).catch(() => false),
    'closed as stale',
  );
  t.true(await connected(talking.sessionId), 'its Interim-Update 60 s ago keeps it');
});
