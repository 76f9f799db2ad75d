import test from 'ava';
import { deviceRefFor } from '../../../edge/device-ref.js';
import { bootPortal, cookieOf } from './portal-fakes.js';

// An OPNsense zone's forwarding template sends the browser here with the zone's origin,
// its redirurl (no scheme) and its status answer (test/edge/controllers/captures/opnsense.json);
// the registry (opn-1 in the test gateways file) holds the zone's https logon URL.
const BOB = { username: 'bob@example.com', password: 'bob-demo-pass' };
const DEV_KEY = 'dev-device-ref-key-0001';
const LOGON = 'https://cp.example.net:8000/api/captiveportal/access/logon/';
const OPN = {
  zone_url: 'https://cp.example.net:8000',
  redirurl: 'example.com/news',
  clientState: 'NOT_AUTHORIZED',
  ipAddress: '10.20.0.7',
  macAddress: 'aa:bb:cc:0d:0e:0f',
  authType: 'normal',
};
const query = (params: Record<string, string>) => `/gateway?${new URLSearchParams(params).toString()}`;

test('an OPNsense arrival is matched to its zone by the logon URL under zone_url; the sign-in hands user and password to the registered https logon URL, posted by the page itself', async (t) => {
  const portal = await bootPortal(t);
  const arrival = await portal.page(query(OPN));
  t.is(arrival.status, 303, arrival.text);
  t.is(arrival.headers.get('location'), '/');
  const login = await portal.post('/api/v1/auth/login', BOB, { cookie: cookieOf(arrival, 'gw') });
  t.is(login.status, 200, login.text);
  t.true(portal.fakes.calls.includes('gateway.credential opn-1'));
  t.deepEqual(login.body['gateway'], {
    loginUrl: LOGON,
    method: 'POST',
    fields: { user: 'wifi-one-time-user', password: 'one-time-password' },
    handOff: 'script',
    expiresAt: (login.body['gateway'] as { expiresAt: string }).expiresAt,
  });
  t.deepEqual(portal.fakes.createdDevices.at(-1), deviceRefFor(DEV_KEY, 'opn-1', 'AA-BB-CC-0D-0E-0F'));
  t.false(login.text.toLowerCase().includes('aa:bb:cc:0d:0e:0f'));
});

for (const [what, change] of [
  ["another origin than the registered zone (an attacker's)", { zone_url: 'https://203.0.113.66:8000' }],
  ['the registered zone over plain http', { zone_url: 'http://cp.example.net:8000' }],
] as const) {
  test(`an OPNsense arrival naming ${what} is refused before any password: a page, no cookie`, async (t) => {
    const portal = await bootPortal(t);
    const reply = await portal.page(query({ ...OPN, ...change }));
    t.is(reply.status, 403, reply.text);
    t.regex(reply.headers.get('content-type') ?? '', /^text\/html/);
    t.is(reply.headers.get('set-cookie'), null);
    t.regex(reply.text, /not registered with this portal/);
  });
}

test('an OPNsense zone without extended pre-auth data (no MAC) is a page naming the missing parameter, never JSON', async (t) => {
  const portal = await bootPortal(t);
  const { macAddress: _mac, ...noMac } = OPN;
  const reply = await portal.page(query(noMac));
  t.is(reply.status, 400, reply.text);
  t.regex(reply.headers.get('content-type') ?? '', /^text\/html/);
  t.regex(reply.text, /macAddress/);
});

test("OPNsense status AUTHORIZED is the already-connected page in the person's language", async (t) => {
  const portal = await bootPortal(t);
  const en = await portal.page(query({ ...OPN, clientState: 'AUTHORIZED' }), { 'accept-language': 'en' });
  t.is(en.status, 200, en.text);
  t.regex(en.text, /You are already connected/);
  t.is(en.headers.get('set-cookie'), null);
  const vi = await portal.page(query({ ...OPN, clientState: 'AUTHORIZED' }), { 'accept-language': 'vi-VN,vi;q=0.9' });
  t.regex(vi.text, /Bạn đã được kết nối/);
});

test("the page of an OPNsense arrival may call exactly the zone's logon URL (its script hand-off), and post a form nowhere else", async (t) => {
  const portal = await bootPortal(t);
  const arrival = await portal.page(query(OPN));
  const page = await portal.page('/', { cookie: cookieOf(arrival, 'gw') });
  const directives = (page.headers.get('content-security-policy') ?? '').split(';').map((d) => d.trim());
  t.true(directives.includes(`connect-src 'self' ${LOGON}`), directives.join('; '));
  const plain = await portal.page('/');
  t.true((plain.headers.get('content-security-policy') ?? '').includes("connect-src 'self';"));
});
