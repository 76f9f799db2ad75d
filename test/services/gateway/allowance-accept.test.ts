import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { volumeAttributes } from '../../../edge/controllers/types.js';
import { GatewayConfig } from '../../../services/gateway/config.js';
import { allowanceLimits, withQuota } from '../../../services/gateway/opennds-routes.js';
import { createSealer } from '../../../services/kit/index.js';
import { createUsageCounters } from '../../../services/session/usage-counters.js';
import { bootGateway, deviceRef, MAC, NAS, NAS_SECRET, openGatewayDb, sessionWorld, tempDir, UAM_SECRET, type World, allowanceSession } from './platform.js';

// What an allowance leaves is what the Access-Accept claims: Session-Timeout no longer than the
// time left, the controller's volume attribute the data left; nothing left is a refusal naming
// the renewal, for the one-time credential and for MAC authentication alike. The rest module's
// calls are made directly (no FreeRADIUS: allowance-enforce.test.ts goes through it).
const REST_KEY = { 'X-API-Key': GatewayConfig.parse({}).RADIUS_API_KEY };
const attribute = (value: string) => ({ type: 'string', value: [value] });
const GIB = 2 ** 30;

async function setup(t: ExecutionContext) {
  const world = await sessionWorld(t);
  const db = await openGatewayDb('memory');
  t.teardown(() => db.close());
  const sealer = createSealer(GatewayConfig.parse({}).GATEWAY_SEAL_KEY);
  const file = join(tempDir(t, 'wifi-allowance-'), 'gateways.json');
  writeFileSync(
    file,
    JSON.stringify({
      gateways: [
        {
          nasId: NAS,
          profile: 'mikrotik',
          address: '127.0.0.1',
          secret: sealer.seal(NAS_SECRET),
          uamSecret: sealer.seal(UAM_SECRET),
          macAuthentication: true,
          loginUrls: ['http://10.5.50.1/login'],
        },
      ],
    }),
  );
  const gateway = await bootGateway(t, db, { SESSION_URL: world.session.url, GATEWAYS_FILE: file });
  const authorize = (body: Record<string, unknown>) => gateway.request('POST', `/radius/authorize?nas=${NAS}`, { json: body, headers: REST_KEY });
  const signIn = async (sessionId: string) => {
    const { username, password } = (await gateway.issue({ sessionId, deviceRef: deviceRef(), nasId: NAS })).body as { username: string; password: string };
    return authorize({ 'User-Name': attribute(username), 'User-Password': attribute(password), 'Calling-Station-Id': attribute(MAC) });
  };
  const stop = (sessionId: string) =>
    gateway.request('POST', `/radius/accounting?nas=${NAS}`, {
      json: {
        'User-Name': attribute(MAC),
        'Acct-Status-Type': attribute('Stop'),
        'Acct-Session-Id': attribute('acct-1'),
        'Calling-Station-Id': attribute(MAC),
        Class: { type: 'octets', value: [`0x${Buffer.from(sessionId).toString('hex')}`] },
        'Acct-Terminate-Cause': attribute('Idle-Timeout'),
      },
      headers: REST_KEY,
    });
  const macAuth = () => authorize({ 'User-Name': attribute(MAC), 'User-Password': attribute(MAC), 'Calling-Station-Id': attribute(MAC) });
  return { world, signIn, stop, macAuth };
}

async function allowanceWithUse(world: World, allowance: unknown) {
  const { sessionId, subjectId } = await allowanceSession(world, allowance);
  const use = (octets: number, sessionTime: number, key = 'earlier') =>
    createUsageCounters(world.sessionDb, 'UTC').add({ connectionKey: `${key}-${subjectId}`, subjectId, period: 'DAY', at: new Date(), octets, sessionTime });
  return { sessionId, use };
}

const renewal = () => {
  const midnight = new Date();
  midnight.setUTCHours(24, 0, 0, 0);
  return `Your allowance for this period is used up; it renews at ${midnight.toISOString()}.`;
};

test.serial('a one-time credential: Session-Timeout is the time left, Mikrotik-Total-Limit with its gigawords the data left', async (t) => {
  const { world, signIn } = await setup(t);
  const { sessionId, use } = await allowanceWithUse(world, { dataBytes: 5 * GIB + 100, timeSeconds: 1200, period: 'DAY' });
  await use(GIB, 500);
  const accepted = await signIn(sessionId);
  t.is(accepted.status, 200, accepted.text);
  t.like(accepted.body, { 'reply:Session-Timeout': 700, 'reply:Mikrotik-Total-Limit': 100, 'reply:Mikrotik-Total-Limit-Gigawords': 1 });
});

