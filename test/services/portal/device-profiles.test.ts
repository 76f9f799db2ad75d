import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { parse as parsePlist } from 'plist';
import { ensureEapCertificates } from '../../../edge/radius-ca.js';
import type { DeviceGateway } from '../../../services/portal/devices.js';
import { readAndroidWifiConfig } from '../../edge/profile-readers.js';
import { findElement, parseWithElementTree, windowsProfileProblems } from '../../edge/windows-profile-schema.js';
import { WINDOWS_NAMESPACES } from '../../../edge/device-profiles.js';
import { assertError } from '../../helpers/error-shape.js';
import { tempDir } from '../gateway/platform.js';
import { answer, bootPortal, cookieOf, defaultFakes } from './portal-fakes.js';

// "Connect automatically next time" as a file: the signed-in person's device kind picks the
// format (media type, download name), the credential is a new one of their own sign-in, and the
// Wi-Fi identifiers are those of the venue they signed in at (the registry's), else the file's
// own; nothing is issued when the profile could not be made.
const BOB = { username: 'bob@example.com', password: 'bob-demo-pass' };
const SIGNED_IN = 'sess-11111111-1111-4111-8111-111111111111';
const ISSUED = {
  deviceId: 'dev-0123456789abcdef01234567',
  label: 'Device',
  createdAt: '2026-11-27T12:00:00.000Z',
  username: '0123456789abcdef0123456789abcdef@wifi.example.net',
  password: 'device-password-canary',
  anonymousIdentity: 'anonymous@wifi.example.net',
  realm: 'wifi.example.net',
};
const TEST_GATEWAYS = 'test/services/portal/fixtures/gateways.json';

function fakeGateway(calls: string[], issue = answer(201, ISSUED)): DeviceGateway {
  return {
    issue: async (sessionId, label, _correlationId, maxDevices) => (calls.push(`issue ${sessionId} ${label} max ${maxDevices}`), issue),
    list: async () => answer(200, { devices: [] }),
    remove: async () => answer(204, {}),
  };
}

function caFile(t: ExecutionContext): string {
  return ensureEapCertificates(tempDir(t, 'wifi-portal-ca-'), 'radius.wifi.example.net').caFile;
}

async function signedIn(t: ExecutionContext, env: Record<string, string> = {}, issue = answer(201, ISSUED)) {
  const calls: string[] = [];
  const portal = await bootPortal(t, { ...defaultFakes(), devices: fakeGateway(calls, issue) }, { RADIUS_EAP_CA_FILE: caFile(t), ...env });
  const cookie = cookieOf(await portal.post('/api/v1/auth/login', BOB));
  return { portal, cookie, calls };
}

/** A CoovaChilli arrival at venue-1 signed with its UAM secret (the test registry's), as its redir.c signs it. */
function venueOneArrival(): string {
  const params = new URLSearchParams({
    res: 'notyet',
    uamip: '10.1.0.1',
    uamport: '3990',
    challenge: '0123456789abcdef0123456789ABCDEF',
    called: '00-11-22-33-44-55',
    mac: 'AA-BB-CC-0D-0E-0F',
    ip: '10.1.0.7',
    nasid: 'venue-1',
    userurl: 'http://example.com/start',
  });
  const path = `/gateway?${params.toString()}`;
  return `${path}&md=${createHash('md5').update(`http://localhost:3000${path}`).update('venue-1-uam-secret').digest('hex').toUpperCase()}`;
}

test('an Apple profile for a sign-in through no gateway: its media type, a download name, no-store, the credential issued for the own sign-in, the default Wi-Fi', async (t) => {
  const { portal, cookie, calls } = await signedIn(t);
  const reply = await portal.get('/api/v1/me/devices/profile?kind=apple&label=iPhone', { cookie });
  t.is(reply.status, 200, reply.text);
  t.is(reply.headers.get('content-type'), 'application/x-apple-aspen-config');
  t.is(reply.headers.get('content-disposition'), 'attachment; filename="Platform-Secure.mobileconfig"');
  t.is(reply.headers.get('cache-control'), 'no-store');
  const profile = parsePlist(reply.text) as { PayloadContent: Record<string, unknown>[] };
  const [, wifi, hotspot] = profile.PayloadContent;
  t.is(wifi?.['SSID_STR'], 'Platform Secure');
  t.like(wifi?.['EAPClientConfiguration'], { UserName: ISSUED.username, UserPassword: ISSUED.password, OuterIdentity: ISSUED.anonymousIdentity });
  t.deepEqual((wifi?.['EAPClientConfiguration'] as Record<string, unknown> | undefined)?.['TLSTrustedServerNames'], ['radius.wifi.example.net']);
  t.like(hotspot, { IsHotspot: true, DomainName: 'wifi.example.net', RoamingConsortiumOIs: ['F4F5E8F5F4'] });
  t.deepEqual(calls, [`issue ${SIGNED_IN} iPhone max 1`], "the entitlement's device slots bound the sign-in's devices");
  t.false(portal.lines.some((line) => line.includes(ISSUED.password)));
});

