import test, { type ExecutionContext } from 'ava';
import type { ProfileId } from '../../../edge/controllers/index.js';
import { createUsageCounters } from '../../../services/session/usage-counters.js';
import { waitFor } from '../../helpers/wait-for.js';
import {
  bootGateway,
  deviceRef,
  disconnectsReceived,
  gatewaysFile,
  MAC,
  NAS,
  NAS_SECRET,
  openGatewayDb,
  sessionWorld,
  startNas,
  startRadiusServer,
  type World,
  allowanceSession,
} from './platform.js';
import { freeUdpPort, hexText, radclient } from './radclient.js';

// Allowances enforced through a real FreeRADIUS: each Access-Accept carries what the person has
// left (Session-Timeout no longer than the time left, the controller's own volume attribute), a
// sign-in with nothing left is an Access-Reject naming the renewal, and accounting feeds the
// counters once per packet until a counter runs out, which ends the connection by Disconnect.
// One test at a time (see access.test.ts).
const GIB = 2 ** 30;

async function setup(t: ExecutionContext, profile: ProfileId, env: Record<string, string> = {}) {
  const world = await sessionWorld(t);
  const coaPort = await freeUdpPort();
  const db = await openGatewayDb('memory');
  t.teardown(() => db.close());
  const gateway = await bootGateway(t, db, { SESSION_URL: world.session.url, GATEWAYS_FILE: gatewaysFile(t, coaPort, profile), ...env });
  const radius = await startRadiusServer(t, gateway.url);
  t.teardown(() => {
    if (!t.passed) t.log(gateway.lines.join('\n'));
  });
  return { world, gateway, radius, coaPort };
}

/** Usage already counted for the person today, as the accounting of another device would have. */
const used = (world: World, subjectId: string, octets: number, sessionTime: number) =>
  createUsageCounters(world.sessionDb, 'UTC').add({ connectionKey: `earlier-${subjectId}`, subjectId, period: 'DAY', at: new Date(), octets, sessionTime });

async function signIn(t: ExecutionContext, setupOf: Awaited<ReturnType<typeof setup>>, sessionId: string) {
  const issued = await setupOf.gateway.issue({ sessionId, deviceRef: deviceRef(), nasId: NAS });
  t.is(issued.status, 201, issued.text);
  const { username, password } = issued.body as { username: string; password: string };
  const answer = await radclient(setupOf.radius.authPort, 'auth', NAS_SECRET, [
    `User-Name = "${username}"`,
    `User-Password = "${password}"`,
    `Calling-Station-Id = "${MAC}"`,
    `NAS-Identifier = "${NAS}"`,
  ]);
  return { username, answer };
}

const VOLUME: Record<'coovachilli' | 'mikrotik' | 'pfsense' | 'cisco-wlc', Record<string, string | undefined>> = {
  // No gigawords companion in FreeRADIUS's dictionary.chillispot: capped at the 32-bit maximum.
  coovachilli: { 'ChilliSpot-Max-Total-Octets': String(2 ** 32 - 1) },
  mikrotik: { 'Mikrotik-Total-Limit': String(GIB), 'Mikrotik-Total-Limit-Gigawords': '1' },
  pfsense: { 'pfSense-Max-Total-Octets': String(2 ** 32 - 1) },
  'cisco-wlc': { 'ChilliSpot-Max-Total-Octets': undefined, 'Mikrotik-Total-Limit': undefined },
};

for (const [profile, volume] of Object.entries(VOLUME) as [keyof typeof VOLUME, Record<string, string | undefined>][]) {
  test.serial(`${profile}: the Accept's Session-Timeout is the time left of the allowance, and its volume attribute the data left`, async (t) => {
    const context = await setup(t, profile);
    const { sessionId, subjectId } = await allowanceSession(context.world, { dataBytes: 6 * GIB, timeSeconds: 900, period: 'DAY' });
    t.like(await used(context.world, subjectId, GIB, 300), { kind: 'counted' });
    const { answer } = await signIn(t, context, sessionId);
    t.is(answer.code, 'Access-Accept', JSON.stringify(answer));
    t.is(hexText(answer.attributes['Class']), sessionId);
    t.is(answer.attributes['Session-Timeout'], '600', '900 s a day, 300 used: 600 left (the session itself lasts 1800 s)');
    for (const [name, value] of Object.entries(volume)) t.is(answer.attributes[name], value, name);
  });
}

