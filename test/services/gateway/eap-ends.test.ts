import test, { type ExecutionContext } from 'ava';
import { ensureEapCertificates } from '../../../edge/radius-ca.js';
import { GatewayConfig } from '../../../services/gateway/config.js';
import { waitFor } from '../../helpers/wait-for.js';
import { grantBody, SUBJECT_KEY, subject } from '../session/session-service.js';
import { eapolTest, type EapolOutcome } from './eapol.js';
import {
  bootGateway,
  deviceRef,
  disconnectsReceived,
  type GatewayUnderTest,
  gatewaysFile,
  lastReceived,
  NAS,
  NAS_SECRET,
  openGatewayDb,
  PORTAL_KEY,
  type RadiusServer,
  sessionWorld,
  type startNas,
  startRadiusServer,
  tempDir,
  type World,
  startStrictNas,
} from './platform.js';
import { freeUdpPort } from './radclient.js';

// Every way a sign-in ends reaches a live 802.1X connection as it reaches a portal connection:
// the device credential is refused at its next authentication, and the controller holding the
// connection (accounting Start through FreeRADIUS with the Accept's Class and
// Chargeable-User-Identity) gets a Disconnect-Request (RFC 5176). Real FreeRADIUS (EAP-TTLS/PAP),
// real eapol_test, and a strict stand-in of a Cisco WLC (802.1X, Disconnect without CoA) that
// answers a Disconnect lacking one of its attributes with a NAK. One platform for the file: each
// end is a short case of its own sign-in.
const REALM = GatewayConfig.parse({}).EAP_REALM;
const SERVER_NAME = `radius.${REALM}`;
const MIB = 2 ** 20;
const PROFILE = 'cisco-wlc';

interface Platform {
  world: World;
  nas: Awaited<ReturnType<typeof startNas>>;
  gateway: GatewayUnderTest;
  radius: RadiusServer;
  db: Awaited<ReturnType<typeof openGatewayDb>>;
  caFile: string;
  /** The session service's and the gateway's clock, and moving it. */
  now(): Date;
  advance(ms: number): void;
}

// The helpers register their ends with a test's teardown; the file's platform ends after the last test.
const ends: (() => unknown)[] = [];
const fileScope = { teardown: (end: () => unknown) => void ends.push(end), log: () => undefined, passed: true } as unknown as ExecutionContext;
let platform: Promise<Platform> | undefined;
test.after.always(async () => {
  for (const end of ends.reverse()) await end();
});

function shared(): Promise<Platform> {
  platform ??= (async () => {
    let offsetMs = 0;
    const now = () => new Date(Date.now() + offsetMs);
    const world = await sessionWorld(fileScope, now);
    const db = await openGatewayDb('memory');
    fileScope.teardown(() => db.close());
    const coaPort = await freeUdpPort();
    const nas = await startStrictNas(fileScope, coaPort, PROFILE);
    // Feed reads not held: a held read would sleep until the next expiry by the real clock, not the moved one.
    const gateway = await bootGateway(
      fileScope,
      db,
      {
        SESSION_URL: world.session.url,
        GATEWAYS_FILE: gatewaysFile(fileScope, coaPort, PROFILE),
        FEED_WAIT_SECONDS: '0',
        USAGE_PUSH_MS: '50',
        INTERIM_FLUSH_MS: '0',
      },
      now,
    );
    const certificates = ensureEapCertificates(tempDir(fileScope, 'wifi-eap-ca-'), SERVER_NAME);
    const radius = await startRadiusServer(fileScope, gateway.url, certificates);
    return { world, nas, gateway, radius, db, caFile: certificates.caFile, now, advance: (ms: number) => void (offsetMs += ms) };
  })();
  return platform;
}

let connections = 0;

/**
 * A person signed in (`grant` overrides the entitlement) whose device joined over 802.1X with a
 * credential issued for the sign-in, and whose controller sent the accounting Start of the connection.
 */
async function liveDevice(t: ExecutionContext, grant: Record<string, unknown> = {}) {
  const p = await shared();
  const subjectId = subject();
  const created = await p.world.session.create({ subjectId, deviceRef: deviceRef() });
  const sessionId = String(created.body['sessionId']);
  const granted = await p.world.session.grant(
    sessionId,
    grantBody(p.world.clock, { validUntil: new Date(p.now().getTime() + 3600_000).toISOString(), deviceSlots: 2, ...grant }),
  );
  t.is(granted.status, 200, granted.text);
  const issued = await p.gateway.request('POST', '/api/v1/devices', { json: { sessionId }, headers: PORTAL_KEY });
  t.is(issued.status, 201, issued.text);
  const { deviceId, username, password } = issued.body as { deviceId: string; username: string; password: string };
  const connect = (): Promise<EapolOutcome> =>
    eapolTest(p.radius.authPort, NAS_SECRET, {
      identity: username,
      password,
      anonymousIdentity: `anonymous@${REALM}`,
      caFile: p.caFile,
      serverName: SERVER_NAME,
    });
  const accepted = await connect();
  t.true(accepted.success, accepted.output.slice(-2000));
  const acctSessionId = `acct-eap-end-${++connections}`;
  const packet = (status: string, extra: string[] = []) => [
    `User-Name = "anonymous@${REALM}"`,
    `Acct-Status-Type = ${status}`,
    `Acct-Session-Id = "${acctSessionId}"`,
    `Class = 0x${accepted.attributes['Class']}`,
    `Chargeable-User-Identity = "${deviceId}"`,
    'Calling-Station-Id = "02-00-00-00-00-01"',
    'NAS-IP-Address = 127.0.0.1',
    `NAS-Identifier = "${NAS}"`,
    ...extra,
  ];
  t.is((await p.radius.acct(packet('Start'))).code, 'Accounting-Response');
  t.like((await p.gateway.connection(sessionId)).body, { state: 'CONNECTED', connected: true });
  /** The controller got a Disconnect-Request for this connection, and ACKed it (the strict stand-in NAKs one that lacks an attribute it needs). */
  const disconnected = async () => {
    await waitFor(
      () => disconnectsReceived(p.nas),
      (ids) => ids.includes(acctSessionId),
      { timeoutMs: 20_000 },
    );
    const settled = await waitFor(
      () => p.db.query<{ status: string | null }>('SELECT disconnect_status AS status FROM connections WHERE acct_session_id = $1', [acctSessionId]),
      (rows) => rows[0]?.status !== 'PENDING',
      { timeoutMs: 20_000 },
    );
    t.is(settled[0]?.status, 'ACKED');
  };
  return { p, subjectId, sessionId, acctSessionId, accepted, connect, packet, disconnected };
}

