import { createHash } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { assertError } from '../../helpers/error-shape.js';
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
  startRadiusServer,
  tempDir,
  UAM_SECRET,
} from './platform.js';
import { freeUdpPort, hexText, radclient } from './radclient.js';
import { freePort } from '../../helpers/postgres-server.js';
import { startFreeradius, writeFreeradiusConfig } from '../../../edge/freeradius-site.js';
import { GatewayConfig } from '../../../services/gateway/config.js';

// Access-Request through a real FreeRADIUS (rest module -> gateway service) sent by
// Debian's radclient, the way a gateway sends it. One test at a time, like disconnect.test.ts: ten
// FreeRADIUS servers at once on a loaded 2-core machine outrun the rest module's 3 s timeout.

async function setup(t: ExecutionContext) {
  const world = await sessionWorld(t);
  const db = await openGatewayDb('memory');
  t.teardown(() => db.close());
  const gateway = await bootGateway(t, db, { SESSION_URL: world.session.url, GATEWAYS_FILE: gatewaysFile(t, await freeUdpPort()) });
  const radius = await startRadiusServer(t, gateway.url);
  const credential = async (sessionId: string, extra: Record<string, unknown> = {}) => {
    const answer = await gateway.issue({ sessionId, deviceRef: deviceRef(), nasId: NAS, ...extra });
    t.is(answer.status, 201, answer.text);
    return answer.body as { username: string; password: string; chapResponse?: string; expiresAt: string };
  };
  const pap = (username: string, password: string, mac: string | null = MAC, secret = NAS_SECRET) =>
    radclient(radius.authPort, 'auth', secret, [
      `User-Name = "${username}"`,
      `User-Password = "${password}"`,
      ...(mac === null ? [] : [`Calling-Station-Id = "${mac}"`]),
      `NAS-Identifier = "${NAS}"`,
    ]);
  return { world, db, gateway, radius, credential, pap };
}

test.serial('a valid credential is accepted with Session-Timeout to expiresAt, Class = the session id and the QoS row', async (t) => {
  const { world, credential, pap } = await setup(t);
  const sessionId = await grantedSession(world, deviceRef(), 1800, { tier: 'BOOST', qosClass: 'HIGH' });
  const { username, password, expiresAt } = await credential(sessionId);
  t.true(Date.parse(expiresAt) - Date.now() <= 120_000);
  const sessionEnd = Date.parse(String((await world.session.read(sessionId)).body['expiresAt']));
  const before = Date.now();
  const answer = await pap(username, password);
  const after = Date.now();
  t.is(answer.code, 'Access-Accept', JSON.stringify(answer));
  // Seconds left to expiresAt when the gateway answered (a busy machine may take seconds to get there).
  const timeout = Number(answer.attributes['Session-Timeout']);
  t.true(timeout >= Math.floor((sessionEnd - after) / 1000) && timeout <= Math.ceil((sessionEnd - before) / 1000), String(timeout));
  t.true(timeout <= 1800);
  t.is(hexText(answer.attributes['Class']), sessionId);
  t.is(answer.attributes['Acct-Interim-Interval'], '300');
  t.is(answer.attributes['Idle-Timeout'], '600');
  t.is(answer.attributes['WISPr-Bandwidth-Max-Up'], '20000000');
  t.is(answer.attributes['WISPr-Bandwidth-Max-Down'], '100000000');
});

test.serial('a credential is single use: the replay is rejected with a Reply-Message', async (t) => {
  const { world, credential, pap } = await setup(t);
  const { username, password } = await credential(await grantedSession(world));
  t.is((await pap(username, password)).code, 'Access-Accept');
  const replay = await pap(username, password);
  t.is(replay.code, 'Access-Reject');
  t.regex(replay.attributes['Reply-Message'] ?? '', /not valid/);
});

test.serial('UAM CHAP as CoovaChilli sends it (challenge + UAM secret) is accepted', async (t) => {
  const { world, radius, credential } = await setup(t);
  const challenge = '00112233445566778899aabbccddeeff';
  const { username, chapResponse } = await credential(await grantedSession(world), { challenge });
  t.regex(chapResponse ?? '', /^[0-9a-f]{32}$/);
  // What the gateway does with the page's answer: CHAP-Challenge = MD5(challenge + UAM secret), ident 0.
  const chapChallenge = createHash('md5').update(Buffer.from(challenge, 'hex')).update(UAM_SECRET).digest('hex');
  const answer = await radclient(radius.authPort, 'auth', NAS_SECRET, [
    `User-Name = "${username}"`,
    `CHAP-Challenge = 0x${chapChallenge}`,
    `CHAP-Password = 0x00${chapResponse}`,
    `Calling-Station-Id = "${MAC}"`,
  ]);
  t.is(answer.code, 'Access-Accept', JSON.stringify(answer));
});

test.serial('plain CHAP (radclient computes it over the request authenticator) is accepted', async (t) => {
  const { world, radius, credential } = await setup(t);
  const { username, password } = await credential(await grantedSession(world));
  const answer = await radclient(radius.authPort, 'auth', NAS_SECRET, [
    `User-Name = "${username}"`,
    `CHAP-Password = "${password}"`,
    `Calling-Station-Id = "${MAC}"`,
  ]);
  t.is(answer.code, 'Access-Accept', JSON.stringify(answer));
});

test.serial('another device is rejected and the credential stays usable by its own device', async (t) => {
  const { world, credential, pap } = await setup(t);
  const { username, password } = await credential(await grantedSession(world));
  const other = await pap(username, password, 'AA-BB-CC-DD-EE-02');
  t.is(other.code, 'Access-Reject');
  t.regex(other.attributes['Reply-Message'] ?? '', /another device/);
  t.is((await pap(username, password, 'aa:bb:cc:dd:ee:01')).code, 'Access-Accept', 'the same MAC in another spelling');
});

