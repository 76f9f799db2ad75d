import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { createSealer } from '../../../services/kit/index.js';
import { GatewayConfig } from '../../../services/gateway/config.js';
import { bootGateway, deviceRef, grantedSession, MAC, NAS, NAS_SECRET, openGatewayDb, sessionWorld, tempDir, UAM_SECRET } from './platform.js';

// A MAC is no secret: anyone at the venue can read one off the air and present it. MAC
// authentication (a returning device, no typing) is therefore taken only where the real device
// cannot be at the same time: at a gateway whose registry entry enables it, never while a
// connection of the session is open (a Start without Stop), within MAC_AUTH_WINDOW_SECONDS of the
// session's last Stop, and its Session-Timeout claims no more than what is left of that window.
// The rest module's calls are made directly (no FreeRADIUS), as FreeRADIUS posts them.

const REST_KEY = { 'X-API-Key': GatewayConfig.parse({}).RADIUS_API_KEY };
const attribute = (value: string) => ({ type: 'string', value: [value] });
const OTHER_NAS = 'test-nas-2';
const WINDOW_SECONDS = 600;

async function setup(t: ExecutionContext, macAuthentication = true) {
  const world = await sessionWorld(t);
  const db = await openGatewayDb('memory');
  t.teardown(() => db.close());
  const sealer = createSealer(GatewayConfig.parse({}).GATEWAY_SEAL_KEY);
  const entry = (nasId: string, address: string) => ({
    nasId,
    venue: 'mall',
    profile: 'coovachilli',
    address,
    secret: sealer.seal(NAS_SECRET),
    uamSecret: sealer.seal(UAM_SECRET),
    macAuthentication,
    loginUrls: [`http://${address}:3990/logon`],
  });
  const file = join(tempDir(t, 'wifi-mac-auth-'), 'gateways.json');
  writeFileSync(file, JSON.stringify({ gateways: [entry(NAS, '127.0.0.1'), entry(OTHER_NAS, '127.0.0.2')] }));
  // The gateway's clock runs ahead by `later` seconds when a test moves it.
  let later = 0;
  const gateway = await bootGateway(
    t,
    db,
    { SESSION_URL: world.session.url, GATEWAYS_FILE: file, MAC_AUTH_WINDOW_SECONDS: String(WINDOW_SECONDS) },
    () => new Date(Date.now() + later * 1000),
  );
  const authorize = (nasId: string, body: Record<string, unknown>) =>
    gateway.request('POST', `/radius/authorize?nas=${nasId}`, { json: body, headers: REST_KEY });
  const macAuth = (nasId = NAS) => authorize(nasId, { 'User-Name': attribute(MAC), 'User-Password': attribute(MAC), 'Calling-Station-Id': attribute(MAC) });
  const accounting = async (nasId: string, status: 'Start' | 'Stop', acctSessionId: string, sessionId: string) => {
    const answer = await gateway.request('POST', `/radius/accounting?nas=${nasId}`, {
      json: {
        'User-Name': attribute(MAC),
        'Acct-Status-Type': attribute(status),
        'Acct-Session-Id': attribute(acctSessionId),
        'Calling-Station-Id': attribute(MAC),
        Class: { type: 'octets', value: [`0x${Buffer.from(sessionId).toString('hex')}`] },
        ...(status === 'Stop' ? { 'Acct-Terminate-Cause': attribute('Idle-Timeout') } : {}),
      },
      headers: REST_KEY,
    });
    t.is(answer.status, 204, answer.text);
  };
  /** A device signed in at the portal: its one-time credential accepted at NAS, its connection started. */
  const signedIn = async (seconds = 3600) => {
    const sessionId = await grantedSession(world, deviceRef(), seconds);
    const { username, password } = (await gateway.issue({ sessionId, deviceRef: deviceRef(), nasId: NAS })).body as { username: string; password: string };
    const accepted = await authorize(NAS, { 'User-Name': attribute(username), 'User-Password': attribute(password), 'Calling-Station-Id': attribute(MAC) });
    t.is(accepted.status, 200, accepted.text);
    await accounting(NAS, 'Start', 'acct-1', sessionId);
    return sessionId;
  };
  return { world, gateway, macAuth, accounting, signedIn, moveClock: (seconds: number) => (later = seconds) };
}