test.serial('a session shorter than the time left keeps its own Session-Timeout; a data-only allowance caps only the volume', async (t) => {
  const { world, signIn } = await setup(t);
  const { sessionId } = await allowanceWithUse(world, { dataBytes: 1000, timeSeconds: null, period: 'DAY' });
  const accepted = await signIn(sessionId);
  t.is(accepted.status, 200, accepted.text);
  t.true(Number(accepted.body['reply:Session-Timeout']) > 1700);
  t.is(accepted.body['reply:Mikrotik-Total-Limit'], 1000);
  t.is(accepted.body['reply:Mikrotik-Total-Limit-Gigawords'], undefined);
});

test.serial('nothing left (time or data) is a refusal that names the renewal', async (t) => {
  const { world, signIn } = await setup(t);
  const time = await allowanceWithUse(world, { dataBytes: null, timeSeconds: 600, period: 'DAY' });
  await time.use(10, 600);
  const refused = await signIn(time.sessionId);
  t.is(refused.status, 401);
  t.is(refused.body['reply:Reply-Message'], renewal());
  const data = await allowanceWithUse(world, { dataBytes: 1000, timeSeconds: null, period: 'DAY' });
  await data.use(1000, 5);
  t.is((await signIn(data.sessionId)).body['reply:Reply-Message'], renewal());
});

test.serial('MAC authentication of a returning device carries the same limits, and is refused the same way with nothing left', async (t) => {
  const { world, signIn, stop, macAuth } = await setup(t);
  const { sessionId, use } = await allowanceWithUse(world, { dataBytes: 2 * GIB, timeSeconds: 900, period: 'DAY' });
  t.is((await signIn(sessionId)).status, 200);
  t.is((await stop(sessionId)).status, 204);
  await use(GIB, 300);
  const back = await macAuth();
  t.is(back.status, 200, back.text);
  t.like(back.body, { 'reply:Session-Timeout': 600, 'reply:Mikrotik-Total-Limit': GIB });
  t.is(back.body['reply:Mikrotik-Total-Limit-Gigawords'], undefined);
  await use(2 * GIB, 600);
  const refused = await macAuth();
  t.is(refused.status, 401);
  t.is(refused.body['reply:Reply-Message'], renewal());
});

test('volume attributes: 32-bit octets with gigawords where the vendor has them, else capped at the 32-bit maximum', (t) => {
  t.deepEqual(volumeAttributes({ octets: 'A', gigawords: 'G' }, 3 * 2 ** 32 + 7), { A: 7, G: 3 });
  t.deepEqual(volumeAttributes({ octets: 'A', gigawords: 'G' }, 5), { A: 5 });
  t.deepEqual(volumeAttributes({ octets: 'A', gigawords: null }, 2 ** 33), { A: 2 ** 32 - 1 });
  t.deepEqual(volumeAttributes(null, 5), {});
});

test("openNDS: the allowance's time and data become the client's time and quotas (each direction capped at what is left)", (t) => {
  const limits = { up: 1_000_000, down: 5_000_000, upQuotaKB: 0, downQuotaKB: 50 };
  const left = allowanceLimits({ bytesRemaining: 100 * 1024, secondsRemaining: 300, renewsAt: '2026-11-28T00:00:00.000Z' });
  t.like(left, { usedUp: false, seconds: 300, quotaKB: 100 });
  t.like(withQuota(limits, left.quotaKB), { upQuotaKB: 100, downQuotaKB: 50 });
  t.true(allowanceLimits({ bytesRemaining: 0, secondsRemaining: null, renewsAt: '2026-11-28T00:00:00.000Z' }).usedUp);
  t.is(
    allowanceLimits({ bytesRemaining: 10, secondsRemaining: null, renewsAt: '2026-11-28T00:00:00.000Z' }).quotaKB,
    1,
    'less than 1 kB left is 1 kB, never 0 (no quota)',
  );
  t.deepEqual(withQuota(limits, allowanceLimits(null).quotaKB), limits, 'no allowance: the table as it is');
});
