import { writeFileSync } from 'node:fs';
import test, { type ExecutionContext } from 'ava';
import { CONTROLLER_PROFILES, PROFILE_IDS, type ProfileId } from '../../edge/controllers/index.js';
import { handsOverPassword } from '../../edge/registry.js';
import { createSealer } from '../../services/kit/index.js';
import { gatewayForArrival, loadDefaultWifi, loadGatewayRegistry, type GatewaysFileEntry } from '../../edge/index.js';
import { tempDir } from '../services/gateway/platform.js';

// One registry, read by the portal and the gateway service, decides where a device
// logs in: a gateway is found by its NAS id or its login URL, and only its registered login URL counts.
const sealer = createSealer('ZGV2LWdhdGV3YXktc2VhbC1rZXktMzItYnl0ZXMhISE=');
const entry = (nasId: string, loginUrls: string[], extra: Partial<GatewaysFileEntry> = {}): GatewaysFileEntry => ({
  nasId,
  profile: 'coovachilli',
  address: '127.0.0.1',
  secret: sealer.seal('s'),
  uamSecret: sealer.seal('u'),
  loginUrls,
  ...extra,
});

function registryFile(t: ExecutionContext, gateways: unknown[]): string {
  const file = `${tempDir(t, 'wifi-registry-')}/gateways.json`;
  writeFileSync(file, JSON.stringify({ gateways }));
  return file;
}

test("a gateway is found by its NAS id with its registered login URL, or by the login URL alone; the registry's URL is answered", (t) => {
  const registry = loadGatewayRegistry(
    registryFile(t, [entry('venue-1', ['http://10.1.0.1:3990/logon']), entry('venue-2', ['HTTP://10.2.0.1:3990/logon'], { uamSecret: sealer.seal('u2') })]),
    sealer,
  );
  t.like(gatewayForArrival(registry, 'coovachilli', 'venue-1', 'http://10.1.0.1:3990/logon'), {
    kind: 'found',
    loginUrl: 'http://10.1.0.1:3990/logon',
    gateway: { nasId: 'venue-1', secret: 's', uamSecret: 'u' },
  });
  t.like(gatewayForArrival(registry, 'coovachilli', null, 'http://10.2.0.1:3990/logon'), { kind: 'found', gateway: { nasId: 'venue-2', uamSecret: 'u2' } });
});

test("an unregistered NAS id, another gateway's login URL or an attacker's login URL is not found", (t) => {
  const registry = loadGatewayRegistry(
    registryFile(t, [entry('venue-1', ['http://10.1.0.1:3990/logon']), entry('venue-2', ['http://10.2.0.1:3990/logon'])]),
    sealer,
  );
  t.deepEqual(gatewayForArrival(registry, 'coovachilli', 'venue-9', 'http://10.1.0.1:3990/logon'), { kind: 'unknown-gateway' });
  t.deepEqual(gatewayForArrival(registry, 'coovachilli', 'venue-1', 'http://10.2.0.1:3990/logon'), { kind: 'unregistered-login-url' });
  t.deepEqual(gatewayForArrival(registry, 'coovachilli', 'venue-1', 'http://203.0.113.66:3990/logon'), { kind: 'unregistered-login-url' });
  t.deepEqual(gatewayForArrival(registry, 'coovachilli', null, 'http://203.0.113.66:3990/logon'), { kind: 'unknown-gateway' });
  t.deepEqual(gatewayForArrival(registry, 'coovachilli', 'venue-1', null), { kind: 'unregistered-login-url' });
});

test('a registry with a NAS id twice, a login URL at two gateways, an unknown profile or no login URL stops the start', (t) => {
  t.throws(() => loadGatewayRegistry(registryFile(t, [entry('a', ['http://10.1.0.1/logon']), entry('a', ['http://10.1.0.2/logon'])]), sealer), {
    message: /nasId a twice/,
  });
  t.throws(() => loadGatewayRegistry(registryFile(t, [entry('a', ['http://10.1.0.1/logon']), entry('b', ['http://10.1.0.1:80/logon'])]), sealer), {
    message: /registered twice/,
  });
  t.throws(() => loadGatewayRegistry(registryFile(t, [{ ...entry('a', ['http://10.1.0.1/logon']), profile: 'netgear' }]), sealer));
  t.throws(() => loadGatewayRegistry(registryFile(t, [entry('a', [])]), sealer));
  t.throws(() => loadGatewayRegistry(registryFile(t, [entry('a', ['javascript:alert(1)'])]), sealer));
});

