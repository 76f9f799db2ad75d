import test, { type ExecutionContext } from 'ava';
import type { ProfileId } from '../../../edge/controllers/index.js';
import { createUsageCounters } from '../../../services/session/usage-counters.js';
import { waitFor } from '../../helpers/wait-for.js';
import { grantBody } from '../session/session-service.js';
import { deviceRef, disconnectsReceived, lastReceived, MAC, NAS, NAS_SECRET, type openGatewayDb, controllerWorld, allowanceSession } from './platform.js';
import { radclient } from './radclient.js';

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
  const { world, nas, db, gateway, radius } = await controllerWorld(t, profile, { USAGE_PUSH_MS: '50', INTERIM_FLUSH_MS: '0' });
  t.teardown(() => {
    if (!t.passed) t.log(gateway.lines.slice(-40).join('\n'));
  });
  return { world, nas, db, gateway, radius };
}

/** The Access-Request of a credential issued for the session, through the real FreeRADIUS. */
async function authenticate(gateway: Awaited<ReturnType<typeof setup>>['gateway'], radius: Awaited<ReturnType<typeof setup>>['radius'], sessionId: string) {
  const { username, password } = (await gateway.issue({ sessionId, deviceRef: deviceRef(), nasId: NAS })).body as { username: string; password: string };
  const accept = await radclient(radius.authPort, 'auth', NAS_SECRET, [
    `User-Name = "${username}"`,
    `User-Password = "${password}"`,
    `Calling-Station-Id = "${MAC}"`,
    `NAS-Identifier = "${NAS}"`,
  ]);
  return { username, accept };
}

/**
 * A person under `allowance` whose other device used 30 MiB and 120 s today, with a connection at
 * a `profile` NAS that used 10 MiB and 60 s so far, counted by the session service.
 */
async function runningConnection(t: ExecutionContext, profile: ProfileId, allowance: unknown) {
  const running = await setup(t, profile);
  const { world, db, gateway, radius } = running;
  const { sessionId, subjectId } = await allowanceSession(world, allowance);
  await createUsageCounters(world.sessionDb, 'UTC').add({
    connectionKey: `other-${subjectId}`,
    subjectId,
    period: 'DAY',
    at: new Date(),
    octets: 30 * MIB,
    sessionTime: 120,
  });
  const { username, accept } = await authenticate(gateway, radius, sessionId);
  t.is(accept.code, 'Access-Accept', JSON.stringify(accept));
  const acctSessionId = `acct-allowance-${profile}`;
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
  t.is(
    (await radius.acct(packet('Interim-Update', [`Acct-Input-Octets = ${4 * MIB}`, `Acct-Output-Octets = ${6 * MIB}`, 'Acct-Session-Time = 60']))).code,
    'Accounting-Response',
  );
  await waitFor(
    () => db.query<{ octets: string | number }>('SELECT usage_sent_octets AS octets FROM connections WHERE acct_session_id = $1', [acctSessionId]),
    (rows) => Number(rows[0]?.octets) === 10 * MIB,
    { timeoutMs: 20_000 },
  );
  /** The session granted again under `next`. */
  const regrant = async (next: unknown) => {
    const answer = await world.session.grant(
      sessionId,
      grantBody(world.clock, { validUntil: new Date(Date.now() + 1800_000).toISOString(), deviceSlots: 4, allowance: next }),
    );
    t.is(answer.status, 200, answer.text);
  };
  return { ...running, sessionId, acctSessionId, accept, regrant };
}

