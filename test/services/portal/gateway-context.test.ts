import test, { type ExecutionContext } from 'ava';
import { deviceRefFor } from '../../../services/kit/device-ref.js';
import { assertError } from '../../helpers/error-shape.js';
import { bootPortal, cookieOf, defaultFakes, type PortalUnderTest } from './portal-fakes.js';

// Issue 17 items 1-2: the gateway context a captive device arrives with, kept server-side for the
// sign-in, validated strictly, its MAC address never kept or shown; the deviceRef is a keyed
// HMAC of (gateway id, MAC), so the same device at the same gateway is the same device.
const BOB = { username: 'bob@example.com', password: 'bob-demo-pass' };
const MAC = 'AA-BB-CC-0D-0E-0F';
const MAC_SPELLINGS = ['AA-BB-CC-0D-0E-0F', 'aa-bb-cc-0d-0e-0f', 'aa:bb:cc:0d:0e:0f', 'AA:BB:CC:0D:0E:0F', 'aabbcc0d0e0f', 'AABBCC0D0E0F', 'aabb.cc0d.0e0f'];
const DEV_KEY = 'dev-device-ref-key-0001';
const UAM = { res: 'notyet', uamip: '10.1.0.1', uamport: '3990', challenge: '0123456789abcdef0123456789ABCDEF', called: '00-11-22-33-44-55', mac: MAC, ip: '10.1.0.7', nasid: 'venue-1', userurl: 'http://example.com/start' };
const CISCO = { switch_url: 'https://192.0.2.1/login.html', ap_mac: '00:11:22:33:44:55', client_mac: 'aa:bb:cc:0d:0e:0f', wlan: 'Guest WiFi', redirect: 'http://example.com/' };

const query = (params: Record<string, string>) => `/gateway?${new URLSearchParams(params).toString()}`;

/** Arrives from the gateway, then signs in with the cookies the portal set. */
async function arriveAndSignIn(t: ExecutionContext, portal: PortalUnderTest, params: Record<string, string>) {
  const arrival = await portal.get(query(params));
  t.is(arrival.status, 303);
  const gw = cookieOf(arrival, 'gw');
  const login = await portal.post('/api/v1/auth/login', BOB, { cookie: gw });
  return { arrival, gw, login };
}

function noMacAnywhere(t: ExecutionContext, text: string) {
  for (const spelling of MAC_SPELLINGS) t.false(text.toLowerCase().includes(spelling.toLowerCase()), `found ${spelling}`);
}

test('a UAM redirect is kept behind cookie gw and answered with a clean redirect to the page; the sign-in gets a one-time credential and the CoovaChilli login', async (t) => {
  const portal = await bootPortal(t);
  const { arrival, gw, login } = await arriveAndSignIn(t, portal, UAM);
  t.is(arrival.headers.get('location'), '/');
  t.regex(arrival.headers.getSetCookie().find((c) => c.startsWith('gw=')) ?? '', /HttpOnly; SameSite=Strict/);
  t.is(login.status, 200, login.text);
  const deviceRef = deviceRefFor(DEV_KEY, 'venue-1', MAC);
  t.deepEqual(portal.fakes.createdDevices, [deviceRef]);
  t.true(portal.fakes.calls.includes('gateway.credential venue-1'));
  t.deepEqual(portal.fakes.calls.slice(-2), ['session.grant', 'gateway.credential venue-1'], 'the credential comes after the grant');
  t.like(login.body, {
    gateway: { loginUrl: 'http://10.1.0.1:3990/logon', method: 'GET', fields: { username: 'wifi-one-time-user', response: '0123456789abcdef0123456789abcdef', userurl: 'http://example.com/start' } },
    connection: { state: 'CONNECTING', connected: false },
  });
  t.false('password' in ((login.body['gateway'] as { fields: object }).fields), 'CHAP: the password itself is not sent');
  t.truthy(gw);
});

test('a Cisco web-auth redirect gives a POST to the controller\'s switch_url with the credential', async (t) => {
  const portal = await bootPortal(t);
  const { login } = await arriveAndSignIn(t, portal, CISCO);
  t.is(login.status, 200, login.text);
  t.like(login.body, { gateway: { loginUrl: 'https://192.0.2.1/login.html', method: 'POST', fields: { buttonClicked: '4', username: 'wifi-one-time-user', password: 'one-time-password', redirect_url: 'http://example.com/' } } });
  t.deepEqual(portal.fakes.createdDevices, [deviceRefFor(DEV_KEY, 'demo-nas', MAC)], 'the default NAS id for a controller that sends none');
});

test('the same device at the same gateway is the same deviceRef, whatever the spelling of its MAC; another gateway or device is another', async (t) => {
  const portal = await bootPortal(t);
  await arriveAndSignIn(t, portal, UAM);
  await arriveAndSignIn(t, portal, { ...UAM, mac: 'aa:bb:cc:0d:0e:0f' });
  await arriveAndSignIn(t, portal, { ...UAM, nasid: 'venue-2' });
  await arriveAndSignIn(t, portal, { ...UAM, mac: 'AA-BB-CC-0D-0E-10' });
  const [first, second, third, fourth] = portal.fakes.createdDevices;
  t.is(first, second);
  t.not(first, third);
  t.not(first, fourth);
  t.regex(String(first), /^dev-[A-Za-z0-9_-]{43}$/);
});