/** The device's next authentication after its sign-in ended: refused, with the reason the gateway gave. */
async function refusedAfter(t: ExecutionContext, device: Awaited<ReturnType<typeof liveDevice>>): Promise<void> {
  const again = await device.connect();
  t.false(again.success, 'the credential is refused at its next authentication');
}

test.serial('logout on the portal (its revoke of the sign-in): a Disconnect for the 802.1X connection, and the credential refused', async (t) => {
  const device = await liveDevice(t);
  // What the portal's sign-out calls (portal-session.ts): the network session revoked with the portal's key.
  t.is((await device.p.world.session.revoke(device.sessionId)).status, 200);
  await device.disconnected();
  t.is(lastReceived(device.p.nas.output, 'Disconnect-Request')?.['Acct-Session-Id'], device.acctSessionId);
  await refusedAfter(t, device);
});

for (const [end, reason] of [
  ['an HR termination', 'EMPLOYEE_TERMINATED'],
  ['an HR suspension', 'EMPLOYEE_SUSPENDED'],
  ["an operator's revoke of the voucher", 'VOUCHER_REVOKED'],
] as const) {
  test.serial(`${end} (the subject's sessions revoked, ${reason}): a Disconnect for the 802.1X connection, and the credential refused`, async (t) => {
    const device = await liveDevice(t);
    const revoked = await device.p.world.session.request('POST', `/api/v1/subjects/${device.subjectId}/revoke`, { json: { reason }, headers: SUBJECT_KEY });
    t.deepEqual(revoked.body['revoked'], [device.sessionId]);
    await device.disconnected();
    await refusedAfter(t, device);
  });
}

test.serial("expiry (a voucher's or an entitlement's end passing): a Disconnect for the 802.1X connection, and the credential refused", async (t) => {
  // Two minutes of validity; every other case's sign-in lasts an hour, so moving the clocks ends only this one.
  const device = await liveDevice(t, { validUntil: new Date((await shared()).now().getTime() + 120_000).toISOString() });
  device.p.advance(121_000);
  await device.disconnected();
  t.is((await device.p.world.session.read(device.sessionId)).body['state'], 'EXPIRED');
  await refusedAfter(t, device);
});

test.serial('an allowance running out (its counters from the 802.1X accounting): a Disconnect, and the credential refused until it renews', async (t) => {
  const device = await liveDevice(t, { allowance: { dataBytes: 10 * MIB, timeSeconds: null, period: 'DAY' } });
  t.is(
    (
      await device.p.radius.acct(
        device.packet('Interim-Update', [`Acct-Input-Octets = ${4 * MIB}`, `Acct-Output-Octets = ${7 * MIB}`, 'Acct-Session-Time = 60']),
      )
    ).code,
    'Accounting-Response',
  );
  await device.disconnected();
  t.is((await device.p.world.session.read(device.sessionId)).body['state'], 'GRANTED', 'the sign-in stays: a new period restores access');
  await refusedAfter(t, device);
});

test.serial(
  "a shrunk allowance at a controller without CoA (Cisco WLC): the 802.1X Accept's caps were recorded, so a Disconnect ends the connection; the next Accept carries the lower limit",
  async (t) => {
    const device = await liveDevice(t, { allowance: { dataBytes: null, timeSeconds: 3600, period: 'DAY' } });
    t.true(Number(device.accepted.attributes['Session-Timeout']) > 3500, 'the Accept gave the hour');
    const regranted = await device.p.world.session.grant(
      device.sessionId,
      grantBody(device.p.world.clock, {
        validUntil: new Date(device.p.now().getTime() + 3600_000).toISOString(),
        deviceSlots: 2,
        allowance: { dataBytes: null, timeSeconds: 600, period: 'DAY' },
      }),
    );
    t.is(regranted.status, 200, regranted.text);
    await device.disconnected();
    t.is(lastReceived(device.p.nas.output, 'CoA-Request'), undefined, 'nothing this controller does not take');
    const next = await device.connect();
    t.true(next.success, next.output.slice(-2000));
    t.is(next.attributes['Session-Timeout'], '600');
  },
);
