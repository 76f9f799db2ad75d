import test, { type ExecutionContext } from 'ava';
import type { ProfileId } from '../../../edge/controllers/index.js';
import { bootGateway, deviceRef, gatewaysFile, grantedSession, MAC, NAS, NAS_SECRET, openGatewayDb, sessionWorld, startRadiusServer } from './platform.js';
import { freeUdpPort, hexText, radclient } from './radclient.js';

// Each controller's Access-Request as that controller sends it (its CHAP form or PAP),
// through a real FreeRADIUS, answered with the limits in that controller's own attributes. One
// test at a time (see access.test.ts).

async function setup(t: ExecutionContext, profile: ProfileId) {
  const world = await sessionWorld(t);
  const db = await openGatewayDb('memory');
  t.teardown(() => db.close());
  const gateway = await bootGateway(t, db, { SESSION_URL: world.session.url, GATEWAYS_FILE: gatewaysFile(t, await freeUdpPort(), profile) });
  const radius = await startRadiusServer(t, gateway.url);
  // A rare reject under heavy load ("not valid" for a fresh credential) is being tracked down: on a
  // failure, what the gateway saw (each /radius/ request and its decision) goes into the report.
  t.teardown(() => {
    if (!t.passed) t.log(gateway.lines.join('\n'));
  });
  const issue = async (extra: Record<string, unknown> = {}) => {
    const sessionId = await grantedSession(world, deviceRef(), 1800, { tier: 'BOOST', qosClass: 'HIGH' });
    const answer = await gateway.issue({ sessionId, deviceRef: deviceRef(), nasId: NAS, ...extra });
    t.is(answer.status, 201, answer.text);
    return { sessionId, ...(answer.body as { username: string; password: string; chapResponse?: string }) };
  };
  const auth = (lines: string[]) => radclient(radius.authPort, 'auth', NAS_SECRET, [...lines, `Calling-Station-Id = "${MAC}"`, `NAS-Identifier = "${NAS}"`]);
  return { world, issue, auth };
}

test.serial(
  'MikroTik: the page answers chap-id + password + chap-challenge, the router sends standard CHAP, the limits come back in Mikrotik-Rate-Limit',
  async (t) => {
    const { issue, auth } = await setup(t, 'mikrotik');
    // An ident below 0x20: radclient takes a 17-octet CHAP-Password with no octet below 32 for a
    // clear-text password and CHAP-encodes it again under a random ident (radclient.c, "it *might*
    // be already encoded"), which happened for about one hash in eight with ident 0xe5.
    const chapId = '1f';
    const challenge = '3f1c2b4d5e6f708192a3b4c5d6e7f809';
    const { sessionId, username, chapResponse } = await issue({ chapId, challenge });
    t.regex(chapResponse ?? '', /^[0-9a-f]{32}$/, 'the login form carries the hash, not the password');
    // RouterOS: CHAP-Password = chap-id + the page's hash, CHAP-Challenge = chap-challenge.
    const answer = await auth([`User-Name = "${username}"`, `CHAP-Password = 0x${chapId}${chapResponse}`, `CHAP-Challenge = 0x${challenge}`]);
    t.is(answer.code, 'Access-Accept', JSON.stringify(answer));
    t.is(hexText(answer.attributes['Class']), sessionId);
    t.is(answer.attributes['Mikrotik-Rate-Limit'], '20000000/100000000');
    t.is(answer.attributes['WISPr-Bandwidth-Max-Up'], undefined);
    t.is(
      (await auth([`User-Name = "${username}"`, `CHAP-Password = 0x${chapId}${chapResponse}`, `CHAP-Challenge = 0x${challenge}`])).code,
      'Access-Reject',
      'single use',
    );
  },
);

test.serial('MikroTik: a CHAP answer for another chap-id is rejected', async (t) => {
  const { issue, auth } = await setup(t, 'mikrotik');
  const challenge = '3f1c2b4d5e6f708192a3b4c5d6e7f809';
  const { username, chapResponse } = await issue({ chapId: 'e5', challenge });
  t.is((await auth([`User-Name = "${username}"`, `CHAP-Password = 0x01${chapResponse}`, `CHAP-Challenge = 0x${challenge}`])).code, 'Access-Reject');
});

test.serial('Cisco WLC: PAP, the limits in Airespace bandwidth contracts (kbit/s)', async (t) => {
  const { issue, auth } = await setup(t, 'cisco-wlc');
  const { username, password, chapResponse } = await issue();
  t.is(chapResponse, undefined);
  const answer = await auth([`User-Name = "${username}"`, `User-Password = "${password}"`]);
  t.is(answer.code, 'Access-Accept', JSON.stringify(answer));
  t.is(answer.attributes['Airespace-Data-Bandwidth-Average-Contract'], '100000');
  t.is(answer.attributes['Airespace-Data-Bandwidth-Average-Contract-Upstream'], '20000');
});

test.serial('pfSense re-authenticates a connected user with the same credential: accepted while the session lives, rejected once it is revoked', async (t) => {
  const { world, issue, auth } = await setup(t, 'pfsense');
  const { sessionId, username, password } = await issue();
  const pap = [`User-Name = "${username}"`, `User-Password = "${password}"`];
  t.is((await auth(pap)).code, 'Access-Accept');
  const again = await auth(pap);
  t.is(again.code, 'Access-Accept', 'the minute re-authentication');
  t.is(hexText(again.attributes['Class']), sessionId);
  t.is((await world.session.revoke(sessionId)).status, 200);
  t.is((await auth(pap)).code, 'Access-Reject', 'the session ended');
});

test.serial('CoovaChilli does not re-authenticate: the same credential again is a replay', async (t) => {
  const { issue, auth } = await setup(t, 'coovachilli');
  const { username, password } = await issue();
  t.is((await auth([`User-Name = "${username}"`, `User-Password = "${password}"`])).code, 'Access-Accept');
  t.is((await auth([`User-Name = "${username}"`, `User-Password = "${password}"`])).code, 'Access-Reject');
});
