import { createHash } from 'node:crypto';
import test from 'ava';
import { deviceRefFor } from '../../../edge/device-ref.js';
import { encryptFas, fasText, newHid, type FasFields } from '../../opennds/fas-encrypt.js';
import { answer, bootPortal, cookieOf, defaultFakes } from './portal-fakes.js';

// The portal as openNDS's FAS at level 3. The router sends the device to
// /opennds/<nasId> (its faspath) with the query encrypted under its faskey; the registry entry
// nds-1 (fixtures/gateways.json) holds that key sealed. A good arrival becomes the same gateway
// context as a RADIUS controller's (the MAC only as the keyed deviceRef); anything else is a
// bilingual refusal page before any password, and grants nothing.
const FASKEY = 'portal-test-faskey-0123456789';
const BOB = { username: 'bob@example.com', password: 'bob-demo-pass' };
const MAC = '02:6e:64:73:00:11';
const fields = (overrides: Partial<FasFields> = {}): FasFields => ({
  hid: newHid(),
  clientip: '192.168.77.11',
  clientmac: MAC,
  gatewayname: 'nds-1',
  gatewayaddress: '192.168.77.1:2050',
  originurl: 'http://203.0.113.10/hello',
  ...overrides,
});
const arrivalPath = (f: FasFields, key = FASKEY, nasId = 'nds-1') => {
  const { fas, iv } = encryptFas(fasText(f), key);
  return `/opennds/${nasId}?fas=${encodeURIComponent(fas)}&iv=${iv}`;
};

test('a level 3 arrival becomes a gateway context behind cookie gw; the sign-in queues the client at the gateway service with its hid and hands the browser no login', async (t) => {
  const portal = await bootPortal(t);
  const f = fields();
  const arrival = await portal.page(arrivalPath(f));
  t.is(arrival.status, 303, arrival.text);
  t.is(arrival.headers.get('location'), '/');
  const gw = cookieOf(arrival, 'gw');
  t.truthy(gw);
  const login = await portal.post('/api/v1/auth/login', BOB, { cookie: gw });
  t.is(login.status, 200, login.text);
  t.true(portal.fakes.calls.includes(`gateway.opennds nds-1 ${f.hid}`), portal.fakes.calls.join('\n'));
  t.false(
    portal.fakes.calls.some((call) => call.startsWith('gateway.credential')),
    'no one-time credential: authmon authorises',
  );
  t.is(login.body['gateway'], undefined);
  t.is(
    portal.fakes.createdDevices.at(-1),
    deviceRefFor('dev-device-ref-key-0001', 'nds-1', MAC),
    "the session is the device's keyed deviceRef at this gateway",
  );
  const stored = JSON.stringify(await portal.db.query('SELECT * FROM gateway_contexts'));
  for (const text of [stored, portal.lines.join('\n'), login.text, arrival.text]) {
    t.false(text.toLowerCase().includes(MAC) || text.includes('026e64730011'), 'the MAC is never kept, logged or answered');
  }
});

test('the same FAS query (the same hid) after its sign-in is a replay: refused with a page (409), nothing kept', async (t) => {
  const portal = await bootPortal(t);
  const f = fields();
  const path = arrivalPath(f);
  const gw = cookieOf(await portal.page(path), 'gw');
  t.is((await portal.post('/api/v1/auth/login', BOB, { cookie: gw })).status, 200);
  const replay = await portal.page(path);
  t.is(replay.status, 409);
  t.regex(replay.text, /used already/);
  t.is(
    replay.headers.getSetCookie().find((c) => c.startsWith('gw=')),
    undefined,
  );
  const fresh = await portal.page(arrivalPath(f), { 'Accept-Language': 'vi' });
  t.is(fresh.status, 409, 'a fresh encryption of the same hid too');
  t.regex(fresh.text, /đã được dùng/);
});

test("bad input is refused before any password with a clear page in the person's language and no cookie: wrong key, tampered query, unknown or non-openNDS gateway, another gatewayname, an unregistered gateway address, level 1 (named as such), missing iv", async (t) => {
  const portal = await bootPortal(t);
  const refused = async (path: string, status: number, pattern: RegExp, language = 'en') => {
    const page = await portal.page(path, { 'Accept-Language': language });
    t.is(page.status, status, `${path.slice(0, 40)}: ${page.text.slice(0, 200)}`);
    t.regex(page.text, pattern);
    t.is(
      page.headers.getSetCookie().find((c) => c.startsWith('gw=')),
      undefined,
    );
  };
  await refused(arrivalPath(fields(), 'another-faskey-000000000000'), 403, /not signed by the venue/);
  await refused(arrivalPath(fields(), 'another-faskey-000000000000'), 403, /không được thiết bị mạng/, 'vi');
  const { fas, iv } = encryptFas(fasText(fields()), FASKEY);
  const bytes = Buffer.from(Buffer.from(fas, 'base64').toString('latin1'), 'base64');
  bytes[20] = (bytes[20] ?? 0) ^ 0x01;
  const tampered = Buffer.from(bytes.toString('base64'), 'latin1').toString('base64');
  await refused(`/opennds/nds-1?fas=${encodeURIComponent(tampered)}&iv=${iv}`, 403, /not signed by the venue/);
  await refused(`/opennds/nds-1?fas=${encodeURIComponent(fas)}&iv=${iv.replace(/^./, (c) => (c === '0' ? '1' : '0'))}`, 403, /not signed by the venue/);
  await refused(arrivalPath(fields(), FASKEY, 'nds-unknown'), 403, /not registered/);
  await refused(arrivalPath(fields(), FASKEY, 'venue-1'), 403, /not registered/);
  await refused(arrivalPath(fields({ gatewayname: 'venue-1' })), 403, /not signed by the venue/);
  await refused(arrivalPath(fields({ gatewayaddress: '192.168.99.1:2050' })), 403, /not the venue&#39;s gateway/);
  // Level 1: the query in plain base64, no iv: a page naming the setting to change, not "malformed".
  const level1 = `/opennds/nds-1?fas=${encodeURIComponent(Buffer.from(fasText(fields())).toString('base64'))}`;
  await refused(level1, 403, /FAS level 1\), which anyone could forge/);
  await refused(level1, 403, /FAS cấp 1\), ai cũng có thể giả mạo/, 'vi');
  await refused(`/opennds/nds-1?fas=${encodeURIComponent(Buffer.from('not an openNDS query').toString('base64'))}`, 400, /cannot read \(iv\)/);
  await refused(`/gateway?fas=${encodeURIComponent(fas)}&iv=${iv}`, 400, /cannot read \(fas\)/);
  t.false(
    portal.fakes.calls.some((call) => call.startsWith('gateway.')),
    'nothing reached the gateway service',
  );
});

