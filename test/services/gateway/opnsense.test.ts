import { readFileSync } from 'node:fs';
import test, { type ExecutionContext } from 'ava';
import { waitFor } from '../../helpers/wait-for.js';
import { bootGateway, deviceRef, gatewaysFile, grantedSession, NAS, NAS_SECRET, openGatewayDb, sessionWorld, startRadiusServer } from './platform.js';
import { freeUdpPort, hexText, radclient } from './radclient.js';

// OPNsense's captive portal as its RADIUS authenticator (opnsense/core
// src/opnsense/mvc/app/library/OPNsense/Auth/Radius.php, recorded in
// test/edge/controllers/captures/opnsense.json) talks to a real FreeRADIUS in front of the
// gateway service: PAP with Message-Authenticator, its MAC as Calling-Station-Id with colons,
// its authentication server's refid as NAS-Identifier; accounting without Class or
// Calling-Station-Id. One test at a time (each starts FreeRADIUS).
const CAPTURE = JSON.parse(readFileSync(new URL('../../edge/controllers/captures/opnsense.json', import.meta.url), 'utf8')) as {
  radius: { noClassInAccounting: boolean };
};
const OPN_MAC = 'aa:bb:cc:dd:ee:01';
const REFID = '5f1c2b3a4d5e6';

async function setup(t: ExecutionContext) {
  const world = await sessionWorld(t);
  const db = await openGatewayDb('memory');
  t.teardown(() => db.close());
  const gateway = await bootGateway(t, db, {
    SESSION_URL: world.session.url,
    GATEWAYS_FILE: gatewaysFile(t, await freeUdpPort(), 'opnsense'),
    DISCONNECT_ATTEMPTS: '2',
  });
  const radius = await startRadiusServer(t, gateway.url);
  const issue = async () => {
    const sessionId = await grantedSession(world, deviceRef(), 1800, { tier: 'BOOST', qosClass: 'HIGH' });
    const answer = await gateway.issue({ sessionId, deviceRef: deviceRef(), nasId: NAS });
    t.is(answer.status, 201, answer.text);
    return { sessionId, ...(answer.body as { username: string; password: string; chapResponse?: string }) };
  };
  // AccessController::logonAction -> Radius::authenticate: the attributes OPNsense puts in (no NAS-IP-Address configured).
  const logon = (username: string, password: string) =>
    radclient(radius.authPort, 'auth', NAS_SECRET, [
      `User-Name = "${username}"`,
      `User-Password = "${password}"`,
      'Service-Type = Login-User',
      'Framed-Protocol = 15',
      `NAS-Identifier = "${REFID}"`,
      'NAS-Port = 0',
      'NAS-Port-Type = Ethernet',
      `Calling-Station-Id = "${OPN_MAC}"`,
    ]);
  // Radius::startAccounting / stopAccounting: no Class, no Calling-Station-Id.
  const acct = (username: string, acctSessionId: string, lines: string[]) =>
    radius.acct([
      `NAS-Identifier = "${REFID}"`,
      'Service-Type = Framed-User',
      'Framed-Protocol = 15',
      'NAS-Port = 0',
      'NAS-Port-Type = Ethernet',
      `User-Name = "${username}"`,
      `Acct-Session-Id = "${acctSessionId}"`,
      'Acct-Authentic = Local',
      ...lines,
    ]);
  return { world, gateway, issue, logon, acct };
}

test.serial(
  'OPNsense: PAP as its authenticator sends it is accepted with Session-Timeout and Acct-Interim-Interval only; the same credential again is a replay (it never re-authenticates)',
  async (t) => {
    const { issue, logon } = await setup(t);
    const { sessionId, username, password, chapResponse } = await issue();
    t.is(chapResponse, undefined, 'no CHAP form reaches an OPNsense page');
    const answer = await logon(username, password);
    t.is(answer.code, 'Access-Accept', JSON.stringify(answer));
    t.is(hexText(answer.attributes['Class']), sessionId);
    const timeout = Number(answer.attributes['Session-Timeout']);
    t.true(timeout > 1700 && timeout <= 1800, String(timeout));
    t.true(Number(answer.attributes['Acct-Interim-Interval']) >= 60);
    for (const ignored of ['WISPr-Bandwidth-Max-Up', 'WISPr-Bandwidth-Max-Down', 'Idle-Timeout'])
      t.is(answer.attributes[ignored], undefined, `${ignored} is not read by OPNsense`);
    t.is((await logon(username, password)).code, 'Access-Reject', 'single use');
  },
);

test.serial(
  'OPNsense accounting carries no Class: the connection is found by the credential in User-Name at this NAS; a Stop after its logoff API (User-Request) ends the network session',
  async (t) => {
    t.true(CAPTURE.radius.noClassInAccounting);
    const { world, gateway, issue, logon, acct } = await setup(t);
    const { sessionId, username, password } = await issue();
    t.is((await logon(username, password)).code, 'Access-Accept');
    t.is((await acct(username, 'opn-sess-1', ['Acct-Status-Type = Start'])).code, 'Accounting-Response');
    t.is((await gateway.connection(sessionId)).body['connected'], true);
    const stop = [
      'Acct-Status-Type = Stop',
      'Acct-Session-Time = 60',
      'Acct-Input-Octets = 1000',
      'Acct-Output-Octets = 2000',
      'Acct-Input-Gigawords = 0',
      'Acct-Output-Gigawords = 0',
      'Framed-IP-Address = 10.20.0.7',
      'Acct-Terminate-Cause = User-Request',
    ];
    t.is((await acct(username, 'opn-sess-1', stop)).code, 'Accounting-Response');
    t.is((await gateway.connection(sessionId)).body['connected'], false);
    t.is((await world.session.read(sessionId)).body['state'], 'REVOKED');
  },
);

test.serial(
  "OPNsense has no Disconnect listener: a revoked session's Disconnect-Request goes unanswered (NO_ANSWER); its Session-Timeout is what ends it there",
  async (t) => {
    const { world, gateway, issue, logon, acct } = await setup(t);
    const { sessionId, username, password } = await issue();
    const accept = await logon(username, password);
    t.is(accept.code, 'Access-Accept');
    t.true(Number(accept.attributes['Session-Timeout']) <= 1800, "the entitlement's time left bounds the session at the firewall");
    t.is((await acct(username, 'opn-sess-2', ['Acct-Status-Type = Start'])).code, 'Accounting-Response');
    t.is((await world.session.revoke(sessionId)).status, 200);
    const settled = await waitFor(
      async () => (await gateway.connection(sessionId)).body,
      (body) => body['disconnect'] !== null && body['disconnect'] !== 'PENDING',
      { timeoutMs: 20_000 },
    );
    t.is(settled['disconnect'], 'NO_ANSWER');
  },
);
