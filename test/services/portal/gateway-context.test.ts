import { createHash } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { deviceRefFor } from '../../../edge/device-ref.js';
import { bootPortal, connectionBody, cookieOf, defaultFakes, type PortalUnderTest } from './portal-fakes.js';
import type { Answer } from '../../helpers/service.js';
import { capturedQuery } from '../../edge/controllers/captured.js';

// The gateway context a captive device arrives with, kept server-side for the
// sign-in, validated by its controller's profile against the gateway registry
// (fixtures/gateways.json here), its MAC address never kept or shown; the deviceRef is a keyed
// HMAC of (gateway id, MAC), so the same device at the same gateway is the same device.
const BOB = { username: 'bob@example.com', password: 'bob-demo-pass' };
const MAC = 'AA-BB-CC-0D-0E-0F';
const MAC_SPELLINGS = ['AA-BB-CC-0D-0E-0F', 'aa-bb-cc-0d-0e-0f', 'aa:bb:cc:0d:0e:0f', 'AA:BB:CC:0D:0E:0F', 'aabbcc0d0e0f', 'AABBCC0D0E0F', 'aabb.cc0d.0e0f'];
const DEV_KEY = 'dev-device-ref-key-0001';
const UAM = {
  res: 'notyet',
  uamip: '10.1.0.1',
  uamport: '3990',
  challenge: '0123456789abcdef0123456789ABCDEF',
  called: '00-11-22-33-44-55',
  mac: MAC,
  ip: '10.1.0.7',
  nasid: 'venue-1',
  userurl: 'http://example.com/start',
};
/** A Cisco WLC's first redirect as captures/cisco-wlc.json holds it (its source named there). */
const CISCO = capturedQuery('cisco-wlc', 'login');

/** The UAM secrets of the test registry's CoovaChilli gateways: the registry refuses one without. */
const UAM_SECRETS: Readonly<Record<string, string>> = { 'venue-1': 'venue-1-uam-secret', 'venue-2': 'venue-2-uam-secret', 'venue-md': 'venue-md-uam-secret' };

const unsigned = (params: Record<string, string>) => `/gateway?${new URLSearchParams(params).toString()}`;

/** A CoovaChilli arrival signed as its redir.c does: md = MD5(URL up to &md= + UAM secret), over the portal's public URL. */
function signed(params: Record<string, string>, secret: string, extra = ''): string {
  const path = `${unsigned(params)}${extra}`;
  return `${path}&md=${createHash('md5').update(`http://localhost:3000${path}`).update(secret).digest('hex').toUpperCase()}`;
}

/** An arrival as its controller sends it: a CoovaChilli one signed with its gateway's UAM secret. */
const query = (params: Record<string, string>) => {
  const secret = 'uamip' in params ? UAM_SECRETS[params['nasid'] ?? ''] : undefined;
  return secret === undefined ? unsigned(params) : signed(params, secret);
};

/** Arrives from the gateway, then signs in with the cookies the portal set. */
async function arriveAndSignIn(t: ExecutionContext, portal: PortalUnderTest, params: Record<string, string>) {
  const arrival = await portal.page(query(params));
  t.is(arrival.status, 303, arrival.text);
  const gw = cookieOf(arrival, 'gw');
  const login = await portal.post('/api/v1/auth/login', BOB, { cookie: gw });
  return { arrival, gw, login };
}

function noMacAnywhere(t: ExecutionContext, text: string) {
  for (const spelling of MAC_SPELLINGS) t.false(text.toLowerCase().includes(spelling.toLowerCase()), `found ${spelling}`);
}

const contextRows = async (portal: PortalUnderTest, nasId: string) =>
  Number((await portal.db.query('SELECT count(*) AS n FROM gateway_contexts WHERE nas_id = $1', [nasId]))[0]?.['n']);

/** A refusal before any password: a page (never JSON), no cookie, nothing kept (tests counting rows run serially). */
async function refusedOnArrival(t: ExecutionContext, portal: PortalUnderTest, path: string, status: number, nasId: string): Promise<Answer> {
  const before = await contextRows(portal, nasId);
  const reply = await portal.page(path);
  t.is(reply.status, status, reply.text);
  t.regex(reply.headers.get('content-type') ?? '', /^text\/html/);
  t.is(reply.headers.get('set-cookie'), null);
  t.is(await contextRows(portal, nasId), before);
  noMacAnywhere(t, reply.text);
  return reply;
}

