import test, { type ExecutionContext } from 'ava';
import { readFileSync } from 'node:fs';
import { wpaSupplicantConfig } from '../../../edge/device-profiles.js';
import { ensureEapCertificates } from '../../../edge/radius-ca.js';
import { GatewayConfig } from '../../../services/gateway/config.js';
import { eapolTest, type Supplicant } from './eapol.js';
import { bootGateway, gatewaysFile, grantedSession, NAS, NAS_SECRET, openGatewayDb, PORTAL_KEY, sessionWorld, startRadiusServer, tempDir } from './platform.js';
import { freeUdpPort, radclient } from './radclient.js';

// 802.1X through Debian's FreeRADIUS (EAP-TTLS, inner PAP) with a real supplicant, wpa_supplicant's
// eapol_test: a device credential issued for a sign-in is accepted while the sign-in lives and
// refused once it is removed, revoked or expired; the outer identity decides nothing. Serial: each
// test runs a FreeRADIUS server and two services, and a loaded 2-core machine makes the gateway
// answer the rest call late when several run at once.
const REALM = GatewayConfig.parse({}).EAP_REALM;
const SERVER_NAME = `radius.${REALM}`;

interface Issued {
  deviceId: string;
  username: string;
  password: string;
  anonymousIdentity: string;
}

async function setup(t: ExecutionContext) {
  const world = await sessionWorld(t);
  const db = await openGatewayDb('memory');
  t.teardown(() => db.close());
  let offsetMs = 0;
  // No NAS listener: these tests open no connection (eap-ends.test.ts has the Disconnects).
  const coaPort = await freeUdpPort();
  const gateway = await bootGateway(t, db, { SESSION_URL: world.session.url, GATEWAYS_FILE: gatewaysFile(t, coaPort) }, () => new Date(Date.now() + offsetMs));
  const certificates = ensureEapCertificates(tempDir(t, 'wifi-eap-ca-'), SERVER_NAME);
  const radius = await startRadiusServer(t, gateway.url, certificates);
  const issue = async (sessionId: string, label?: string) => gateway.request('POST', '/api/v1/devices', { json: { sessionId, label }, headers: PORTAL_KEY });
  const connect = (credential: Pick<Supplicant, 'identity' | 'password'> & Partial<Supplicant>) =>
    eapolTest(radius.authPort, NAS_SECRET, { anonymousIdentity: `anonymous@${REALM}`, caFile: certificates.caFile, serverName: SERVER_NAME, ...credential });
  const issued = async (sessionId: string) => {
    const answer = await issue(sessionId);
    if (answer.status !== 201) throw new Error(answer.text);
    return answer.body as unknown as Issued;
  };
  return { world, db, gateway, radius, certificates, issue, issued, connect, advance: (ms: number) => (offsetMs += ms) };
}

test.serial(
  'a device credential issued for a sign-in is accepted over EAP-TTLS/PAP with the sign-in as Class, the credential as Chargeable-User-Identity, and keys',
  async (t) => {
    const { world, issued, connect } = await setup(t);
    const sessionId = await grantedSession(world);
    const credential = await issued(sessionId);
    t.regex(credential.username, new RegExp(`^[a-z0-9]+@${REALM.replaceAll('.', '\\.')}$`));
    t.is(credential.anonymousIdentity, `anonymous@${REALM}`);
    const outcome = await connect({ identity: credential.username, password: credential.password });
    t.true(outcome.success, outcome.output.slice(-3000));
    t.is(Buffer.from(outcome.attributes['Class'] ?? '', 'hex').toString(), sessionId);
    t.is(outcome.attributes['Chargeable-User-Identity'], credential.deviceId);
    const timeout = Number(outcome.attributes['Session-Timeout']);
    t.true(timeout > 3500 && timeout <= 3600, String(timeout));
    t.true(outcome.mppeKeys);
    t.is(outcome.serverAltName, `DNS:${SERVER_NAME}`);
    t.regex(outcome.tls ?? '', /^TLSv1\.[23]$/);
  },
);

test.serial('a wrong password, an unknown user name and a PEAP/MSCHAPv2 proposal are refused', async (t) => {
  const { world, issued, connect } = await setup(t);
  const credential = await issued(await grantedSession(world));
  t.false((await connect({ identity: credential.username, password: `${credential.password}x` })).success);
  t.false((await connect({ identity: `nobody@${REALM}`, password: credential.password })).success);
  t.false((await connect({ identity: credential.username, password: credential.password, method: 'PEAP' })).success);
});

test.serial(
  "the outer identity decides nothing: another person's user name outside with a valid inner identity is the inner one's sign-in; a valid one outside with a wrong inner password is refused",
  async (t) => {
    const { world, issued, connect } = await setup(t);
    const mine = await grantedSession(world);
    const theirs = await grantedSession(world);
    const me = await issued(mine);
    const them = await issued(theirs);
    const accepted = await connect({ identity: me.username, password: me.password, anonymousIdentity: them.username });
    t.true(accepted.success);
    t.is(Buffer.from(accepted.attributes['Class'] ?? '', 'hex').toString(), mine);
    t.false((await connect({ identity: me.username, password: them.password, anonymousIdentity: them.username })).success);
  },
);

