import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import test from 'ava';
import { appleMobileconfig, wpaSupplicantProfile, type DeviceProfileInput } from '../../edge/device-profiles.js';
import { ensureEapCertificates } from '../../edge/radius-ca.js';
import { requireTools } from '../helpers/host-tools.js';

// The profiles a device installs carry the credential, EAP-TTLS/PAP, and the CA and server name
// it trusts; the Apple profile is read back by a real plist parser (Python's plistlib) and checked
// against the keys Apple's configuration profile reference requires of each payload.
requireTools(['/usr/bin/python3'], 'Debian python3 (the coova harness uses it too)');

const dir = mkdtempSync(join(tmpdir(), 'wifi-profiles-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));
const certificates = ensureEapCertificates(join(dir, 'ca'), 'radius.wifi.example.net');
const input = (changes: Partial<DeviceProfileInput> = {}): DeviceProfileInput => ({
  ssid: 'Venue <Secure> & Co',
  username: '0123456789abcdef0123456789abcdef@wifi.example.net',
  password: 'p4ss-word_canary',
  anonymousIdentity: 'anonymous@wifi.example.net',
  caPem: readFileSync(certificates.caFile, 'utf8'),
  serverName: 'radius.wifi.example.net',
  ...changes,
});

function plist(text: string): Record<string, unknown> {
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

test('the Apple profile parses as a plist: a root CA payload and a Wi-Fi payload with EAP-TTLS/PAP anchored to it', (t) => {
  const profile = plist(appleMobileconfig(input()));
  t.like(profile, { PayloadType: 'Configuration', PayloadVersion: 1, PayloadDisplayName: 'Venue <Secure> & Co' });
  const [ca, wifi] = profile['PayloadContent'] as Record<string, unknown>[];
  for (const payload of [profile, ca, wifi]) {
    for (const key of ['PayloadType', 'PayloadIdentifier', 'PayloadUUID', 'PayloadVersion']) t.not(payload?.[key], undefined, key);
    t.regex(String(payload?.['PayloadUUID']), /^[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-8[0-9A-F]{3}-[0-9A-F]{12}$/);
  }
  t.is(new Set([profile, ca, wifi].map((p) => p?.['PayloadUUID'])).size, 3);
  t.is(ca?.['PayloadType'], 'com.apple.security.root');
  t.is(new X509Certificate(Buffer.from(String(ca?.['PayloadContent']), 'base64')).fingerprint256, new X509Certificate(input().caPem).fingerprint256);
  t.like(wifi, { PayloadType: 'com.apple.wifi.managed', SSID_STR: 'Venue <Secure> & Co', EncryptionType: 'WPA2', AutoJoin: true });
  t.deepEqual(wifi?.['PayloadCertificateAnchorUUID'], [ca?.['PayloadUUID']]);
  t.deepEqual(wifi?.['EAPClientConfiguration'], {
    AcceptEAPTypes: [21],
    TTLSInnerAuthentication: 'PAP',
    UserName: input().username,
    UserPassword: input().password,
    OuterIdentity: 'anonymous@wifi.example.net',
    TLSTrustedServerNames: ['radius.wifi.example.net'],
    TLSMinimumVersion: '1.2',
  });
});

test('the wpa_supplicant profile names TTLS/PAP, the anonymous outer identity, the CA file and the server name; a value it cannot quote is refused', (t) => {
  const text = wpaSupplicantProfile(input({ ssid: 'Venue' }), certificates.caFile);
  t.regex(text, /^\teap=TTLS$/m);
  t.regex(text, /^\tphase2="auth=PAP"$/m);
  t.regex(text, /^\tanonymous_identity="anonymous@wifi\.example\.net"$/m);
  t.true(text.includes(`\tca_cert="${certificates.caFile}"`));
  t.regex(text, /^\tdomain_match="radius\.wifi\.example\.net"$/m);
  t.throws(() => wpaSupplicantProfile(input({ ssid: 'a"b' }), certificates.caFile));
});