test('a CoovaChilli arrival is kept behind cookie gw and answered with a clean redirect to the page; the sign-in gets a one-time credential and the login at the registered /logon', async (t) => {
  const portal = await bootPortal(t);
  const { arrival, gw, login } = await arriveAndSignIn(t, portal, UAM);
  t.is(arrival.headers.get('location'), '/');
  t.regex(arrival.headers.getSetCookie().find((c) => c.startsWith('gw=')) ?? '', /HttpOnly; SameSite=Strict/);
  t.is(login.status, 200, login.text);
  const deviceRef = deviceRefFor(DEV_KEY, 'venue-1', MAC);
  t.deepEqual(portal.fakes.createdDevices, [deviceRef]);
  t.deepEqual(portal.fakes.calls.slice(-2), ['session.grant', 'gateway.credential venue-1'], 'the credential comes after the grant');
  t.like(login.body, {
    gateway: {
      loginUrl: 'http://10.1.0.1:3990/logon',
      method: 'GET',
      fields: { username: 'wifi-one-time-user', response: '0123456789abcdef0123456789abcdef', userurl: 'http://example.com/start' },
    },
    connection: { state: 'CONNECTING', connected: false },
  });
  t.false('password' in (login.body['gateway'] as { fields: object }).fields, 'CHAP: the password itself is not sent');
  t.truthy(gw);
});

test('a Cisco web-auth arrival is matched to its WLC by switch_url and gives a POST to the registered switch_url', async (t) => {
  const portal = await bootPortal(t);
  const { login } = await arriveAndSignIn(t, portal, CISCO);
  t.is(login.status, 200, login.text);
  t.like(login.body, {
    gateway: {
      loginUrl: 'https://192.0.2.1/login.html',
      method: 'POST',
      fields: { buttonClicked: '4', username: 'wifi-one-time-user', password: 'one-time-password', redirect_url: 'http://example.com/news' },
    },
  });
  t.deepEqual(portal.fakes.createdDevices, [deviceRefFor(DEV_KEY, 'wlc-1', MAC)], 'the registry names the WLC, which sends no NAS id');
  const second = await arriveAndSignIn(t, portal, { ...CISCO, switch_url: 'https://wlc2.venue.example/login.html' });
  t.is(second.login.status, 200);
  t.is(portal.fakes.createdDevices[1], deviceRefFor(DEV_KEY, 'wlc-2', MAC), 'a second WLC is another gateway, not "another device"');
});

test('Cisco as captured: a redirect without a scheme, a non-ASCII WLAN name', async (t) => {
  const portal = await bootPortal(t);
  const { login } = await arriveAndSignIn(t, portal, { ...CISCO, redirect: 'www.example.com/news', wlan: 'Khách Wi-Fi ☕' });
  t.is(login.status, 200, login.text);
  t.like(login.body, { gateway: { fields: { redirect_url: 'http://www.example.com/news' } } });
});