test('the MAC address never reaches the store, a log line or a response', async (t) => {
  const portal = await bootPortal(t);
  const { arrival, login, gw } = await arriveAndSignIn(t, portal, UAM);
  const read = await portal.get('/api/v1/auth/session', { cookie: cookieOf(login) });
  const stored = JSON.stringify([
    await portal.db.query('SELECT * FROM gateway_contexts'),
    await portal.db.query('SELECT gateway, network_session FROM portal_sessions'),
  ]);
  t.true(stored.includes('venue-1'), 'the context is stored');
  for (const text of [stored, portal.lines.join('\n'), login.text, read.text, arrival.text, gw]) noMacAnywhere(t, text);
});

for (const [what, params, named] of [
  ['a MAC that is not one', { ...UAM, mac: 'AA-BB-CC-DD-EE' }, 'mac'],
  ['a challenge that is not 32 hex digits', { ...UAM, challenge: 'abc' }, 'challenge'],
  ['a port out of range', { ...UAM, uamport: '70000' }, 'uamport'],
  ['a UAM address that is not IPv4', { ...UAM, uamip: 'evil.example' }, 'uamip'],
  ['a return URL that is not http(s)', { ...UAM, userurl: 'javascript:alert(1)' }, 'userurl'],
  ['a NAS id with odd characters', { ...UAM, nasid: 'venue 1;' }, 'nasid'],
  ['a Cisco login URL that is not http(s)', { ...CISCO, switch_url: 'file:///etc/passwd' }, 'switch_url'],
  ['a Cisco client MAC missing', { switch_url: CISCO.switch_url }, 'client_mac'],
] as const) {
  test(`${what} is 400 INVALID_REQUEST naming the parameter, never echoing it, and keeps nothing`, async (t) => {
    const portal = await bootPortal(t);
    // A NAS id of this test's own (unless the NAS id is what is wrong), so rows of other tests do not count.
    const nas = `bad-${named.replace(/_/g, '-')}`;
    const count = async () => Number((await portal.db.query('SELECT count(*) AS n FROM gateway_contexts WHERE nas_id = $1', [nas]))[0]?.['n']);
    const before = await count();
    const reply = await portal.get(query({ nasid: nas, ...(params as Record<string, string>), ...(named === 'nasid' ? {} : { nasid: nas }) }));
    assertError(t, reply, 400, 'INVALID_REQUEST');
    t.regex(String(reply.body['message']), new RegExp(named));
    t.is(reply.headers.get('set-cookie'), null);
    t.is(await count(), before);
    noMacAnywhere(t, reply.text);
  });
}

test('without gateway parameters the portal works as before: no context, no credential, no gateway fields', async (t) => {
  const portal = await bootPortal(t);
  const arrival = await portal.get('/gateway');
  t.is(arrival.status, 303);
  t.is(arrival.headers.get('set-cookie'), null);
  const login = await portal.post('/api/v1/auth/login', BOB);
  t.false('gateway' in login.body);
  t.false('connection' in login.body);
  t.false(portal.fakes.calls.some((call) => call.startsWith('gateway.')));
});

test('with the gateway service down a sign-in through a gateway fails closed: 502, the session revoked, the IdP session logged out, no portal session', async (t) => {
  const fakes = defaultFakes();
  fakes.credential = { kind: 'unreachable' };
  const portal = await bootPortal(t, fakes);
  const { login } = await arriveAndSignIn(t, portal, UAM);
  assertError(t, login, 502, 'UPSTREAM_UNAVAILABLE');
  t.deepEqual(portal.fakes.calls.slice(-3), ['gateway.credential venue-1', 'session.revoke', 'idp.logout']);
  t.is(cookieOf(login), '');
});

test('a sign-in through a gateway reads CONNECTING, and captive, until the gateway confirmed it; then CONNECTED with the time and data used', async (t) => {
  const portal = await bootPortal(t);
  const { login } = await arriveAndSignIn(t, portal, UAM);
  const cookie = cookieOf(login);
  t.like((await portal.get('/api/v1/auth/session', { cookie })).body, { connection: { state: 'CONNECTING', connected: false } });
  t.like((await portal.get('/api/captive', { cookie })).body, { captive: true });
  portal.fakes.connection = { kind: 'answer', status: 200, body: { state: 'CONNECTED', connected: true, inputOctets: 1200, outputOctets: 5400, sessionTime: 42 } };
  t.like((await portal.get('/api/v1/auth/session', { cookie })).body, { connection: { state: 'CONNECTED', connected: true, inputOctets: 1200, outputOctets: 5400, sessionTime: 42 } });
  t.like((await portal.get('/api/captive', { cookie })).body, { captive: false });
  portal.fakes.connection = { kind: 'unreachable' };
  t.like((await portal.get('/api/v1/auth/session', { cookie })).body, { connection: { state: 'UNKNOWN', connected: false } });
  t.like((await portal.get('/api/captive', { cookie })).body, { captive: true }, 'never connected by guess');
});

test('the page may submit a form to exactly the login URL of its own gateway context, and nowhere else', async (t) => {
  const portal = await bootPortal(t);
  const formAction = async (cookie?: string) => {
    // The page is outside the API document: asked directly.
    const page = await fetch(`${portal.url}/`, { headers: cookie === undefined ? {} : { cookie } });
    t.is(page.status, 200, 'the built UI (npm run build)');
    return (page.headers.get('content-security-policy') ?? '').split(';').map((d) => d.trim()).find((d) => d.startsWith('form-action'));
  };
  t.is(await formAction(), "form-action 'self'");
  const uam = cookieOf(await portal.get(query(UAM)), 'gw');
  t.is(await formAction(uam), "form-action 'self' http://10.1.0.1:3990/logon");
  const cisco = cookieOf(await portal.get(query(CISCO)), 'gw');
  t.is(await formAction(cisco), "form-action 'self' https://192.0.2.1/login.html");
  t.is(await formAction('gw=made-up'), "form-action 'self'");
});
