import test, { type ExecutionContext } from 'ava';
import { GatewayConfig } from '../../../services/gateway/config.js';
import { bootGateway, deviceRef, gatewaysFile, grantedSession, MAC, NAS, openGatewayDb, sessionWorld } from './platform.js';
import { freeUdpPort } from './radclient.js';

// Accounting that arrives late (a NAS's retransmission, an entry replayed from
// FreeRADIUS's buffer while later packets went straight through) is dated by Acct-Delay-Time,
// and its order does not matter: a late Start or Interim-Update never re-opens a connection a Stop
// closed, a late Stop still closes, counters are the greatest seen, times the events' own. The
// rest module's calls are made here directly, as FreeRADIUS makes them, on a clock the test moves.
const RADIUS_KEY = { 'X-API-Key': GatewayConfig.parse({}).RADIUS_API_KEY };
const DAY = 86_400;
const attribute = (value: string | number) => ({ type: typeof value === 'number' ? 'integer' : 'string', value: [value] });
const hex = (text: string) => ({ type: 'octets', value: [`0x${Buffer.from(text).toString('hex')}`] });

async function setup(t: ExecutionContext, env: Record<string, string> = {}) {
  const world = await sessionWorld(t);
  const db = await openGatewayDb('memory');
  t.teardown(() => db.close());
  const clock = { now: new Date(Math.floor(Date.now() / 1000) * 1000) };
  const gateway = await bootGateway(t, db, { SESSION_URL: world.session.url, GATEWAYS_FILE: gatewaysFile(t, await freeUdpPort()), ...env }, () => clock.now);
  const sessionId = await grantedSession(world);
  const { username, password } = (await gateway.issue({ sessionId, deviceRef: deviceRef(), nasId: NAS })).body as { username: string; password: string };
  const accepted = await gateway.request('POST', `/radius/authorize?nas=${NAS}`, {
    headers: RADIUS_KEY,
    json: { 'User-Name': attribute(username), 'User-Password': attribute(password), 'Calling-Station-Id': attribute(MAC) },
  });
  t.is(accepted.status, 200, accepted.text);
  /** One Accounting-Request of this session's connection `acct-1`, sent `delay` seconds after its event. */
  const acct = async (status: string, seconds: number, delay = 0, acctSessionId = 'acct-1') => {
    const answer = await gateway.request('POST', `/radius/accounting?nas=${NAS}`, {
      headers: RADIUS_KEY,
      json: {
        'Acct-Status-Type': attribute(status),
        'Acct-Session-Id': attribute(acctSessionId),
        Class: hex(sessionId),
        'User-Name': attribute(username),
        'Calling-Station-Id': attribute(MAC),
        'Acct-Session-Time': attribute(seconds),
        'Acct-Input-Octets': attribute(seconds * 10),
        ...(delay === 0 ? {} : { 'Acct-Delay-Time': attribute(delay) }),
      },
    });
    t.is(answer.status, 204);
  };
  const connection = async () => (await gateway.connection(sessionId)).body;
  const at = (secondsBeforeNow: number) => new Date(clock.now.getTime() - secondsBeforeNow * 1000).toISOString();
  const identity = async () => (await db.query('SELECT identity FROM connections WHERE session_id = $1', [sessionId]))[0]?.['identity'];
  return { clock, acct, connection, at, identity, gateway, db, sessionId };
}

test('a packet is dated by its arrival less Acct-Delay-Time; a delay over a day is ignored', async (t) => {
  const { clock, acct, connection, at } = await setup(t);
  await acct('Start', 0, 90);
  t.like(await connection(), { state: 'CONNECTED', startedAt: at(90), updatedAt: at(90) });
  await acct('Interim-Update', 60, 30);
  t.like(await connection(), { startedAt: at(90), updatedAt: at(30), sessionTime: 60 });
  // A retransmission that took longer: older than what is known, it does not move the time back.
  await acct('Interim-Update', 60, 50);
  t.like(await connection(), { updatedAt: at(30) });
  clock.now = new Date(clock.now.getTime() + 10_000);
  await acct('Interim-Update', 70, DAY + 1);
  t.like(await connection(), { updatedAt: at(0), sessionTime: 70 }, 'nonsense from the NAS: the arrival time');
  await acct('Stop', 80, 5);
  t.like(await connection(), { state: 'DISCONNECTED', stoppedAt: at(5), updatedAt: at(0) });
});

test('a Start or Interim-Update arriving after the Stop re-opens nothing and stores no identity; its counters count', async (t) => {
  const { acct, connection, at, identity } = await setup(t);
  // The Start and an Interim waited in FreeRADIUS's buffer while the Stop went straight through.
  await acct('Stop', 300);
  t.like(await connection(), { state: 'DISCONNECTED', stoppedAt: at(0) });
  t.is(await identity(), null);
  await acct('Start', 0, 300);
  t.like(await connection(), { state: 'DISCONNECTED', startedAt: at(300), stoppedAt: at(0) }, 'the late Start is the same connection, dated back');
  await acct('Interim-Update', 400, 100);
  t.like(await connection(), { state: 'DISCONNECTED', stoppedAt: at(0), inputOctets: 4000, sessionTime: 400 });
  t.is(await identity(), null, 'a late packet does not bring back the identity a Stop erased');
});

test('a Stop arriving late still closes; a later Start under the same id is a new connection, a late one is not', async (t) => {
  const { clock, acct, connection, at } = await setup(t);
  await acct('Start', 0);
  await acct('Interim-Update', 120);
  clock.now = new Date(clock.now.getTime() + 200_000);
  await acct('Stop', 150, 60);
  t.like(await connection(), { state: 'DISCONNECTED', stoppedAt: at(60), inputOctets: 1500 });
  // A duplicate of the first Start, replayed late: before the Stop, the old connection's own.
  await acct('Start', 0, 200);
  t.like(await connection(), { state: 'DISCONNECTED', stoppedAt: at(60) });
  // The NAS reused the id after the Stop: a new connection.
  await acct('Start', 0);
  t.like(await connection(), { state: 'CONNECTED', startedAt: at(0), stoppedAt: null, inputOctets: 0 });
});

test('a late Accounting-On closes the connections open when the NAS restarted, not one started after', async (t) => {
  const { clock, acct, connection } = await setup(t);
  await acct('Start', 0);
  clock.now = new Date(clock.now.getTime() + 30_000);
  await acct('Accounting-On', 0, 60);
  t.like(await connection(), { state: 'CONNECTED' }, 'the NAS restarted before this connection began');
  await acct('Accounting-On', 0, 10);
  t.like(await connection(), { state: 'DISCONNECTED' });
});

test('shutdown writes the Interim-Updates waiting in memory', async (t) => {
  const { acct, gateway, db, sessionId } = await setup(t, { INTERIM_FLUSH_MS: '60000' });
  await acct('Start', 0);
  await acct('Interim-Update', 60);
  await acct('Interim-Update', 120);
  const stored = async () => Number((await db.query('SELECT input_octets FROM connections WHERE session_id = $1', [sessionId]))[0]?.['input_octets']);
  t.is(await stored(), 600, 'the second Interim-Update waits in memory');
  await gateway.close();
  t.is(await stored(), 1200);
});