test('the shipped fixtures/gateways.json loads under the development seal key', (t) => {
  const registry = loadGatewayRegistry('fixtures/gateways.json', sealer);
  t.like(registry.get('demo-nas'), { profile: 'coovachilli', loginUrls: ['http://10.1.0.1:3990/logon'] });
});

// A one-time password in a form posted over http is anyone's on the venue's air (pfSense's
// re-authentication then keeps a sniffed one valid for the whole session): every controller the
// page hands the password itself gets its login URL only as https; CHAP logins and openNDS's
// hand-off (no credential at all) may stay on the controller's plain http address.
const PLAIN_LOGINS: [ProfileId, string, Partial<GatewaysFileEntry>][] = [
  ['cisco-wlc', 'http://192.0.2.1/login.html', {}],
  ['pfsense', 'http://fw.example.net:8002/index.php?zone=guest', {}],
  ['opnsense', 'http://cp.example.net:8000/api/captiveportal/access/logon/', {}],
  ['coovachilli', 'http://10.1.0.1:3990/logon', {}],
  ['mikrotik', 'http://10.5.50.1/login', { uamSecret: undefined }],
  ['opennds', 'http://192.168.77.1:2050/', { secret: undefined, uamSecret: undefined, faskey: sealer.seal('f') }],
];
for (const [profile, url, extra] of PLAIN_LOGINS) {
  const password = handsOverPassword(CONTROLLER_PROFILES[profile]);
  test(`${profile}: the page hands it ${password ? 'the password itself, so an http login URL stops the start naming the entry' : 'no password in clear, so its http login URL is taken'}`, (t) => {
    const file = (loginUrl: string) =>
      registryFile(t, [entry('gw-1', ['https://other.example/unused'], { profile, ...extra }), entry(`${profile}-1`, [loginUrl], { profile, ...extra })]);
    if (password) {
      t.throws(() => loadGatewayRegistry(file(url), sealer), {
        message: new RegExp(`${profile}-1 \\(${profile}\\) is handed the password itself: its login URL http://\\S+ must be https`),
      });
      const https = url.replace(/^http:/, 'https:');
      t.like(gatewayForArrival(loadGatewayRegistry(file(https), sealer), profile, `${profile}-1`, https), { kind: 'found' });
    } else {
      t.is(loadGatewayRegistry(file(url), sealer).get(`${profile}-1`)?.loginUrls[0], url);
    }
  });
}

test('Cisco, pfSense and OPNsense are the controllers handed the password itself', (t) => {
  t.deepEqual(PROFILE_IDS.filter((id) => handsOverPassword(CONTROLLER_PROFILES[id])).sort(), ['cisco-wlc', 'opnsense', 'pfsense']);
});

test('a CoovaChilli entry without a UAM secret stops the start naming the entry', (t) => {
  t.throws(
    () =>
      loadGatewayRegistry(
        registryFile(t, [entry('venue-1', ['http://10.1.0.1:3990/logon']), entry('chilli-2', ['http://10.2.0.1:3990/logon'], { uamSecret: undefined })]),
        sealer,
      ),
    { message: /chilli-2 \(coovachilli\) needs its uamSecret/ },
  );
});

test('MAC authentication is off at a gateway unless its entry enables it', (t) => {
  const registry = loadGatewayRegistry(
    registryFile(t, [entry('off-1', ['http://10.1.0.1:3990/logon']), entry('on-1', ['http://10.2.0.1:3990/logon'], { macAuthentication: true })]),
    sealer,
  );
  t.false(registry.get('off-1')?.macAuthentication);
  t.true(registry.get('on-1')?.macAuthentication);
  t.throws(() =>
    loadGatewayRegistry(registryFile(t, [entry('odd-1', ['http://10.1.0.1:3990/logon'], { macAuthentication: 'yes' as unknown as boolean })]), sealer),
  );
});

