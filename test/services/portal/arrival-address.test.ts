import { createHash } from 'node:crypto';
import test from 'ava';
import { encryptFas, fasText, newHid, type FasFields } from '../../opennds/fas-encrypt.js';
import { answer, bootPortal, cookieOf, defaultFakes, entitlementBody } from './portal-fakes.js';
import { capturedQuery } from '../../edge/controllers/captured.js';

// An arrival nothing binds to a browser (openNDS's encrypted FAS link; a controller that does not
// sign its redirect) is copyable: an attacker at the venue copies the link openNDS made for his
// own device and sends it to someone anywhere, whose sign-in would then put the attacker's device
// online. So such an arrival is taken only from the gateway's outside addresses (the registry's
// `outsideAddresses`, here 203.0.113.1 and 127.0.0.1 for nds-1), checked again at sign-in; an
// openNDS context lives OPENNDS_CONTEXT_TTL_SECONDS, holds its hid while it lives (one hand-off
// at a time), and a grant queued with the hid spends it. The portal trusts its loopback proxy
// here, so X-Forwarded-For says where the browser is. The tests that move the portal's clock run
// serially: an expired context is removed from the file's shared database at any read.
const FASKEY = 'portal-test-faskey-0123456789';
const BOB = { username: 'bob@example.com', password: 'bob-demo-pass' };
const PROXIED = { PORTAL_TRUSTED_PROXIES: 'loopback' };
const ELSEWHERE = { 'X-Forwarded-For': '198.51.100.7' };
const AT_VENUE = { 'X-Forwarded-For': '203.0.113.1' };
const fields = (): FasFields => ({
  hid: newHid(),
  clientip: '192.168.77.11',
  clientmac: '02:6e:64:73:00:11',
  gatewayname: 'nds-1',
  gatewayaddress: '192.168.77.1:2050',
  originurl: 'http://203.0.113.10/hello',
});
const arrivalPath = (f: FasFields) => {
  const { fas, iv } = encryptFas(fasText(f), FASKEY);
  return `/opennds/nds-1?fas=${encodeURIComponent(fas)}&iv=${iv}`;
};
const gwCookieOf = (headers: Headers) => headers.getSetCookie().find((c) => c.startsWith('gw='));

test('a crafted openNDS link opened from another address is refused with a page and no cookie; the same link from the venue is taken (its hid was not spent)', async (t) => {
  const portal = await bootPortal(t, undefined, PROXIED);
  const path = arrivalPath(fields());
  const crafted = await portal.page(path, ELSEWHERE);
  t.is(crafted.status, 403, crafted.text);
  t.regex(crafted.text, /works only on the Wi-Fi network that made it/);
  t.is(gwCookieOf(crafted.headers), undefined);
  t.is((await portal.page(path, { ...ELSEWHERE, 'Accept-Language': 'vi' })).status, 403);
  const own = await portal.page(path, AT_VENUE);
  t.is(own.status, 303, own.text);
  t.truthy(gwCookieOf(own.headers));
});

test('a context made at the venue is not signed in from another address: 403 FORBIDDEN before the password leaves, nothing queued at the gateway', async (t) => {
  const portal = await bootPortal(t, undefined, PROXIED);
  const gw = cookieOf(await portal.page(arrivalPath(fields()), AT_VENUE), 'gw');
  t.truthy(gw);
  const elsewhere = await portal.post('/api/v1/auth/login', BOB, { cookie: gw, ...ELSEWHERE });
  t.is(elsewhere.status, 403, elsewhere.text);
  t.is(elsewhere.body['code'], 'FORBIDDEN');
  t.false(
    portal.fakes.calls.some((call) => call.startsWith('idp.password') || call.startsWith('gateway.opennds ') || call.startsWith('session.')),
    portal.fakes.calls.join('\n'),
  );
  const atVenue = await portal.post('/api/v1/auth/login', BOB, { cookie: gw, ...AT_VENUE });
  t.is(atVenue.status, 200, atVenue.text);
  t.true(portal.fakes.calls.some((call) => call.startsWith('gateway.opennds nds-1')));
});

test('an openNDS hid makes one hand-off at a time: another browser arriving with it while its context lives is refused (409) before any sign-in; the browser holding it gets its own context again', async (t) => {
  const portal = await bootPortal(t);
  const f = fields();
  const first = await portal.page(arrivalPath(f));
  t.is(first.status, 303);
  const gw = cookieOf(first, 'gw');
  const other = await portal.page(arrivalPath(f));
  t.is(other.status, 409, other.text);
  t.regex(other.text, /used already/);
  t.is(gwCookieOf(other.headers), undefined);
  const holding = cookieOf(await portal.page(arrivalPath(fields())), 'gw');
  t.is((await portal.page(arrivalPath(f), { cookie: holding })).status, 409, "a cookie of another hid's context is not this one's");
  const own = await portal.page(arrivalPath(f), { cookie: gw });
  t.is(own.status, 303, own.text);
  t.is(cookieOf(own, 'gw'), gw, 'the same context');
  t.false(portal.fakes.calls.some((call) => call.startsWith('idp.') || call.startsWith('session.')));
});