test.serial('a wrong password, a wrong shared secret and malformed attributes are rejected, granting nothing', async (t) => {
  const { world, credential, pap, radius } = await setup(t);
  const { username, password } = await credential(await grantedSession(world));
  t.is((await pap(username, `${password}x`)).code, 'Access-Reject');
  t.not((await pap(username, password, MAC, 'wrong-secret-123')).code, 'Access-Accept');
  const noMac = await pap(username, password, null);
  t.is(noMac.code, 'Access-Reject');
  t.regex(noMac.attributes['Reply-Message'] ?? '', /Malformed/);
  t.is((await pap(username, password, 'not-a-mac')).code, 'Access-Reject');
  t.is(
    (await radclient(radius.authPort, 'auth', NAS_SECRET, [`User-Name = "${username}"`, `Calling-Station-Id = "${MAC}"`])).code,
    'Access-Reject',
    'no password at all',
  );
  t.is((await pap('unknown-user', password)).code, 'Access-Reject');
  t.is((await pap(username, password)).code, 'Access-Accept', 'none of these used the credential up');
});

test.serial('an unknown NAS is refused: unknown to FreeRADIUS (no answer) or to the gateway service (reject)', async (t) => {
  const { world, gateway, credential } = await setup(t);
  const { username, password } = await credential(await grantedSession(world));
  const restKey = GatewayConfig.parse({}).RADIUS_API_KEY;
  const attributes = [`User-Name = "${username}"`, `User-Password = "${password}"`, `Calling-Station-Id = "${MAC}"`];
  for (const [name, address, expected] of [
    ['rogue-nas', '127.0.0.1', 'Access-Reject'],
    [NAS, '10.255.255.1', 'none'],
  ] as const) {
    const [authPort, acctPort] = [await freeUdpPort(), await freeUdpPort()];
    const dir = tempDir(t, 'wifi-radius-');
    writeFreeradiusConfig({ dir, role: 'server', authPort, acctPort, restUrl: gateway.url, restKey, clients: [{ name, address, secret: NAS_SECRET }] });
    const server = await startFreeradius(dir);
    t.teardown(() => server.stop());
    t.is((await radclient(authPort, 'auth', NAS_SECRET, attributes, 2, 1)).code, expected, name);
  }
});

test.serial('BlastRADIUS: an Access-Request without Message-Authenticator is dropped, the same one with it answered', async (t) => {
  const { world, radius, credential } = await setup(t);
  const { username, password } = await credential(await grantedSession(world));
  const attributes = [`User-Name = "${username}"`, `User-Password = "${password}"`, `Calling-Station-Id = "${MAC}"`, `NAS-Identifier = "${NAS}"`];
  // Sent twice, 3 s apart: a slow answer would be seen; the credential staying unused (below) shows the gateway was never asked.
  t.is((await radclient(radius.authPort, 'auth', NAS_SECRET, [...attributes, '!Message-Authenticator'], 3, 1)).code, 'none', 'dropped, never answered');
  t.is((await radclient(radius.authPort, 'auth', NAS_SECRET, attributes)).code, 'Access-Accept', 'the credential was not used up by the dropped request');
});

test.serial('the gateway service down means no answer (never an Accept; not a Reject for a password that may be right: the NAS asks again)', async (t) => {
  const world = await sessionWorld(t);
  await grantedSession(world);
  const radius = await startRadiusServer(t, `http://127.0.0.1:${await freePort()}`);
  const answer = await radclient(
    radius.authPort,
    'auth',
    NAS_SECRET,
    ['User-Name = "wifi-someone"', 'User-Password = "whatever-it-is"', `Calling-Station-Id = "${MAC}"`],
    5,
  );
  t.is(answer.code, 'none');
});

test.serial('the session service down means Access-Reject, and the credential is not used up', async (t) => {
  const { world, credential, pap } = await setup(t);
  const { username, password } = await credential(await grantedSession(world));
  await world.stopSession();
  const answer = await pap(username, password);
  t.is(answer.code, 'Access-Reject');
  t.regex(answer.attributes['Reply-Message'] ?? '', /unavailable/);
});

test.serial('a revoked or expired session gets no credential, and its credential is rejected', async (t) => {
  const { world, gateway, credential, pap } = await setup(t);
  const sessionId = await grantedSession(world);
  const { username, password } = await credential(sessionId);
  await world.session.revoke(sessionId);
  const answer = await pap(username, password);
  t.is(answer.code, 'Access-Reject');
  assertError(t, await gateway.issue({ sessionId, deviceRef: deviceRef(), nasId: NAS }), 409, 'SESSION_EXPIRED');
  assertError(t, await gateway.issue({ sessionId: await grantedSession(world), deviceRef: deviceRef('AA-BB-CC-DD-EE-09'), nasId: NAS }), 403, 'FORBIDDEN');
  assertError(t, await gateway.issue({ sessionId: 'sess-unknown', deviceRef: deviceRef(), nasId: NAS }), 404, 'NOT_FOUND');
  assertError(t, await gateway.issue({ sessionId, deviceRef: deviceRef(), nasId: 'no-such-nas' }), 400, 'INVALID_REQUEST');
  assertError(t, await gateway.request('POST', '/api/v1/credentials', { json: { sessionId, deviceRef: deviceRef() } }), 401, 'UNAUTHORIZED');
  await world.stopSession();
  assertError(t, await gateway.issue({ sessionId, deviceRef: deviceRef(), nasId: NAS }), 502, 'UPSTREAM_UNAVAILABLE');
});