test('the same device at the same gateway is the same deviceRef, whatever the spelling of its MAC; another gateway or device is another', async (t) => {
  const portal = await bootPortal(t);
  await arriveAndSignIn(t, portal, UAM);
  await arriveAndSignIn(t, portal, { ...UAM, mac: 'aa:bb:cc:0d:0e:0f' });
  await arriveAndSignIn(t, portal, { ...UAM, nasid: 'venue-2', uamip: '10.2.0.1' });
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

test.serial(
  "a forged link: a link to the real portal naming a registered gateway with an attacker's login address is refused on arrival, before any password",
  async (t) => {
    const portal = await bootPortal(t);
    const attack = await refusedOnArrival(t, portal, query({ ...UAM, uamip: '203.0.113.66', uamport: '8080', mac: '02-66-66-66-66-66' }), 403, 'venue-1');
    t.regex(attack.text, /Do not enter a password/);
    t.false(attack.text.includes('203.0.113.66'), "the attacker's address is not echoed");
    // Another registered gateway's address is not this gateway's either.
    await refusedOnArrival(t, portal, query({ ...UAM, uamip: '10.2.0.1' }), 403, 'venue-1');
    // A Cisco link with the attacker's switch_url names no registered WLC.
    await refusedOnArrival(t, portal, query({ ...CISCO, switch_url: 'http://203.0.113.66/login.html' }), 403, 'wlc-1');
    // A gateway the registry does not know.
    const unknown = await refusedOnArrival(t, portal, query({ ...UAM, nasid: 'venue-9' }), 403, 'venue-9');
    t.regex(unknown.text, /not registered/);
    t.false(
      portal.fakes.calls.some((call) => call.startsWith('idp.') || call.startsWith('gateway.')),
      'nothing was asked of anyone',
    );
  },
);

test.serial("with a UAM secret, CoovaChilli's md must sign the arrival: signed is kept, unsigned or changed is refused", async (t) => {
  const portal = await bootPortal(t);
  const params = { ...UAM, nasid: 'venue-md', uamip: '10.3.0.1' };
  const good = await portal.page(signed(params, 'venue-md-uam-secret'));
  t.is(good.status, 303, good.text);
  t.truthy(cookieOf(good, 'gw'));
  await refusedOnArrival(t, portal, unsigned(params), 403, 'venue-md');
  await refusedOnArrival(t, portal, signed(params, 'another-secret'), 403, 'venue-md');
  const changed = signed(params, 'venue-md-uam-secret').replace('userurl=http', 'userurl=https');
  const reply = await refusedOnArrival(t, portal, changed, 403, 'venue-md');
  t.regex(reply.text, /not signed by the venue/);
});

test('the gateway context is used once: the sign-in clears gw, and the same cookie replayed names no gateway', async (t) => {
  const portal = await bootPortal(t);
  const { gw, login } = await arriveAndSignIn(t, portal, UAM);
  t.is(login.status, 200);
  t.regex(login.headers.getSetCookie().find((c) => c.startsWith('gw=')) ?? '', /^gw=;.*Expires=Thu, 01 Jan 1970/);
  const replay = await portal.post('/api/v1/auth/login', BOB, { cookie: gw });
  t.is(replay.status, 200);
  t.false('gateway' in replay.body, 'no second credential for the same context');
  t.is(portal.fakes.calls.filter((call) => call.startsWith('gateway.credential')).length, 1);
});

test('a return address is never followed by the server: the arrival goes to / only, and after sign-in it is a plain link', async (t) => {
  const portal = await bootPortal(t);
  const { arrival, login } = await arriveAndSignIn(t, portal, { ...UAM, userurl: 'http://evil.example/phish' });
  t.is(arrival.headers.get('location'), '/');
  const success = { res: 'success', uamip: '10.1.0.1', uamport: '3990', mac: MAC, nasid: 'venue-1', timeleft: '3540', userurl: 'http://evil.example/other' };
  const anonymous = await portal.page(query(success));
  t.is(anonymous.status, 200);
  t.false(anonymous.text.includes('evil.example'), 'no link for a browser that did not sign in here');
  const signedIn = await portal.page(query(success), { cookie: cookieOf(login) });
  t.is(signedIn.status, 200);
  t.is(signedIn.headers.get('location'), null);
  t.regex(
    signedIn.text,
    /<a href="http:\/\/evil\.example\/phish" rel="noreferrer noopener">Continue to evil\.example<\/a>/,
    'the address kept at sign-in, as a link',
  );
});

for (const [state, params, english, vietnamese] of [
  [
    'success',
    { res: 'success', uamip: '10.1.0.1', uamport: '3990', mac: MAC, nasid: 'venue-1', timeleft: '3540' },
    /You are connected[\s\S]*reconnects by itself[\s\S]*Time left: 59 min/,
    /Bạn đã kết nối[\s\S]*tự kết nối lại/,
  ],
  ['logoff', { res: 'logoff', uamip: '10.1.0.1', uamport: '3990', mac: MAC, nasid: 'venue-1' }, /You are logged off/, /Bạn đã đăng xuất/],
  [
    'already',
    { res: 'already', uamip: '10.1.0.1', uamport: '3990', challenge: UAM.challenge, mac: MAC, nasid: 'venue-1' },
    /You are already connected/,
    /Bạn đã được kết nối/,
  ],
  [
    'Cisco statusCode=5',
    capturedQuery('cisco-wlc', 'failed'),
    /did not let you in[\s\S]*code was not accepted[\s\S]*Open any web page/,
    /Mã đăng nhập dùng một lần không được chấp nhận/,
  ],
] as const) {
  test(`${state} is a page in the person's language, never a JSON error`, async (t) => {
    const portal = await bootPortal(t);
    const en = await portal.page(query(params as Record<string, string>), { 'accept-language': 'en' });
    t.is(en.status, 200, en.text);
    t.regex(en.headers.get('content-type') ?? '', /^text\/html/);
    t.regex(en.text, english);
    const vi = await portal.page(query(params as Record<string, string>), { 'accept-language': 'vi-VN,vi;q=0.9' });
    t.regex(vi.text, vietnamese);
    t.regex(vi.text, /<html lang="vi">/);
  });
}

test('CoovaChilli failed: the reason (escaped) and a way to try again with the new challenge', async (t) => {
  const portal = await bootPortal(t);
  const failed = { ...UAM, res: 'failed', challenge: 'fedcba9876543210fedcba9876543210', reply: 'Code <b>not</b> valid' };
  const page = await portal.page(query(failed));
  t.is(page.status, 200);
  t.regex(page.text, /The Wi-Fi gateway said: Code &#60;b&#62;not&#60;\/b&#62; valid/);
  t.regex(page.text, /<a href="\/">Try again<\/a>/);
  const login = await portal.post('/api/v1/auth/login', BOB, { cookie: cookieOf(page, 'gw') });
  t.is(login.status, 200, login.text);
  t.like(login.body, { gateway: { loginUrl: 'http://10.1.0.1:3990/logon' } });
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
  ['a Cisco WLAN with control characters', { ...CISCO, wlan: 'Guest\u0007' }, 'wlan'],
] as const) {
  test.serial(`${what} is a 400 page naming the parameter, never echoing it, and keeps nothing`, async (t) => {
    const portal = await bootPortal(t);
    const reply = await refusedOnArrival(t, portal, query(params as Record<string, string>), 400, 'venue-1');
    t.regex(reply.text, new RegExp(`\\(${named}\\)`));
  });
}

test.serial('/gateway is rate limited per address: past the limit a 429 page with Retry-After, nothing kept', async (t) => {
  const portal = await bootPortal(t, defaultFakes(), { GATEWAY_ARRIVAL_LIMIT: '3' });
  for (let i = 0; i < 3; i++) t.not((await portal.page(query(UAM))).status, 429);
  const before = await contextRows(portal, 'venue-1');
  const limited = await portal.page(query(UAM));
  t.is(limited.status, 429);
  t.regex(limited.headers.get('retry-after') ?? '', /^\d+$/);
  t.regex(limited.text, /Too many sign-in links/);
  t.is(await contextRows(portal, 'venue-1'), before);
});

test('without gateway parameters the portal works as before: no context, no credential, no gateway fields', async (t) => {
  const portal = await bootPortal(t);
  const arrival = await portal.page('/gateway');
  t.is(arrival.status, 303);
  t.is(arrival.headers.get('set-cookie'), null);
  const login = await portal.post('/api/v1/auth/login', BOB);
  t.false('gateway' in login.body);
  t.false('connection' in login.body);
  t.false(portal.fakes.calls.some((call) => call.startsWith('gateway.')));
});

for (const [what, credential] of [
  ['down', { kind: 'unreachable' }],
  ['answering a credential that does not parse', { kind: 'answer', status: 201, body: { username: 'wifi-one-time-user' } }],
] as const)
  test(`with the gateway service ${what} a sign-in through a gateway fails closed: 502, the session revoked, the IdP session logged out, no portal session`, async (t) => {
    const fakes = defaultFakes();
    fakes.credential = credential;
    const portal = await bootPortal(t, fakes);
    const { login } = await arriveAndSignIn(t, portal, UAM);
    t.is(login.status, 502);
    t.is(login.body['code'], 'UPSTREAM_UNAVAILABLE');
    t.deepEqual(portal.fakes.calls.slice(-3), ['gateway.credential venue-1', 'session.revoke', 'idp.logout']);
    t.is(cookieOf(login), '');
  });

test('a sign-in through a gateway reads CONNECTING, and captive, until the gateway confirmed it; then CONNECTED with the time and data used', async (t) => {
  const portal = await bootPortal(t);
  const { login } = await arriveAndSignIn(t, portal, UAM);
  const cookie = cookieOf(login);
  t.like((await portal.get('/api/v1/auth/session', { cookie })).body, { connection: { state: 'CONNECTING', connected: false } });
  t.like((await portal.get('/api/captive', { cookie })).body, { captive: true });
  const at = new Date().toISOString();
  portal.fakes.connection = {
    kind: 'answer',
    status: 200,
    body: connectionBody({
      state: 'CONNECTED',
      connected: true,
      nasId: 'venue-1',
      startedAt: at,
      updatedAt: at,
      inputOctets: 1200,
      outputOctets: 5400,
      sessionTime: 42,
    }),
  };
  t.like((await portal.get('/api/v1/auth/session', { cookie })).body, {
    connection: { state: 'CONNECTED', connected: true, inputOctets: 1200, outputOctets: 5400, sessionTime: 42 },
  });
  t.like((await portal.get('/api/captive', { cookie })).body, { captive: false });
  portal.fakes.connection = { kind: 'answer', status: 200, body: { connected: true, inputOctets: 1200 } };
  t.like(
    (await portal.get('/api/v1/auth/session', { cookie })).body,
    { connection: { state: 'UNKNOWN', connected: false } },
    'a reply that does not parse is never connected',
  );
  portal.fakes.connection = { kind: 'unreachable' };
  t.like((await portal.get('/api/v1/auth/session', { cookie })).body, { connection: { state: 'UNKNOWN', connected: false } });
  t.like((await portal.get('/api/captive', { cookie })).body, { captive: true }, 'never connected by guess');
});

test('the page may submit a form to exactly the registered login URL of its own gateway context, and nowhere else', async (t) => {
  const portal = await bootPortal(t);
  const formAction = async (cookie?: string) => {
    const page = await portal.page('/', cookie === undefined ? {} : { cookie });
    t.is(page.status, 200, 'the built UI (npm run build)');
    return (page.headers.get('content-security-policy') ?? '')
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith('form-action'));
  };
  t.is(await formAction(), "form-action 'self'");
  const uam = cookieOf(await portal.page(query(UAM)), 'gw');
  t.is(await formAction(uam), "form-action 'self' http://10.1.0.1:3990/logon");
  const cisco = cookieOf(await portal.page(query(CISCO)), 'gw');
  t.is(await formAction(cisco), "form-action 'self' https://192.0.2.1/login.html");
  t.is(await formAction('gw=made-up'), "form-action 'self'");
});

// MikroTik's login.html forwards with an auto-posting form: chap-id and chap-challenge as octal escapes.
const MIKROTIK = {
  mac: 'AA:BB:CC:0D:0E:0F',
  ip: '10.5.50.7',
  'link-login-only': 'http://10.5.50.1/login',
  'link-orig': 'http://example.com/news',
  error: '',
  'chap-id': '\\345',
  'chap-challenge': '\\077\\034\\053\\115\\136\\157\\160\\201\\222\\243\\264\\305\\326\\347\\370\\011',
};

test.serial(
  'a MikroTik hotspot arrival posted by its login.html form is kept; the sign-in hands the login to its registered /login with the CHAP hash as password',
  async (t) => {
    const portal = await bootPortal(t);
    const arrival = await portal.page('/gateway', {}, MIKROTIK);
    t.is(arrival.status, 303, arrival.text);
    const login = await portal.post('/api/v1/auth/login', BOB, { cookie: cookieOf(arrival, 'gw') });
    t.is(login.status, 200, login.text);
    t.true(portal.fakes.calls.includes('gateway.credential hotspot-1'));
    t.like(login.body['gateway'], {
      loginUrl: 'http://10.5.50.1/login',
      method: 'POST',
      fields: { username: 'wifi-one-time-user', password: '0123456789abcdef0123456789abcdef', dst: 'http://example.com/news' },
    });
    t.deepEqual(portal.fakes.createdDevices.at(-1), deviceRefFor(DEV_KEY, 'hotspot-1', MAC));
  },
);

test.serial('a MikroTik arrival naming another login address than its registered /login is refused before any password', async (t) => {
  const portal = await bootPortal(t);
  await refusedOnArrival(t, portal, query({ ...MIKROTIK, 'link-login-only': 'http://203.0.113.66/login' }), 403, 'hotspot-1');
});

test.serial(
  "a pfSense arrival (single-dash MAC) signs in to its zone's portal URL with auth_user/auth_pass; its error page comes back as a page to try again",
  async (t) => {
    const portal = await bootPortal(t);
    const pf = {
      zone: 'guest',
      portal_action: 'https://fw.example.net:8003/index.php?zone=guest',
      redirurl: 'http://example.com/',
      mac: 'aabbcc-0d0e0f',
      ip: '10.10.10.7',
    };
    const { login } = await arriveAndSignIn(t, portal, pf);
    t.is(login.status, 200, login.text);
    t.like(login.body['gateway'], {
      loginUrl: 'https://fw.example.net:8003/index.php?zone=guest',
      method: 'POST',
      fields: { auth_user: 'wifi-one-time-user', auth_pass: 'one-time-password', zone: 'guest', accept: 'Login' },
    });
    t.deepEqual(portal.fakes.createdDevices.at(-1), deviceRefFor(DEV_KEY, 'fw-1', MAC));
    const failed = await portal.page(
      query({ zone: 'guest', portal_action: pf.portal_action, redirurl: pf.redirurl, portal_message: 'Invalid credentials specified.' }),
    );
    t.is(failed.status, 200);
    t.regex(failed.text, /Invalid credentials specified\./);
  },
);

// What real controllers send (a real CoovaChilli 1.8/1.9 in test/e2e/coova/): empty parameters,
// extra ones, and with `uamhomepage` set the signed redirect wrapped in `loginurl`.
test("a parameter sent empty is absent: CoovaChilli's first redirect with userurl= (and ssid=, vlan=) gets the sign-in, its login without a return address", async (t) => {
  const portal = await bootPortal(t);
  const arrival = await portal.page(signed({ ...UAM, userurl: '', ssid: '', vlan: '', nasid: '' }, 'venue-1-uam-secret'));
  t.is(arrival.status, 303, arrival.text);
  const login = await portal.post('/api/v1/auth/login', BOB, { cookie: cookieOf(arrival, 'gw') });
  t.is(arrival.headers.get('location'), '/');
  t.is(login.status, 200, login.text);
  const fields = (login.body['gateway'] as { fields: Record<string, string> }).fields;
  t.false('userurl' in fields, 'no return address was sent, none is handed on');
  t.is(
    (login.body['gateway'] as { loginUrl: string }).loginUrl,
    'http://10.1.0.1:3990/logon',
    'without a NAS id the gateway is found by its registered login address',
  );
});

test('parameters a profile does not name are ignored, repeated or not, and never give a login address', async (t) => {
  const portal = await bootPortal(t);
  const extra = signed(
    {
      ...UAM,
      called: '00-11-22-33-44-55',
      lang: 'en',
      redirurl: 'http://203.0.113.66/x',
      loginurl: 'http://203.0.113.66:3990/logon',
      logonurl: 'http://203.0.113.66/',
    },
    'venue-1-uam-secret',
    '&zz=1&zz=2',
  );
  const arrival = await portal.page(extra);
  t.is(arrival.status, 303, arrival.text);
  const login = await portal.post('/api/v1/auth/login', BOB, { cookie: cookieOf(arrival, 'gw') });
  t.is(login.status, 200, login.text);
  t.is((login.body['gateway'] as { loginUrl: string }).loginUrl, 'http://10.1.0.1:3990/logon');
  t.false(login.text.includes('203.0.113.66'));
});

test.serial('CoovaChilli with uamhomepage: /gateway?loginurl=<the signed notyet URL> is read as that redirect; a changed one is refused', async (t) => {
  const portal = await bootPortal(t);
  const params = { ...UAM, nasid: 'venue-md', uamip: '10.3.0.1', userurl: '' };
  const inner = `http://localhost:3000${signed(params, 'venue-md-uam-secret')}`;
  const wrapped = await portal.page(`/gateway?loginurl=${encodeURIComponent(inner)}`);
  t.is(wrapped.status, 303, wrapped.text);
  const login = await portal.post('/api/v1/auth/login', BOB, { cookie: cookieOf(wrapped, 'gw') });
  t.is(login.status, 200, login.text);
  t.is((login.body['gateway'] as { loginUrl: string }).loginUrl, 'http://10.3.0.1:3990/logon');
  const changed = inner.replace('ip=10.1.0.7', 'ip=10.1.0.8');
  const reply = await refusedOnArrival(t, portal, `/gateway?loginurl=${encodeURIComponent(changed)}`, 403, 'venue-md');
  t.regex(reply.text, /not signed by the venue/);
});

for (const [what, path, named] of [
  ['a parameter the profile names sent twice', `${query(UAM)}&uamip=10.1.0.1`, 'uamip'],
  ['a MAC sent twice with different values', `${query(UAM)}&mac=AA-BB-CC-0D-0E-10`, 'mac'],
  ['an over-long return address', query({ ...UAM, userurl: `http://example.com/${'a'.repeat(5000)}` }), 'userurl'],
  ['an over-long reason', query({ ...UAM, res: 'failed', reply: 'x'.repeat(2000) }), 'reply'],
  ['a captive device whose MAC was sent empty', query({ ...UAM, mac: '' }), 'challenge'],
] as const) {
  test.serial(`${what} is a page saying what to do, never JSON, and keeps nothing`, async (t) => {
    const portal = await bootPortal(t);
    const reply = await refusedOnArrival(t, portal, path, 400, 'venue-1');
    t.regex(reply.text, new RegExp(`\\(${named}\\)`));
    t.regex(reply.text, /reconnect to the Wi-Fi and open any web page/);
  });
}