function wifiFile(t: ExecutionContext, extra: Record<string, unknown>): string {
  const file = `${tempDir(t, 'wifi-registry-')}/gateways.json`;
  const gateways = [
    entry('a', ['http://10.1.0.1/logon'], { venue: 'mall' }),
    entry('b', ['http://10.1.0.2/logon'], { venue: 'mall' }),
    entry('c', ['http://10.1.0.3/logon']),
  ];
  writeFileSync(file, JSON.stringify({ gateways, ...extra }));
  return file;
}

test("each gateway carries its venue's Wi-Fi identifiers, else the file's own, with the NAI realm and friendly name defaulted; OIs in upper case", (t) => {
  const file = wifiFile(t, {
    wifi: { ssid: 'Chain Secure', homeDomain: 'Chain.Example.net', roamingConsortiumOIs: ['f4f5e8'] },
    venues: {
      mall: {
        ssid: 'Mall Secure',
        homeDomain: 'mall.example.net',
        roamingConsortiumOIs: ['a1b2c3d4e5', 'A1B2C3'],
        naiRealm: 'wifi.example.net',
        friendlyName: 'The Mall',
      },
    },
  });
  const registry = loadGatewayRegistry(file, sealer);
  const mall = {
    ssid: 'Mall Secure',
    homeDomain: 'mall.example.net',
    roamingConsortiumOIs: ['A1B2C3D4E5', 'A1B2C3'],
    naiRealm: 'wifi.example.net',
    friendlyName: 'The Mall',
  };
  t.deepEqual(registry.get('a')?.wifi, mall);
  t.deepEqual(registry.get('b')?.wifi, mall);
  const chain = {
    ssid: 'Chain Secure',
    homeDomain: 'chain.example.net',
    roamingConsortiumOIs: ['F4F5E8'],
    naiRealm: 'chain.example.net',
    friendlyName: 'Chain Secure',
  };
  t.deepEqual(registry.get('c')?.wifi, chain);
  t.deepEqual(loadDefaultWifi(file), chain);
  const none = wifiFile(t, {});
  t.is(loadGatewayRegistry(none, sealer).get('a')?.wifi, undefined);
  t.is(loadDefaultWifi(none), undefined);
});

test('Wi-Fi identifiers that a device could not use stop the start: an OI of other than 3 or 5 octets, a home domain or realm that is no domain, an SSID past 32 bytes or with a quote, a venue no gateway is in', (t) => {
  const good = { ssid: 'Secure', homeDomain: 'wifi.example.net' };
  for (const bad of [
    { ...good, roamingConsortiumOIs: ['A1B2C3D4'] },
    { ...good, roamingConsortiumOIs: ['A1B2C'] },
    { ...good, roamingConsortiumOIs: ['G1B2C3'] },
    { ...good, roamingConsortiumOIs: ['A1B2C3', 'A1B2C4', 'A1B2C5', 'A1B2C6'] },
    { ...good, homeDomain: 'localhost' },
    { ...good, homeDomain: 'https://wifi.example.net' },
    { ...good, naiRealm: 'wifi example net' },
    { ...good, ssid: 'Quán cà phê Sài Gòn Secure 2026' },
    { ...good, ssid: 'say "hi"' },
    { ...good, ssid: '' },
    { ...good, colour: 'blue' },
  ])
    t.throws(() => loadGatewayRegistry(wifiFile(t, { wifi: bad }), sealer), undefined, JSON.stringify(bad));
  t.throws(() => loadGatewayRegistry(wifiFile(t, { venues: { airport: good } }), sealer), { message: /venues names airport/ });
  t.notThrows(() => loadGatewayRegistry(wifiFile(t, { wifi: good, venues: { c: good } }), sealer));
});