const refusedWith = (t: ExecutionContext, answer: { status: number; body: Record<string, unknown> }, message: RegExp) => {
  t.is(answer.status, 401);
  t.regex(String(answer.body['reply:Reply-Message']), message);
};

test.serial('MAC authentication is refused at a gateway whose registry entry does not enable it, even for a device whose session lives', async (t) => {
  const { macAuth, accounting, signedIn } = await setup(t, false);
  const sessionId = await signedIn();
  await accounting(NAS, 'Stop', 'acct-1', sessionId);
  refusedWith(t, await macAuth(), /does not let devices back in by MAC address/);
  refusedWith(t, await macAuth(OTHER_NAS), /does not let devices back in by MAC address/);
});

test.serial(
  'while a connection of the session is open a copied MAC is refused at every gateway of the venue; after its Stop the device is let back in',
  async (t) => {
    const { macAuth, accounting, signedIn } = await setup(t);
    const sessionId = await signedIn();
    refusedWith(t, await macAuth(OTHER_NAS), /connected on another device or gateway/);
    refusedWith(t, await macAuth(NAS), /connected on another device or gateway/);
    await accounting(NAS, 'Stop', 'acct-1', sessionId);
    const back = await macAuth(OTHER_NAS);
    t.is(back.status, 200, back.text);
    t.is(back.body['reply:Class'], sessionId);
    // The returning device's own connection is open now: the same MAC elsewhere is refused again.
    await accounting(OTHER_NAS, 'Start', 'acct-2', sessionId);
    refusedWith(t, await macAuth(NAS), /connected on another device or gateway/);
  },
);

test.serial(
  'MAC authentication is taken only within MAC_AUTH_WINDOW_SECONDS of the last Stop, and its Session-Timeout is what is left of that window',
  async (t) => {
    const { macAuth, accounting, signedIn, moveClock } = await setup(t);
    const sessionId = await signedIn(3600);
    await accounting(NAS, 'Stop', 'acct-1', sessionId);
    moveClock(200);
    const back = await macAuth();
    t.is(back.status, 200, back.text);
    const timeout = Number(back.body['reply:Session-Timeout']);
    t.true(
      timeout <= WINDOW_SECONDS - 200 && timeout >= WINDOW_SECONDS - 200 - 30,
      `Session-Timeout ${timeout}: the window's ${WINDOW_SECONDS - 200} s left, not the session's ~3400`,
    );
    moveClock(WINDOW_SECONDS + 5);
    refusedWith(t, await macAuth(), /sign in again/);
  },
);

test.serial('a session with less time left than the window gets its own time left as Session-Timeout', async (t) => {
  const { macAuth, accounting, signedIn } = await setup(t);
  const sessionId = await signedIn(300);
  await accounting(NAS, 'Stop', 'acct-1', sessionId);
  const back = await macAuth();
  t.is(back.status, 200, back.text);
  const timeout = Number(back.body['reply:Session-Timeout']);
  t.true(timeout <= 300 && timeout > 240, String(timeout));
});

test.serial('a signed-in device none of whose connections ever stopped (no accounting yet) is not let back in by MAC', async (t) => {
  const { world, gateway, macAuth } = await setup(t);
  const sessionId = await grantedSession(world, deviceRef(), 3600);
  const { username, password } = (await gateway.issue({ sessionId, deviceRef: deviceRef(), nasId: NAS })).body as { username: string; password: string };
  const accepted = await gateway.request('POST', `/radius/authorize?nas=${NAS}`, {
    json: { 'User-Name': attribute(username), 'User-Password': attribute(password), 'Calling-Station-Id': attribute(MAC) },
    headers: REST_KEY,
  });
  t.is(accepted.status, 200, accepted.text);
  refusedWith(t, await macAuth(), /sign in again/);
});