test.serial('a removed device, a revoked sign-in and an expired one are refused at the next authentication', async (t) => {
  const { world, db, gateway, issued, connect, advance } = await setup(t);
  // The gateway's own record of an ended sign-in (its change feed's) refuses, read with the credential itself.
  const recorded = await grantedSession(world);
  const tablet = await issued(recorded);
  await db.query("INSERT INTO ended_sessions (session_id, state, ended_at) VALUES ($1, 'REVOKED', now())", [recorded]);
  t.false((await connect({ identity: tablet.username, password: tablet.password })).success, 'an ended sign-in the gateway recorded');
  const sessionId = await grantedSession(world);
  const phone = await issued(sessionId);
  const laptop = await issued(sessionId);
  const listed = await gateway.request('GET', `/api/v1/devices?sessionId=${sessionId}`, { headers: PORTAL_KEY });
  t.deepEqual(
    (listed.body['devices'] as { deviceId: string }[]).map((d) => d.deviceId),
    [phone.deviceId, laptop.deviceId],
  );
  t.false(JSON.stringify(listed.body).includes(phone.password));
  t.is((await gateway.request('DELETE', `/api/v1/devices/${phone.deviceId}?sessionId=${sessionId}`, { headers: PORTAL_KEY })).status, 204);
  t.is((await gateway.request('DELETE', `/api/v1/devices/${phone.deviceId}?sessionId=${sessionId}`, { headers: PORTAL_KEY })).status, 404);
  t.false((await connect({ identity: phone.username, password: phone.password })).success);
  t.true((await connect({ identity: laptop.username, password: laptop.password })).success);
  // Expiry: the gateway's clock past the sign-in's end.
  advance(3_601_000);
  t.false((await connect({ identity: laptop.username, password: laptop.password })).success);
  advance(-3_601_000);
  t.true((await connect({ identity: laptop.username, password: laptop.password })).success);
  t.is((await world.session.revoke(sessionId)).status, 200);
  t.false((await connect({ identity: laptop.username, password: laptop.password })).success);
});

test.serial(
  "a sign-in holds at most its entitlement's device slots, never more than DEVICE_CREDENTIALS_PER_SESSION; an ended or unknown one gets none",
  async (t) => {
    const { world, gateway, issue } = await setup(t);
    const sessionId = await grantedSession(world);
    for (let i = 0; i < 3; i++) t.is((await issue(sessionId, `device ${i}`)).status, 201);
    const full = await issue(sessionId);
    t.is(full.status, 409);
    t.is(full.body['code'], 'DEVICE_SLOTS_FULL');
    const slotted = (id: string, maxDevices: number) =>
      gateway.request('POST', '/api/v1/devices', { json: { sessionId: id, maxDevices }, headers: PORTAL_KEY });
    t.like((await slotted(sessionId, 8)).body, { code: 'DEVICE_SLOTS_FULL' });
    const customer = await grantedSession(world);
    t.is((await slotted(customer, 1)).status, 201);
    const second = await slotted(customer, 1);
    t.is(second.status, 409);
    t.like(second.body, { code: 'DEVICE_SLOTS_FULL' });
    t.is((await slotted(customer, 2)).status, 201);
    t.is((await slotted(await grantedSession(world), 0)).status, 409, 'an entitlement without device slots gets none');
    t.is((await issue('00000000-0000-4000-8000-000000000000')).status, 404);
    const ended = await grantedSession(world);
    t.is((await world.session.revoke(ended)).status, 200);
    t.is((await issue(ended)).status, 409);
  },
);

test.serial("a person's erasure deletes their device credentials with their sign-ins", async (t) => {
  const { world, gateway, issued, connect } = await setup(t);
  const sessionId = await grantedSession(world);
  const phone = await issued(sessionId);
  const erased = await gateway.request('POST', '/api/v1/connections/erase', { json: { sessionIds: [sessionId] }, headers: PORTAL_KEY });
  t.is(erased.status, 200);
  t.deepEqual((await gateway.request('GET', `/api/v1/devices?sessionId=${sessionId}`, { headers: PORTAL_KEY })).body['devices'], []);
  t.false((await connect({ identity: phone.username, password: phone.password })).success);
});

test.serial('the gateway service never writes a device password, user name or MAC address into a log line', async (t) => {
  const { world, gateway, issued, connect } = await setup(t);
  const phone = await issued(await grantedSession(world));
  const mac = '02:00:00:5e:ca:fe';
  t.true((await connect({ identity: phone.username, password: phone.password, mac })).success);
  t.false((await connect({ identity: phone.username, password: 'not-the-password-canary', mac })).success);
  const logged = gateway.lines.join('\n').toLowerCase();
  for (const form of [mac, mac.replaceAll(':', '-'), mac.replaceAll(':', '')]) t.false(logged.includes(form), form);
  t.false(logged.includes(phone.password.toLowerCase()));
  t.false(logged.includes(phone.username));
  t.false(logged.includes('not-the-password-canary'));
});

