import test, { type ExecutionContext } from 'ava';
import { CONTROLLER_PROFILES, PROFILE_IDS, type ProfileId } from '../../../edge/controllers/index.js';
import { waitFor } from '../../helpers/wait-for.js';
import {
  bootGateway,
  lastReceived,
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

// A Disconnect-Request each controller accepts. The NAS stand-in (a FreeRADIUS
// `coa` listener) is as strict as the controller it stands for: a request without an attribute
// the controller needs to find the session is NAKed with Error-Cause 402 (Missing-Attribute).

const FRAMED_IP = '10.1.0.7';

/** The connection once its Disconnect got a final answer (the answer is then asserted). */
const settled = (gateway: { connection(sessionId: string): Promise<{ body: Record<string, unknown> }> }, sessionId: string) =>
  waitFor(
    async () => (await gateway.connection(sessionId)).body,
    (body) => body['disconnect'] !== null && body['disconnect'] !== 'PENDING',
    { timeoutMs: 15_000 },
  );

async function setup(t: ExecutionContext, profile: ProfileId, strict: { requires?: string[]; goneSessionIds?: string[] }) {
  const world = await sessionWorld(t);
  const coaPort = await freeUdpPort();
  const nas = await startNas(t, coaPort, [], NAS_SECRET, strict);
  const db = await openGatewayDb('memory');
  t.teardown(() => db.close());
  const gateway = await bootGateway(t, db, { SESSION_URL: world.session.url, GATEWAYS_FILE: gatewaysFile(t, coaPort, profile) });
  const radius = await startRadiusServer(t, gateway.url);
  const signIn = async (acctSessionId: string, accountingLines: string[]) => {
    const sessionId = await grantedSession(world);
    const { username, password } = (await gateway.issue({ sessionId, deviceRef: deviceRef(), nasId: NAS })).body as { username: string; password: string };
    const accept = await radclient(radius.authPort, 'auth', NAS_SECRET, [
      `User-Name = "${username}"`,
      `User-Password = "${password}"`,
      `Calling-Station-Id = "${MAC}"`,
    ]);
    t.is(accept.code, 'Access-Accept');
    const acct = (status: string) =>
      radius.acct([
        `User-Name = "${username}"`,
        `Acct-Status-Type = ${status}`,
        `Acct-Session-Id = "${acctSessionId}"`,
        `Class = ${accept.attributes['Class']}`,
        ...accountingLines,
      ]);
    t.is((await acct('Start')).code, 'Accounting-Response');
    return { sessionId, username, acct };
  };
  return { world, nas, db, gateway, signIn };
}

// What each controller puts in its accounting (its RADIUS client's documented attribute set).
const ACCOUNTING = [`Calling-Station-Id = "${MAC}"`, `Framed-IP-Address = ${FRAMED_IP}`, 'NAS-IP-Address = 127.0.0.1', `NAS-Identifier = "${NAS}"`];

// openNDS speaks no RADIUS (its revocation: test/services/gateway/opennds.test.ts); a controller
// with no RFC 5176 listener (OPNsense) has its own test: opnsense.test.ts.
for (const profile of PROFILE_IDS.filter((id) => CONTROLLER_PROFILES[id].disconnect.length > 0 && CONTROLLER_PROFILES[id].disconnectListener !== false)) {
  const requires = CONTROLLER_PROFILES[profile].disconnect.filter((name) => name !== 'Event-Timestamp');
  test.serial(`${profile}: a revoke's Disconnect-Request carries ${requires.join(', ')} as the NAS sent them, and the strict stand-in ACKs it`, async (t) => {
    const { world, nas, gateway, signIn } = await setup(t, profile, { requires: [...requires, 'Event-Timestamp', 'Message-Authenticator'] });
    const { sessionId, username } = await signIn(`acct-${profile}`, ACCOUNTING);
    await world.session.revoke(sessionId);
    t.is((await settled(gateway, sessionId))['disconnect'], 'ACKED');
    const sent = lastReceived(nas.output, 'Disconnect-Request') ?? {};
    t.is(sent['Acct-Session-Id'], `acct-${profile}`);
    if (requires.includes('User-Name')) t.is(sent['User-Name'], username);
    if (requires.includes('Calling-Station-Id')) t.is(sent['Calling-Station-Id'], MAC, 'as the NAS spelled it');
    if (requires.includes('Framed-IP-Address')) t.is(sent['Framed-IP-Address'], FRAMED_IP);
  });
}

test.serial('a controller that needs Calling-Station-Id NAKs a Disconnect without it (the NAS never sent one): NAKED, with the cause logged', async (t) => {
  const { world, gateway, signIn } = await setup(t, 'cisco-wlc', { requires: ['Calling-Station-Id'] });
  const { sessionId } = await signIn('acct-no-mac', []);
  await world.session.revoke(sessionId);
  t.is((await settled(gateway, sessionId))['disconnect'], 'NAKED');
  t.true(gateway.lines.some((line) => line.includes('"errorCause":402')));
});

test.serial('a NAK with Error-Cause 503 (no such session at the NAS) counts as gone: the connection reads disconnected', async (t) => {
  const { world, gateway, signIn } = await setup(t, 'coovachilli', { goneSessionIds: ['acct-gone'] });
  const { sessionId } = await signIn('acct-gone', ACCOUNTING);
  await world.session.revoke(sessionId);
  t.like(await settled(gateway, sessionId), { disconnect: 'GONE', connected: false, state: 'DISCONNECTED' });
});

test.serial('what names a session at its NAS rests sealed, and is erased at its Stop', async (t) => {
  const { db, signIn } = await setup(t, 'coovachilli', {});
  const { username, acct } = await signIn('acct-sealed', ACCOUNTING);
  const identity = async () =>
    (await db.query<{ identity: string | null }>('SELECT identity FROM connections WHERE acct_session_id = $1', ['acct-sealed']))[0]?.identity;
  const sealed = await identity();
  t.truthy(sealed);
  for (const secret of [MAC, username, FRAMED_IP]) t.false(String(sealed).includes(secret));
  await acct('Stop');
  t.is(await identity(), null);
});