test("a sign-in at venue-1 gets venue-1's identifiers: the Android Passpoint file (no download name, base64), the Windows WLAN profile and the wpa_supplicant file", async (t) => {
  const portal = await bootPortal(t, { ...defaultFakes(), devices: fakeGateway([]) }, { RADIUS_EAP_CA_FILE: caFile(t) });
  const arrival = await portal.page(venueOneArrival());
  t.is(arrival.status, 303, arrival.text);
  const cookie = cookieOf(await portal.post('/api/v1/auth/login', BOB, { cookie: cookieOf(arrival, 'gw') }));
  const android = await portal.get('/api/v1/me/devices/profile?kind=android', { cookie });
  t.is(android.status, 200, android.text);
  t.is(android.headers.get('content-type'), 'application/x-wifi-config');
  t.is(android.headers.get('content-transfer-encoding'), 'base64');
  t.is(android.headers.get('content-disposition'), null, "Android's installer takes no Content-Disposition");
  const read = readAndroidWifiConfig(android.text);
  t.deepEqual(read.problems, []);
  t.deepEqual(read.homeSp, { FriendlyName: 'Venue One', FQDN: 'venue-one.example.net', RoamingConsortiumOI: 'A1B2C3,A1B2C3D4E5' });
  t.like(read.credential, { Realm: 'wifi.example.net', Username: ISSUED.username, Password: ISSUED.password });
  const linux = await portal.get('/api/v1/me/devices/profile?kind=linux', { cookie });
  t.is(linux.status, 200, linux.text);
  t.is(linux.headers.get('content-disposition'), 'attachment; filename="Venue-One-Secure.conf"');
  t.regex(linux.text, /^\tssid="Venue One Secure"$/m);
  const windows = await portal.get('/api/v1/me/devices/profile?kind=windows', { cookie });
  t.is(windows.status, 200, windows.text);
  t.is(windows.headers.get('content-type'), 'application/xml');
  t.is(windows.headers.get('content-disposition'), 'attachment; filename="Venue-One-Secure.xml"');
  t.is(windows.headers.get('cache-control'), 'no-store');
  const root = parseWithElementTree(windows.text);
  t.deepEqual(windowsProfileProblems(root), []);
  t.is(findElement(root, `{${WINDOWS_NAMESPACES.wlan}}name`)?.text, 'Venue One Secure');
  t.is(findElement(root, `{${WINDOWS_NAMESPACES.ttls}}ServerNames`)?.text, 'radius.wifi.example.net');
  t.true(windows.text.includes(`password="${ISSUED.password}"`), 'the credential Windows asks for once is in the file');
  t.false(
    portal.lines.some((line) => line.includes(ISSUED.password) || line.includes(ISSUED.username)),
    'no credential in a log line',
  );
});

test('refused before any credential is made: nobody signed in (401), a cross-site request (403), an unknown kind (400), an unreadable CA or no Wi-Fi set up (503)', async (t) => {
  const { portal, cookie, calls } = await signedIn(t);
  assertError(t, await portal.get('/api/v1/me/devices/profile?kind=apple'), 401, 'UNAUTHORIZED');
  assertError(t, await portal.get('/api/v1/me/devices/profile?kind=apple', { cookie, 'sec-fetch-site': 'cross-site' }), 403, 'FORBIDDEN');
  assertError(t, await portal.get('/api/v1/me/devices/profile?kind=windows-phone', { cookie }), 400, 'INVALID_REQUEST');
  const head = await portal.request('HEAD', '/api/v1/me/devices/profile?kind=apple', { headers: { cookie } });
  t.is(head.status, 200, 'a HEAD is answered without a credential');
  const noCa = await signedIn(t, { RADIUS_EAP_CA_FILE: '/nonexistent/ca.pem' });
  assertError(t, await noCa.portal.get('/api/v1/me/devices/profile?kind=apple', { cookie: noCa.cookie }), 503, 'SERVICE_UNAVAILABLE');
  const bare = JSON.parse(readFileSync(TEST_GATEWAYS, 'utf8')) as Record<string, unknown>;
  delete bare['wifi'];
  delete bare['venues'];
  const file = join(tempDir(t, 'wifi-portal-registry-'), 'gateways.json');
  writeFileSync(file, JSON.stringify(bare));
  const noWifi = await signedIn(t, { GATEWAYS_FILE: file });
  assertError(t, await noWifi.portal.get('/api/v1/me/devices/profile?kind=apple', { cookie: noWifi.cookie }), 503, 'SERVICE_UNAVAILABLE');
  t.deepEqual([...calls, ...noCa.calls, ...noWifi.calls], []);
});

test('a sign-in whose device slots are all in use is a 409 DEVICE_SLOTS_FULL and no file; one that has ended a 409 SESSION_EXPIRED', async (t) => {
  const full = await signedIn(t, {}, answer(409, { code: 'DEVICE_SLOTS_FULL', message: 'This sign-in already has its one device; remove it first.' }));
  const reply = await full.portal.get('/api/v1/me/devices/profile?kind=apple', { cookie: full.cookie });
  assertError(t, reply, 409, 'DEVICE_SLOTS_FULL');
  t.is(reply.headers.get('content-disposition'), null);
  assertError(t, await full.portal.post('/api/v1/me/devices', {}, { cookie: full.cookie }), 409, 'DEVICE_SLOTS_FULL');
  const ended = await signedIn(t, {}, answer(409, { code: 'SESSION_EXPIRED', message: 'The session is revoked or expired.' }));
  assertError(t, await ended.portal.get('/api/v1/me/devices/profile?kind=android', { cookie: ended.cookie }), 409, 'SESSION_EXPIRED');
});