test.serial('the downloadable wpa_supplicant profile (the CA a blob inside it), as eapol_test reads it, connects with the issued credential', async (t) => {
  const { world, issued, connect, certificates } = await setup(t);
  const phone = await issued(await grantedSession(world));
  const profile = wpaSupplicantConfig({
    ssid: 'Venue',
    username: phone.username,
    password: phone.password,
    anonymousIdentity: phone.anonymousIdentity,
    caPem: readFileSync(certificates.caFile, 'utf8'),
    serverName: SERVER_NAME,
  });
  const outcome = await connect({ identity: 'unused', password: 'unused', profile });
  t.true(outcome.success, outcome.output.slice(-2000));
});

test.serial('bad input: TTLS with an inner method other than PAP and a malformed EAP message are refused', async (t) => {
  const { world, gateway, radius, issued, connect } = await setup(t);
  const phone = await issued(await grantedSession(world));
  // The gateway service's count of 802.1X decisions: an inner method other than PAP is refused by FreeRADIUS's inner server, before the gateway service is asked.
  const asked = async () =>
    (await gateway.request('GET', '/metrics')).text
      .split('\n')
      .filter((line) => line.startsWith('radius_access_total{') && line.includes('reason="eap-'))
      .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
  const before = await asked();
  t.false((await connect({ identity: phone.username, password: phone.password, phase2: 'MSCHAPV2' })).success);
  t.false((await connect({ identity: phone.username, password: phone.password, phase2: 'CHAP' })).success);
  t.is(await asked(), before, 'the gateway service was never asked about a non-PAP inner method');
  // An EAP-Response whose length field claims more than the packet holds.
  const malformed = await radclient(radius.authPort, 'auth', NAS_SECRET, [
    `User-Name = "anonymous@${REALM}"`,
    'EAP-Message = 0x02aa0040016162',
    'Calling-Station-Id = "02-00-00-00-00-09"',
  ]);
  t.is(malformed.code, 'Access-Reject');
  t.false(gateway.lines.some((line) => line.includes(phone.password)));
});

test.serial(
  'one credential, one device at a time: another calling station is refused while the first is live; the same one again, after its Stop or after the liveness bound, accepted; no MAC or credential logged',
  async (t) => {
    const { world, db, gateway, radius, issued, connect, advance } = await setup(t);
    const sessionId = await grantedSession(world);
    const phone = await issued(sessionId);
    const first = '02:00:00:5e:00:0a';
    const second = '02:00:00:5e:00:0b';
    const as = (mac: string) => connect({ identity: phone.username, password: phone.password, mac });
    const accepted = await as(first);
    t.true(accepted.success, accepted.output.slice(-2000));
    let n = 0;
    const started = async (mac: string) => {
      const acctSessionId = `acct-once-${++n}`;
      const packet = (status: string) => [
        `User-Name = "anonymous@${REALM}"`,
        `Acct-Status-Type = ${status}`,
        `Acct-Session-Id = "${acctSessionId}"`,
        `Class = 0x${accepted.attributes['Class']}`,
        `Chargeable-User-Identity = "${phone.deviceId}"`,
        `Calling-Station-Id = "${mac.replaceAll(':', '-').toUpperCase()}"`,
        'NAS-IP-Address = 127.0.0.1',
        `NAS-Identifier = "${NAS}"`,
      ];
      t.is((await radius.acct(packet('Start'))).code, 'Accounting-Response');
      return { stop: async () => t.is((await radius.acct(packet('Stop'))).code, 'Accounting-Response') };
    };
    const live = await started(first);
    t.false((await as(second)).success, 'another device while the first is connected');
    t.true((await as(first)).success, 'the same device again (a re-association, a roam)');
    const stationRefs = () =>
      db.query<{ acct_session_id: string; station_ref: string | null }>('SELECT acct_session_id, station_ref FROM connections ORDER BY acct_session_id');
    t.truthy((await stationRefs())[0]?.station_ref, 'a live connection keeps its station reference');
    await live.stop();
    t.deepEqual(await stationRefs(), [{ acct_session_id: 'acct-once-1', station_ref: null }], 'a stopped connection keeps no station reference');
    t.true((await as(second)).success, "after the first's Accounting-Stop");
    // The second now holds it; its Stop never comes: refused to the first until the bound passes.
    await started(second);
    t.false((await as(first)).success, 'the first again while the second is connected');
    const settings = GatewayConfig.parse({});
    advance((settings.ACCT_INTERIM_SECONDS * 2 + settings.STALE_GRACE_SECONDS) * 1000 + 1000);
    t.true((await as(first)).success, 'a connection silent past 2 x Acct-Interim-Interval and the grace is not live');
    const logged = gateway.lines.join('\n').toLowerCase();
    for (const mac of [first, second]) for (const form of [mac, mac.replaceAll(':', '-'), mac.replaceAll(':', '')]) t.false(logged.includes(form), form);
    t.false(logged.includes(phone.username));
    t.false(logged.includes(phone.deviceId));
    t.false(logged.includes(phone.password.toLowerCase()));
  },
);