test.serial('without an allowance the Accept is as before: Session-Timeout is the session, no volume attribute', async (t) => {
  const context = await setup(t, 'mikrotik');
  const { sessionId } = await allowanceSession(context.world, null);
  const { answer } = await signIn(t, context, sessionId);
  t.is(answer.code, 'Access-Accept');
  t.true(Number(answer.attributes['Session-Timeout']) > 1700);
  t.is(answer.attributes['Mikrotik-Total-Limit'], undefined);
});

test.serial('a sign-in with nothing left is an Access-Reject that says when the allowance renews', async (t) => {
  const context = await setup(t, 'coovachilli');
  const { sessionId, subjectId } = await allowanceSession(context.world, { dataBytes: GIB, timeSeconds: null, period: 'DAY' });
  await used(context.world, subjectId, GIB, 60);
  const { answer } = await signIn(t, context, sessionId);
  t.is(answer.code, 'Access-Reject');
  const midnight = new Date();
  midnight.setUTCHours(24, 0, 0, 0);
  t.is(answer.attributes['Reply-Message'], `Your allowance for this period is used up; it renews at ${midnight.toISOString()}.`);
});

test.serial(
  'accounting feeds the counters once per packet (a replayed Interim-Update counts once); a counter running out ends the connection by Disconnect',
  async (t) => {
    const context = await setup(t, 'coovachilli', { USAGE_PUSH_MS: '50' });
    const nas = await startNas(t, context.coaPort);
    const { sessionId } = await allowanceSession(context.world, { dataBytes: 10 * 2 ** 20, timeSeconds: 3600, period: 'DAY' });
    const { username, answer } = await signIn(t, context, sessionId);
    t.is(answer.code, 'Access-Accept');
    const acct = (status: string, extra: string[] = []) =>
      context.radius.acct([
        `User-Name = "${username}"`,
        `Acct-Status-Type = ${status}`,
        'Acct-Session-Id = "acct-allow-1"',
        `Class = ${answer.attributes['Class']}`,
        `Calling-Station-Id = "${MAC}"`,
        ...extra,
      ]);
    const left = async () => (await context.world.session.read(sessionId)).body['remaining'] as { bytesRemaining: number; secondsRemaining: number };
    await acct('Start');
    const interim = ['Acct-Input-Octets = 1048576', 'Acct-Output-Octets = 2097152', 'Acct-Session-Time = 120'];
    await acct('Interim-Update', interim);
    await waitFor(left, (r) => r.bytesRemaining === 7 * 2 ** 20, { timeoutMs: 20_000 });
    await acct('Interim-Update', interim);
    await acct('Interim-Update', ['Acct-Input-Octets = 1048576', 'Acct-Output-Octets = 1048576', 'Acct-Session-Time = 60', 'Acct-Delay-Time = 60']);
    await acct('Interim-Update', ['Acct-Input-Octets = 1048576', 'Acct-Output-Octets = 2097152', 'Acct-Session-Time = 180']);
    t.like(
      await waitFor(left, (r) => r.secondsRemaining === 3420, { timeoutMs: 20_000 }),
      { bytesRemaining: 7 * 2 ** 20 },
      'the replay and the late packet added nothing',
    );
    t.deepEqual(disconnectsReceived(nas), []);
    await acct('Interim-Update', ['Acct-Input-Octets = 4194304', 'Acct-Output-Octets = 7340032', 'Acct-Session-Time = 240']);
    await waitFor(
      async () => disconnectsReceived(nas),
      (ids) => ids.includes('acct-allow-1'),
      { timeoutMs: 20_000 },
    );
    t.like(await left(), { bytesRemaining: 0 });
    t.is((await context.world.session.read(sessionId)).body['state'], 'GRANTED', 'the session stays: a new period restores access without any action');
  },
);
