import test, { type ExecutionContext } from 'ava';
import { CONTROLLER_PROFILES, type ProfileId } from '../../../edge/controllers/index.js';
import { createUsageCounters } from '../../../services/session/usage-counters.js';
import { waitFor } from '../../helpers/wait-for.js';
import { grantBody, subject } from '../session/session-service.js';
import {
  bootGateway,
  deviceRef,
  gatewaysFile,
  lastReceived,
  MAC,
  NAS,
  NAS_SECRET,
  openGatewayDb,
  sessionWorld,
  startNas,
  startRadiusServer,
  type World,
} from './platform.js';
import { freeUdpPort, radclient } from './radclient.js';

// An allowance that shrinks while a connection runs (its session granted again under a smaller
// one: a tier changed, an operator edited the table) reaches the running connection through a
// real FreeRADIUS and a strict NAS stand-in: a controller whose profile declares that a CoA-Request
// lowers its volume cap (CoovaChilli) gets the cap counted from the connection's start (what the
// counters already have of this connection plus what the person has left now), and every CoA
// controller gets Session-Timeout no longer than that connection's time so far plus the time left.
// A controller whose CoA takes no volume (MikroTik) gets none: the counters' Disconnect ends it.
const MIB = 2 ** 20;
const FRAMED_IP = '10.1.0.9';

async function setup(t: ExecutionContext, profile: ProfileId) {
  const world = await sessionWorld(t);
  const coaPort = await freeUdpPort();
  const nas = await startNas(t, coaPort, [], NAS_SECRET, { requires: [...CONTROLLER_PROFILES[profile].disconnect, 'Message-Authenticator'] });
  const db = await openGatewayDb('memory');
  t.teardown(() => db.close());
  const gateway = await bootGateway(t, db, {
    SESSION_URL: world.session.url,
    GATEWAYS_FILE: gatewaysFile(t, coaPort, profile),
    USAGE_PUSH_MS: '50',
    INTERIM_FLUSH_MS: '0',
  });
  const radius = await startRadiusServer(t, gateway.url);
  t.teardown(() => {
    if (!t.passed) t.log(gateway.lines.slice(-40).join('\n'));
  });
  return { world, nas, db, gateway, radius };
}

/** A GRANTED session of a new person under `allowance`, valid 30 minutes. */
async function allowanceSession(world: World, allowance: unknown): Promise<{ sessionId: string; subjectId: string }> {
  const subjectId = subject();
  const created = await world.session.create({ subjectId, deviceRef: deviceRef() });
  const sessionId = String(created.body['sessionId']);
  const granted = await world.session.grant(
    sessionId,
    grantBody(world.clock, { validUntil: new Date(Date.now() + 1800_000).toISOString(), deviceSlots: 4, allowance }),
  );
  if (granted.status !== 200) throw new Error(granted.text);
  return { sessionId, subjectId };
}

for (const profile of ['coovachilli', 'mikrotik'] as const) {
  test.serial(`${profile}: a shrunk allowance reaches the running connection by CoA-Request, its caps counted from the connection's start`, async (t) => {
    const { world, nas, db, gateway, radius } = await setup(t, profile);
    const { sessionId, subjectId } = await allowanceSession(world, { dataBytes: 1024 * MIB, timeSeconds: 3600, period: 'DAY' });
    // Another device of the person used 30 MiB and 120 s today.
    await createUsageCounters(world.sessionDb, 'UTC').add({
      connectionKey: `other-${subjectId}`,
      subjectId,
      period: 'DAY',
      at: new Date(),
      octets: 30 * MIB,
      sessionTime: 120,
    });
    const { username, password } = (await gateway.issue({ sessionId, deviceRef: deviceRef(), nasId: NAS })).body as { username: string; password: string };
    const accept = await radclient(radius.authPort, 'auth', NAS_SECRET, [
      `User-Name = "${username}"`,
      `User-Password = "${password}"`,
      `Calling-Station-Id = "${MAC}"`,
      `NAS-Identifier = "${NAS}"`,
    ]);
    t.is(accept.code, 'Access-Accept', JSON.stringify(accept));
    const acctSessionId = `acct-allowance-coa-${profile}`;
    const packet = (status: string, extra: string[]) => [
      `User-Name = "${username}"`,
      `Acct-Status-Type = ${status}`,
      `Acct-Session-Id = "${acctSessionId}"`,
      `Class = ${accept.attributes['Class']}`,
      `Calling-Station-Id = "${MAC}"`,
      `Framed-IP-Address = ${FRAMED_IP}`,
      'NAS-IP-Address = 127.0.0.1',
      `NAS-Identifier = "${NAS}"`,
      ...extra,
    ];
    t.is((await radius.acct(packet('Start', []))).code, 'Accounting-Response');
    // This connection: 10 MiB and 60 s so far, counted by the session service.
    t.is(
      (await radius.acct(packet('Interim-Update', [`Acct-Input-Octets = ${4 * MIB}`, `Acct-Output-Octets = ${6 * MIB}`, 'Acct-Session-Time = 60']))).code,
      'Accounting-Response',
    );
    await waitFor(
      () => db.query<{ octets: string | number }>('SELECT usage_sent_octets AS octets FROM connections WHERE acct_session_id = $1', [acctSessionId]),
      (rows) => Number(rows[0]?.octets) === 10 * MIB,
      { timeoutMs: 20_000 },
    );

    // The allowance shrinks: 100 MiB and 600 s a day.
    const regrant = await world.session.grant(
      sessionId,
      grantBody(world.clock, {
        validUntil: new Date(Date.now() + 1800_000).toISOString(),
        deviceSlots: 4,
        allowance: { dataBytes: 100 * MIB, timeSeconds: 600, period: 'DAY' },
      }),
    );
    t.is(regrant.status, 200, regrant.text);
    const settled = await waitFor(
      () => db.query<{ status: string | null }>('SELECT coa_status AS status FROM connections WHERE acct_session_id = $1', [acctSessionId]),
      (rows) => rows[0]?.status === 'ACKED' || rows[0]?.status === 'NAKED' || rows[0]?.status === 'NO_ANSWER',
      { timeoutMs: 20_000 },
    ).catch(() => []);
    t.is(settled[0]?.status, 'ACKED', 'the strict stand-in found the session and ACKed');
    const sent = lastReceived(nas.output, 'CoA-Request') ?? {};
    t.is(sent['Acct-Session-Id'], acctSessionId);
    // 600 s a day, 180 used (120 elsewhere, 60 here): 420 left, after this connection's 60 s.
    t.is(sent['Session-Timeout'], '480', 'the time cap from the connection start: 60 s so far + 420 s left');
    if (profile === 'coovachilli') {
      // 100 MiB a day, 40 used (30 elsewhere, 10 here): 60 left, after this connection's 10.
      t.is(sent['ChilliSpot-Max-Total-Octets'], String(70 * MIB), 'the volume cap from the connection start: 10 MiB so far + 60 MiB left');
    } else {
      t.is(sent['Mikrotik-Total-Limit'], undefined, 'no volume in a CoA its profile does not declare');
    }
  });
}
