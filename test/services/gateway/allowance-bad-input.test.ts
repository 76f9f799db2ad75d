import test from 'ava';
import { waitFor } from '../../helpers/wait-for.js';
import { grantBody, subject } from '../session/session-service.js';
import { bootGateway, deviceRef, gatewaysFile, MAC, NAS, NAS_SECRET, openGatewayDb, sessionWorld, startRadiusServer } from './platform.js';
import { freeUdpPort, radclient } from './radclient.js';

// Accounting a NAS gets wrong, through a real FreeRADIUS, the gateway service and its usage feed
// into the session service's allowance counters: a Stop before its Start, octets past 4 GiB in
// their gigawords, counters going backwards, and a reboot (Accounting-On) in the middle of the
// period after which the NAS reuses an Acct-Session-Id. Each is counted once and correctly, or
// changes nothing: the person's counter is read exactly after every step. (The counters' own
// refusals, absurd values included, are in test/services/session/usage-counters.test.ts.)
const GIB = 2 ** 30;
const MIB = 2 ** 20;
const ALLOWANCE = { dataBytes: 20 * GIB, timeSeconds: 36_000, period: 'DAY' };

test('a Stop before its Start, gigawords, counters going backwards and an Accounting-On mid-period are each counted once, or change nothing', async (t) => {
  const world = await sessionWorld(t);
  const db = await openGatewayDb('memory');
  t.teardown(() => db.close());
  const gateway = await bootGateway(t, db, { SESSION_URL: world.session.url, GATEWAYS_FILE: gatewaysFile(t, await freeUdpPort()), USAGE_PUSH_MS: '50' });
  const radius = await startRadiusServer(t, gateway.url);
  t.teardown(() => {
    if (!t.passed) t.log(gateway.lines.join('\n'));
  });
  const created = await world.session.create({ subjectId: subject(), deviceRef: deviceRef() });
  const sessionId = String(created.body['sessionId']);
  const granted = await world.session.grant(
    sessionId,
    grantBody(world.clock, { validUntil: new Date(Date.now() + 1800_000).toISOString(), deviceSlots: 4, allowance: ALLOWANCE }),
  );
  t.is(granted.status, 200, granted.text);
  const issued = (await gateway.issue({ sessionId, deviceRef: deviceRef(), nasId: NAS })).body as { username: string; password: string };
  const accept = await radclient(radius.authPort, 'auth', NAS_SECRET, [
    `User-Name = "${issued.username}"`,
    `User-Password = "${issued.password}"`,
    `Calling-Station-Id = "${MAC}"`,
    `NAS-Identifier = "${NAS}"`,
  ]);
  t.is(accept.code, 'Access-Accept');
  const acct = async (acctSessionId: string, status: string, extra: string[] = []) => {
    const answer = await radius.acct([
      `User-Name = "${issued.username}"`,
      `Acct-Status-Type = ${status}`,
      `Acct-Session-Id = "${acctSessionId}"`,
      `Class = ${accept.attributes['Class']}`,
      `Calling-Station-Id = "${MAC}"`,
      `NAS-Identifier = "${NAS}"`,
      ...extra,
    ]);
    t.is(answer.code, 'Accounting-Response');
  };
  const used = { bytes: 0, seconds: 0 };
  /** Waits until the person's counter reads exactly what was used so far (more would time out). */
  const counted = async (what: string) => {
    const left = await waitFor(
      async () => (await world.session.read(sessionId)).body['remaining'] as { bytesRemaining: number; secondsRemaining: number },
      (r) => r.bytesRemaining === ALLOWANCE.dataBytes - used.bytes && r.secondsRemaining === ALLOWANCE.timeSeconds - used.seconds,
      { timeoutMs: 20_000 },
    ).catch(() => undefined);
    t.not(left, undefined, `${what}: the counter reads ${used.bytes} bytes, ${used.seconds} s used`);
  };
  const octets = (input: number, output: number, seconds: number, gigawords = 0) => [
    `Acct-Input-Octets = ${input}`,
    `Acct-Input-Gigawords = ${gigawords}`,
    `Acct-Output-Octets = ${output}`,
    `Acct-Session-Time = ${seconds}`,
  ];

  // A Stop before its Start: the Stop's totals count; the Start, late (its event earlier), adds nothing.
  await acct('bad-1', 'Stop', octets(MIB, MIB, 60));
  Object.assign(used, { bytes: 2 * MIB, seconds: 60 });
  await acct('bad-1', 'Start', ['Acct-Delay-Time = 90']);
  await counted('a Stop before its Start');

  // Gigawords carry the input past 4 GiB.
  await acct('bad-2', 'Start');
  await acct('bad-2', 'Interim-Update', octets(100, 0, 60, 1));
  Object.assign(used, { bytes: used.bytes + 2 ** 32 + 100, seconds: used.seconds + 60 });
  await counted('an Interim-Update with gigawords');

  // Octets going backwards (a wrap with no gigawords sent): the octets add nothing, the time that went on counts.
  await acct('bad-2', 'Interim-Update', octets(50, 0, 120));
  used.seconds += 60;
  await counted('an Interim-Update whose octets went backwards');

  // The NAS reboots (Accounting-On) and reuses the Acct-Session-Id: a new connection, counted from zero, the day's usage kept.
  await acct('00000000', 'Accounting-On');
  await acct('bad-2', 'Start');
  await acct('bad-2', 'Interim-Update', octets(1000, 0, 10));
  Object.assign(used, { bytes: used.bytes + 1000, seconds: used.seconds + 10 });
  await counted('the same Acct-Session-Id after an Accounting-On');
});
