import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { createSealer } from '../../../services/kit/index.js';
import { GatewayConfig } from '../../../services/gateway/config.js';
import {
  bootGateway,
  deviceRef,
  grantedSession,
  MAC,
  NAS,
  NAS_SECRET,
  openGatewayDb,
  sessionWorld,
  startRadiusServer,
  tempDir,
  UAM_SECRET,
  type RadiusServer,
  type World,
} from './platform.js';
import { hexText, radclient } from './radclient.js';

// A device whose network session is GRANTED and unexpired gets back on with no
// typing: the controller's MAC authentication (User-Name = the device's MAC) is accepted with
// the time left, at the gateways of its venue group that enable it, once its connection stopped
// (mac-authentication.test.ts: the window after the Stop), and rejected once the session ended.

const REST_KEY = { 'X-API-Key': GatewayConfig.parse({}).RADIUS_API_KEY };
const attribute = (value: string) => ({ type: 'string', value: [value] });

/** A device signed in at the portal, its connection at NAS started and then stopped (it went to sleep). */
async function signedIn(t: ExecutionContext, world: World, gateway: Awaited<ReturnType<typeof bootGateway>>, radius: RadiusServer) {
  const sessionId = await grantedSession(world, deviceRef(), 1800);
  const { username, password } = (await gateway.issue({ sessionId, deviceRef: deviceRef(), nasId: NAS })).body as { username: string; password: string };
  t.is(
    (await radclient(radius.authPort, 'auth', NAS_SECRET, [`User-Name = "${username}"`, `User-Password = "${password}"`, `Calling-Station-Id = "${MAC}"`]))
      .code,
    'Access-Accept',
  );
  const acct = (status: string) => [
    `User-Name = "${username}"`,
    `Acct-Status-Type = ${status}`,
    'Acct-Session-Id = "returning-1"',
    `Calling-Station-Id = "${MAC}"`,
    `Class = 0x${Buffer.from(sessionId).toString('hex')}`,
  ];
  t.is((await radius.acct(acct('Start'))).code, 'Accounting-Response');
  t.is((await radius.acct([...acct('Stop'), 'Acct-Terminate-Cause = Idle-Timeout'])).code, 'Accounting-Response');
  return sessionId;
}

const sealer = createSealer(GatewayConfig.parse({}).GATEWAY_SEAL_KEY);
const entry = (nasId: string, venue: string, address: string) => ({
  nasId,
  venue,
  profile: 'coovachilli',
  address,
  secret: sealer.seal(NAS_SECRET),
  uamSecret: sealer.seal(UAM_SECRET),
  coaPort: 3799,
  macAuthentication: true,
  loginUrls: [`http://${address}:3990/logon`],
});

function registry(t: ExecutionContext, gateways: ReturnType<typeof entry>[]): string {
  const file = join(tempDir(t, 'wifi-venue-'), 'gateways.json');
  writeFileSync(file, JSON.stringify({ gateways }));
  return file;
}

async function setup(t: ExecutionContext, file?: string) {
  const world = await sessionWorld(t);
  const db = await openGatewayDb('memory');
  t.teardown(() => db.close());
  const gateway = await bootGateway(t, db, { SESSION_URL: world.session.url, GATEWAYS_FILE: file ?? registry(t, [entry(NAS, NAS, '127.0.0.1')]) });
  const radius = await startRadiusServer(t, gateway.url);
  // MAC authentication as CoovaChilli's macauth sends it: the MAC as User-Name and as password.
  const macAuth = (mac = MAC) =>
    radclient(radius.authPort, 'auth', NAS_SECRET, [
      `User-Name = "${mac}"`,
      `User-Password = "${mac}"`,
      `Calling-Station-Id = "${mac}"`,
      `NAS-Identifier = "${NAS}"`,
    ]);
  return { world, gateway, radius, macAuth };
}

test.serial(
  'a signed-in device that comes back (MAC authentication) is accepted with the time left and its session as Class, until the session ends',
  async (t) => {
    const { world, gateway, radius, macAuth } = await setup(t);
    const sessionId = await signedIn(t, world, gateway, radius);
    const back = await macAuth();
    t.is(back.code, 'Access-Accept', JSON.stringify(back));
    t.is(hexText(back.attributes['Class']), sessionId);
    const timeout = Number(back.attributes['Session-Timeout']);
    t.true(timeout > 1700 && timeout <= 1800, String(timeout));
    t.is((await macAuth(MAC.replace(/-/g, ':').toLowerCase())).code, 'Access-Accept', 'in any spelling of the MAC');
    await world.session.revoke(sessionId);
    const after = await macAuth();
    t.is(after.code, 'Access-Reject');
    t.regex(after.attributes['Reply-Message'] ?? '', /sign in again/);
  },
);

test.serial('a device that never signed in, or only got a credential it did not use, is rejected by MAC authentication', async (t) => {
  const { world, gateway, macAuth } = await setup(t);
  t.is((await macAuth('AA-BB-CC-DD-EE-99')).code, 'Access-Reject');
  const sessionId = await grantedSession(world);
  t.is((await gateway.issue({ sessionId, deviceRef: deviceRef(), nasId: NAS })).status, 201);
  t.is((await macAuth()).code, 'Access-Reject', 'an issued, unused credential is no sign-in');
});

test.serial("a User-Name that is another device's MAC is no MAC authentication of this device", async (t) => {
  const { world, gateway, radius } = await setup(t);
  await signedIn(t, world, gateway, radius);
  const answer = await radclient(radius.authPort, 'auth', NAS_SECRET, [
    `User-Name = "${MAC}"`,
    `User-Password = "${MAC}"`,
    'Calling-Station-Id = "AA-BB-CC-DD-EE-77"',
  ]);
  t.is(answer.code, 'Access-Reject');
});

test.serial('the venue group: the device is let back in at another gateway of its venue, not at a gateway of another venue', async (t) => {
  const { world, gateway, radius } = await setup(
    t,
    registry(t, [entry(NAS, 'mall', '127.0.0.1'), entry('mall-2', 'mall', '127.0.0.2'), entry('cafe-1', 'cafe', '127.0.0.3')]),
  );
  const sessionId = await signedIn(t, world, gateway, radius);
  // What FreeRADIUS's rest module posts for a MAC authentication at the other gateways.
  const at = (nasId: string) =>
    gateway.request('POST', `/radius/authorize?nas=${nasId}`, {
      json: { 'User-Name': attribute(MAC), 'User-Password': attribute(MAC), 'Calling-Station-Id': attribute(MAC) },
      headers: REST_KEY,
    });
  const mall = await at('mall-2');
  t.is(mall.status, 200, mall.text);
  t.is(mall.body['reply:Class'], sessionId);
  t.is((await at('cafe-1')).status, 401);
});