test.serial(
  'a grant queued with an openNDS hid spends it: the link is refused (409) afterwards, from the browser that signed in too, and after its context would have expired',
  async (t) => {
    let clock = Date.now();
    const portal = await bootPortal(t, undefined, {}, () => new Date(clock));
    const f = fields();
    const gw = cookieOf(await portal.page(arrivalPath(f)), 'gw');
    const login = await portal.post('/api/v1/auth/login', BOB, { cookie: gw });
    t.is(login.status, 200, login.text);
    t.true(portal.fakes.calls.includes(`gateway.opennds nds-1 ${f.hid}`));
    t.is((await portal.page(arrivalPath(f), { cookie: gw })).status, 409);
    clock += 301_000;
    const later = await portal.page(arrivalPath(f));
    t.is(later.status, 409, later.text);
    t.is(gwCookieOf(later.headers), undefined);
  },
);

test.serial(
  "a hand-off that ended without a grant leaves the hid to the device's next arrival: refused for an allowance used up, its context expired, the same link signs in (openNDS keeps the token of a client it never authorised)",
  async (t) => {
    let clock = Date.now();
    const fakes = defaultFakes();
    const entitlement = entitlementBody();
    fakes.evaluate = answer(201, {
      ...entitlement,
      permission: { ...(entitlement['permission'] as object), allowance: { dataBytes: 1_000_000, timeSeconds: null, period: 'DAY' } },
    });
    fakes.allowanceLeft = answer(200, { bytesRemaining: 0, secondsRemaining: null, renewsAt: new Date(clock + 60_000).toISOString() });
    const portal = await bootPortal(t, fakes, {}, () => new Date(clock));
    const f = fields();
    const arrival = await portal.page(arrivalPath(f));
    t.is(arrival.status, 303, arrival.text);
    const gw = cookieOf(arrival, 'gw');
    const refused = await portal.post('/api/v1/auth/login', BOB, { cookie: gw });
    t.is(refused.status, 403, refused.text);
    t.is(refused.body['code'], 'ALLOWANCE_USED_UP');
    t.is((await portal.page(arrivalPath(f))).status, 409, 'still held by its context');
    clock += 301_000;
    fakes.allowanceLeft = answer(200, { bytesRemaining: 1_000_000, secondsRemaining: null, renewsAt: new Date(clock + 86_400_000).toISOString() });
    const next = await portal.page(arrivalPath(f));
    t.is(next.status, 303, next.text);
    const login = await portal.post('/api/v1/auth/login', BOB, { cookie: cookieOf(next, 'gw') });
    t.is(login.status, 200, login.text);
    t.is(portal.fakes.calls.filter((call) => call === `gateway.opennds nds-1 ${f.hid}`).length, 1, 'queued once, by the sign-in that got through');
  },
);

test.serial(
  'an openNDS context lives OPENNDS_CONTEXT_TTL_SECONDS (300 by default), not the 900 s of other gateways: expired, it signs nothing in at the gateway',
  async (t) => {
    let clock = Date.now();
    const portal = await bootPortal(t, undefined, {}, () => new Date(clock));
    const arrival = await portal.page(arrivalPath(fields()));
    t.regex(gwCookieOf(arrival.headers) ?? '', /Max-Age=300/);
    const gw = cookieOf(arrival, 'gw');
    clock += 301_000;
    const login = await portal.post('/api/v1/auth/login', BOB, { cookie: gw });
    t.is(login.status, 200, login.text);
    t.false(
      portal.fakes.calls.some((call) => call.startsWith('gateway.opennds ')),
      'the expired context authorised no device at the gateway',
    );
  },
);

test("a /gateway arrival nothing signs (a Cisco WLC's redirect) is taken only from the gateway's outside addresses; a signed one (CoovaChilli's md) from anywhere", async (t) => {
  const portal = await bootPortal(t, undefined, PROXIED);
  const cisco = capturedQuery('cisco-wlc', 'login');
  const unsigned = `/gateway?${new URLSearchParams(cisco).toString()}`;
  const crafted = await portal.page(unsigned, ELSEWHERE);
  t.is(crafted.status, 403, crafted.text);
  t.regex(crafted.text, /works only on the Wi-Fi network that made it/);
  t.is(gwCookieOf(crafted.headers), undefined);
  t.is((await portal.page(unsigned, { 'X-Forwarded-For': '192.0.2.21' })).status, 303, "from the gateway's own address");
  const uam = { res: 'notyet', uamip: '10.3.0.1', uamport: '3990', challenge: '0123456789abcdef0123456789ABCDEF', mac: 'AA-BB-CC-0D-0E-0F', nasid: 'venue-md' };
  const signedPath = `/gateway?${new URLSearchParams(uam).toString()}`;
  const md = createHash('md5').update(`http://localhost:3000${signedPath}`).update('venue-md-uam-secret').digest('hex').toUpperCase();
  t.is((await portal.page(`${signedPath}&md=${md}`, ELSEWHERE)).status, 303, 'a signed arrival is bound by its signature');
});