test("a gateway whose authmon does not poll the platform (FAS level 2, or authmon stopped) is refused on arrival before any password: a page in the person's language, no cookie, nothing queued; the gateway service unreachable is a 503 page", async (t) => {
  const fakes = defaultFakes();
  fakes.openndsGateway = answer(200, { nasId: 'nds-1', polling: false, polledAt: null });
  const portal = await bootPortal(t, fakes);
  for (const [language, pattern] of [
    ['en', /not connected to the sign-in service \(openNDS needs FAS level 3 with authmon\)/],
    ['vi', /chưa kết nối với dịch vụ đăng nhập/],
  ] as const) {
    const page = await portal.page(arrivalPath(fields()), { 'Accept-Language': language });
    t.is(page.status, 403, page.text);
    t.regex(page.text, pattern);
    t.is(
      page.headers.getSetCookie().find((c) => c.startsWith('gw=')),
      undefined,
    );
  }
  t.true(fakes.calls.includes('gateway.opennds-polling nds-1'), fakes.calls.join('\n'));
  t.true(
    portal.lines.some((line) => line.includes('not-polling') && line.includes('"nasId":"nds-1"')),
    'a log line names the gateway for its operator',
  );
  fakes.openndsGateway = { kind: 'unreachable' };
  const down = await portal.page(arrivalPath(fields()));
  t.is(down.status, 503, down.text);
  t.regex(down.text, /cannot check this Wi-Fi gateway right now/);
  t.is(
    down.headers.getSetCookie().find((c) => c.startsWith('gw=')),
    undefined,
  );
  t.false(
    fakes.calls.some((call) => call.startsWith('gateway.opennds ')),
    'nothing was queued',
  );
  t.false(
    fakes.calls.some((call) => call.startsWith('session.')),
    'no session was opened',
  );
});

test('a gateway that went silent between the arrival and the sign-in: the gateway service does not queue the client (502), the sign-in fails and its network session is revoked: nothing waits for an authorisation', async (t) => {
  const fakes = defaultFakes();
  const portal = await bootPortal(t, fakes);
  const gw = cookieOf(await portal.page(arrivalPath(fields())), 'gw');
  t.truthy(gw);
  fakes.opennds = answer(502, { code: 'UPSTREAM_UNAVAILABLE', message: 'The openNDS gateway is not polling the platform.' });
  const login = await portal.post('/api/v1/auth/login', BOB, { cookie: gw });
  t.is(login.status, 502, login.text);
  t.is(login.body['code'], 'UPSTREAM_UNAVAILABLE');
  t.true(fakes.calls.includes('session.revoke'), 'the granted session is rolled back');
});

test("authmon's POST to the faspath is relayed to the gateway service with the router's address and its signature, and its text answered as is; a malformed form is refused without a call", async (t) => {
  const fakes = defaultFakes();
  fakes.authmon = answer(200, { text: '* abc' });
  const portal = await bootPortal(t, fakes);
  const form = { auth_get: 'view', gatewayhash: createHash('sha256').update('nds-1').digest('hex'), payload: Buffer.from('none').toString('base64') };
  const relayed = await portal.page('/opennds/nds-1', {}, form);
  t.is(relayed.status, 200);
  t.is(relayed.text, '* abc');
  t.regex(
    fakes.calls.at(-1) ?? '',
    /^gateway\.authmon nds-1 view (::ffff:)?127\.0\.0\.1$/,
    "unsigned, as openNDS's own post-request.php sends: the gateway service refuses it",
  );
  const signature = { ts: '1700000000', nonce: 'ab'.repeat(16), sig: 'cd'.repeat(32) };
  t.is((await portal.page('/opennds/nds-1', {}, { ...form, ...signature })).status, 200);
  t.regex(
    fakes.calls.at(-1) ?? '',
    new RegExp(` signed ${signature.ts} ${signature.nonce} ${signature.sig}$`),
    "the signing post-request.php's fields are passed on",
  );
  const calls = fakes.calls.length;
  t.is((await portal.page('/opennds/nds-1', {}, { ...form, ...signature, sig: 'not-hex' })).status, 400);
  t.is((await portal.page('/opennds/nds-1', {}, { ...form, gatewayhash: 'nope' })).status, 400);
  t.is((await portal.page('/opennds/nds-1', {}, { auth_get: 'view' })).status, 400);
  t.is(fakes.calls.length, calls);
  fakes.authmon = answer(403, { code: 'FORBIDDEN' });
  t.is((await portal.page('/opennds/nds-1', {}, form)).status, 403, "the gateway service's refusal stays a refusal");
});
