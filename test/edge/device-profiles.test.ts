import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import test from 'ava';
import { parse as parsePlist } from 'plist';
import {
  androidWifiConfig,
  appleMobileconfig,
  WINDOWS_NAMESPACES,
  windowsWlanProfile,
  wpaSupplicantConfig,
  type DeviceProfileInput,
} from '../../edge/device-profiles.js';
import { ensureEapCertificates } from '../../edge/radius-ca.js';
import { requireTools } from '../helpers/host-tools.js';
import { appleProfileProblems, readAndroidWifiConfig } from './profile-readers.js';
import { findElement, parseWithElementTree, windowsProfileProblems } from './windows-profile-schema.js';

// The profiles a device installs carry the credential, EAP-TTLS/PAP, the CA and server name it
// trusts, and the venue's Passpoint identifiers; each is read back by a real parser (Python's
// plistlib and npm's plist for Apple's, a MIME split and fast-xml-parser for Android's PPS-MO,
// eapol_test for wpa_supplicant's in test/services/gateway/eap.test.ts) and checked against the
// keys and nodes their published references require.
requireTools(['/usr/bin/python3'], 'Debian python3 (the coova harness uses it too)');

const dir = mkdtempSync(join(tmpdir(), 'wifi-profiles-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));
const certificates = ensureEapCertificates(join(dir, 'ca'), 'radius.wifi.example.net');
const passpoint = { homeDomain: 'wifi.example.net', roamingConsortiumOIs: ['F4F5E8F5F4', 'F4F5E8'], naiRealm: 'wifi.example.net', friendlyName: 'Venue & Co' };
const input = (changes: Partial<DeviceProfileInput> = {}): DeviceProfileInput => ({
  ssid: 'Venue <Secure> & Co',
  username: '0123456789abcdef0123456789abcdef@wifi.example.net',
  password: 'p4ss-word_canary',
  anonymousIdentity: 'anonymous@wifi.example.net',
  caPem: readFileSync(certificates.caFile, 'utf8'),
  serverName: 'radius.wifi.example.net',
  ...changes,
});
const EAP = {
  AcceptEAPTypes: [21],
  TTLSInnerAuthentication: 'PAP',
  UserName: input().username,
  UserPassword: input().password,
  OuterIdentity: 'anonymous@wifi.example.net',
  TLSTrustedServerNames: ['radius.wifi.example.net'],
  TLSMinimumVersion: '1.2',
};

function plistlib(text: string): Record<string, unknown> {
  const read = spawnSync(
    '/usr/bin/python3',
    [
      '-c',
      'import sys, plistlib, json, base64; d = plistlib.loads(sys.stdin.buffer.read()); print(json.dumps(d, default=lambda b: base64.b64encode(b).decode()))',
    ],
    { input: text, encoding: 'utf8' },
  );
  if (read.status !== 0) throw new Error(read.stderr);
  return JSON.parse(read.stdout) as Record<string, unknown>;
}

test('the Apple profile parses as a plist (plistlib): a root CA payload and a Wi-Fi payload with EAP-TTLS/PAP anchored to it', (t) => {
  const profile = plistlib(appleMobileconfig(input()));
  t.like(profile, { PayloadType: 'Configuration', PayloadVersion: 1, PayloadDisplayName: 'Venue <Secure> & Co' });
  const [ca, wifi, more] = profile['PayloadContent'] as Record<string, unknown>[];
  t.is(more, undefined, 'no Passpoint payload without Passpoint identifiers');
  t.is(ca?.['PayloadType'], 'com.apple.security.root');
  t.is(new X509Certificate(Buffer.from(String(ca?.['PayloadContent']), 'base64')).fingerprint256, new X509Certificate(input().caPem).fingerprint256);
  t.like(wifi, { PayloadType: 'com.apple.wifi.managed', SSID_STR: 'Venue <Secure> & Co', EncryptionType: 'WPA2', AutoJoin: true });
  t.deepEqual(wifi?.['PayloadCertificateAnchorUUID'], [ca?.['PayloadUUID']]);
  t.deepEqual(wifi?.['EAPClientConfiguration'], EAP);
});

test("the Apple profile with Passpoint identifiers, read by npm's plist, has every key Apple's reference requires and a Hotspot 2.0 payload", (t) => {
  const profile = parsePlist(appleMobileconfig(input({ passpoint }))) as Record<string, unknown>;
  t.deepEqual(appleProfileProblems(profile), []);
  const [ca, wifi, hotspot] = profile['PayloadContent'] as Record<string, unknown>[];
  t.is(new Set([profile, ca, wifi, hotspot].map((p) => p?.['PayloadUUID'])).size, 4);
  t.like(wifi, { SSID_STR: 'Venue <Secure> & Co' });
  t.like(hotspot, {
    PayloadType: 'com.apple.wifi.managed',
    IsHotspot: true,
    DomainName: 'wifi.example.net',
    DisplayedOperatorName: 'Venue & Co',
    ServiceProviderRoamingEnabled: true,
  });
  t.deepEqual(hotspot?.['RoamingConsortiumOIs'], ['F4F5E8F5F4', 'F4F5E8']);
  t.deepEqual(hotspot?.['NAIRealmNames'], ['wifi.example.net']);
  t.deepEqual(hotspot?.['PayloadCertificateAnchorUUID'], [ca?.['PayloadUUID']]);
  t.deepEqual(hotspot?.['EAPClientConfiguration'], EAP);
});

test("Android's x-wifi-config is base64 of a multipart message: a PPS-MO whose nodes follow the PerProviderSubscription DDF, and the CA", (t) => {
  const read = readAndroidWifiConfig(androidWifiConfig({ ...input(), passpoint }));
  t.deepEqual(read.problems, []);
  t.is(new X509Certificate(read.caCert!).fingerprint256, new X509Certificate(input().caPem).fingerprint256);
  t.deepEqual(read.homeSp, { FriendlyName: 'Venue & Co', FQDN: 'wifi.example.net', RoamingConsortiumOI: 'F4F5E8F5F4,F4F5E8' });
  t.deepEqual(read.credential, {
    Realm: 'wifi.example.net',
    Username: input().username,
    Password: input().password,
    EAPType: '21',
    InnerMethod: 'PAP',
  });
});

test('the PPS-MO escapes what XML would read as markup: a friendly name with < and & comes back as it was', (t) => {
  const read = readAndroidWifiConfig(androidWifiConfig({ ...input(), passpoint: { ...passpoint, friendlyName: '<Café> & "Bar"' } }));
  t.deepEqual(read.problems, []);
  t.is(read.homeSp?.['FriendlyName'], '<Café> & "Bar"');
});

test('the wpa_supplicant profile names TTLS/PAP, the anonymous outer identity, the CA as a blob of the file and the server name; a value it cannot quote is refused', (t) => {
  const text = wpaSupplicantConfig(input({ ssid: 'Venue' }));
  t.regex(text, /^\teap=TTLS$/m);
  t.regex(text, /^\tphase2="auth=PAP"$/m);
  t.regex(text, /^\tanonymous_identity="anonymous@wifi\.example\.net"$/m);
  t.regex(text, /^\tca_cert="blob:\/\/radius-ca"$/m);
  const blob = /^blob-base64-radius-ca=\{\n([A-Za-z0-9+/=\n]+)\n\}$/m.exec(text)?.[1];
  t.is(new X509Certificate(Buffer.from(blob?.replace(/\n/g, '') ?? '', 'base64')).fingerprint256, new X509Certificate(input().caPem).fingerprint256);
  t.regex(text, /^\tdomain_match="radius\.wifi\.example\.net"$/m);
  t.throws(() => wpaSupplicantConfig(input({ ssid: 'a"b' })));
});

test("the Windows WLAN profile parses with xml.etree and follows the WLAN_profile, OneX, EapHostConfig and EAP-TTLS schemas: WPA2-Enterprise, TTLS (21, author 311) with PAP, the server name and the CA's thumbprint", (t) => {
  const text = windowsWlanProfile(input());
  const root = parseWithElementTree(text);
  t.deepEqual(windowsProfileProblems(root), []);
  const ns = WINDOWS_NAMESPACES;
  const value = (n: string, local: string) => findElement(root, `{${n}}${local}`)?.text;
  t.is(value(ns.wlan, 'name'), 'Venue <Secure> & Co');
  t.is(Buffer.from(value(ns.wlan, 'hex') ?? '', 'hex').toString('utf8'), 'Venue <Secure> & Co', 'the SSID hex is the name in UTF-8');
  t.is(value(ns.wlan, 'authentication'), 'WPA2');
  t.is(value(ns.wlan, 'encryption'), 'AES');
  t.is(value(ns.wlan, 'useOneX'), 'true');
  t.is(value(ns.oneX, 'authMode'), 'user');
  t.deepEqual(
    ['Type', 'VendorId', 'VendorType', 'AuthorId'].map((local) => value(ns.eapCommon, local)),
    ['21', '0', '0', '311'],
  );
  t.not(findElement(root, `{${ns.ttls}}PAPAuthentication`), undefined);
  t.is(value(ns.ttls, 'ServerNames'), 'radius.wifi.example.net');
  const sha1 = new X509Certificate(input().caPem).fingerprint.replace(/:/g, '');
  t.is(value(ns.ttls, 'TrustedRootCAHash'), sha1);
  t.is(value(ns.ttls, 'IdentityPrivacy'), 'true');
  t.is(value(ns.ttls, 'AnonymousIdentity'), 'anonymous@wifi.example.net');
  // The credential is in the processing instruction before the root (Windows asks for it once), nowhere in the profile's elements.
  t.regex(text, /<\?wifi-credential username="0123456789abcdef0123456789abcdef@wifi\.example\.net" password="p4ss-word_canary"\?>/);
  t.false(JSON.stringify(root).includes('p4ss-word_canary'));
});

test('the structural check of the Windows profile finds a child out of order, an unknown element and a wrong value', (t) => {
  const good = windowsWlanProfile(input({ ssid: 'Venue' }));
  const swapped = good.replace(/(<authentication>WPA2<\/authentication>)(\s*)(<encryption>AES<\/encryption>)/, '$3$2$1');
  t.notDeepEqual(windowsProfileProblems(parseWithElementTree(swapped)), []);
  t.notDeepEqual(windowsProfileProblems(parseWithElementTree(good.replace('<PAPAuthentication/>', '<PAP/>'))), []);
  t.notDeepEqual(windowsProfileProblems(parseWithElementTree(good.replace('<authMode>user</authMode>', '<authMode>person</authMode>'))), []);
  t.throws(() => windowsWlanProfile(input({ password: 'a?>b' })));
});