for (const profile of ['coovachilli', 'mikrotik'] as const) {
  test.serial(`${profile}: a shrunk allowance reaches the running connection by CoA-Request, its caps counted from the connection's start`, async (t) => {
    const { nas, db, acctSessionId, regrant } = await runningConnection(t, profile, { dataBytes: 1024 * MIB, timeSeconds: 3600, period: 'DAY' });
    // The allowance shrinks: 100 MiB and 600 s a day.
    await regrant({ dataBytes: 100 * MIB, timeSeconds: 600, period: 'DAY' });
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

// A controller that takes no CoA keeps the caps its Access-Accept gave while the connection runs:
// when what the person has left falls below them, a Disconnect ends the connection, so the next
// authentication carries the lower limit; a raise, or a shrink the caps do not pass, sends nothing.
/** The connection's limit check once it was settled: a Disconnect queued or nothing (the CoA entry dropped). */
const limitChecked = (db: Awaited<ReturnType<typeof openGatewayDb>>, acctSessionId: string) =>
  waitFor(
    () =>
      db.query<{ coa: string | null; attempts: number; disconnect: string | null }>(
        'SELECT coa_status AS coa, coa_attempts AS attempts, disconnect_status AS disconnect FROM connections WHERE acct_session_id = $1',
        [acctSessionId],
      ),
    (rows) => rows[0] !== undefined && rows[0].coa === null && (rows[0].attempts > 0 || rows[0].disconnect !== null),
    { timeoutMs: 20_000 },
  );

const VOLUME_OF: Record<'pfsense' | 'cisco-wlc', string | undefined> = { pfsense: 'pfSense-Max-Total-Octets', 'cisco-wlc': undefined };

for (const profile of ['pfsense', 'cisco-wlc'] as const) {
  test.serial(
    `${profile} (no CoA): time and data shrunk below what the connection's Accept gave: a Disconnect the strict stand-in ACKs, no CoA-Request; the next Accept carries the lower limit`,
    async (t) => {
      const { nas, db, gateway, radius, sessionId, acctSessionId, accept, regrant } = await runningConnection(t, profile, {
        dataBytes: 1024 * MIB,
        timeSeconds: 3600,
        period: 'DAY',
      });
      t.true(Number(accept.attributes['Session-Timeout']) > 1700, 'the Accept gave the validity: 30 minutes');
      await regrant({ dataBytes: 100 * MIB, timeSeconds: 600, period: 'DAY' });
      await waitFor(
        () => disconnectsReceived(nas),
        (ids) => ids.includes(acctSessionId),
        { timeoutMs: 20_000 },
      );
      t.is((await limitChecked(db, acctSessionId))[0]?.disconnect, 'ACKED');
      t.is(lastReceived(nas.output, 'CoA-Request'), undefined, 'nothing this controller does not take');
      const next = await authenticate(gateway, radius, sessionId);
      t.is(next.accept.code, 'Access-Accept', JSON.stringify(next.accept));
      // 600 s a day, 180 used: 420 left; 100 MiB a day, 40 used: 60 left.
      t.is(next.accept.attributes['Session-Timeout'], '420');
      const volume = VOLUME_OF[profile];
      if (volume !== undefined) t.is(next.accept.attributes[volume], String(60 * MIB));
    },
  );
}

test.serial("pfsense (no CoA): data alone shrunk below the Accept's volume cap is a Disconnect", async (t) => {
  const { nas, db, acctSessionId, regrant } = await runningConnection(t, 'pfsense', { dataBytes: 1024 * MIB, timeSeconds: null, period: 'DAY' });
  await regrant({ dataBytes: 100 * MIB, timeSeconds: null, period: 'DAY' });
  await waitFor(
    () => disconnectsReceived(nas),
    (ids) => ids.includes(acctSessionId),
    { timeoutMs: 20_000 },
  );
  t.is((await limitChecked(db, acctSessionId))[0]?.disconnect, 'ACKED');
});

test.serial(
  'cisco-wlc (no CoA, no volume attribute): data alone shrunk sends nothing (no Accept carries a volume there; the counters end it at zero)',
  async (t) => {
    const { nas, db, acctSessionId, regrant } = await runningConnection(t, 'cisco-wlc', { dataBytes: 1024 * MIB, timeSeconds: null, period: 'DAY' });
    await regrant({ dataBytes: 100 * MIB, timeSeconds: null, period: 'DAY' });
    const [row] = await limitChecked(db, acctSessionId);
    t.is(row?.disconnect, null);
    t.deepEqual(disconnectsReceived(nas), []);
  },
);

test.serial('pfsense (no CoA): a raised allowance sends nothing: the caps the Accept gave stay the stricter ones', async (t) => {
  const { nas, db, acctSessionId, regrant } = await runningConnection(t, 'pfsense', { dataBytes: 1024 * MIB, timeSeconds: 3600, period: 'DAY' });
  await regrant({ dataBytes: 2048 * MIB, timeSeconds: 7200, period: 'DAY' });
  const [row] = await limitChecked(db, acctSessionId);
  t.is(row?.disconnect, null);
  t.deepEqual(disconnectsReceived(nas), []);
  t.is(lastReceived(nas.output, 'CoA-Request'), undefined);
});
