// The Wi-Fi profiles a device installs to join a venue's WPA2/3-Enterprise network with its
// 802.1X device credential (EAP-TTLS, inner PAP; decision 0096): the server certificate's CA and
// name travel in the profile, so the device trusts only the platform's RADIUS.
import { createHash, X509Certificate } from 'node:crypto';

export interface DeviceProfileInput {
  ssid: string;
  username: string;
  password: string;
  anonymousIdentity: string;
  /** PEM of the CA that signed the RADIUS server certificate. */
  caPem: string;
  /** The name the server certificate must carry (its DNS subjectAltName). */
  serverName: string;
  /** Shown in the device's settings. */
  displayName?: string;
}

/** A string as wpa_supplicant reads one in double quotes: it has no escapes, so a quote or a line break is refused. */
function wpaString(value: string): string {
  if (/["\r\n\\]/.test(value)) throw new Error('a wpa_supplicant string cannot hold a quote, a backslash or a line break');
  return `"${value}"`;
}

/**
 * A wpa_supplicant network block (Linux, and what NetworkManager imports), the CA by file path:
 * wpa_supplicant reads certificates from files (or a blob its control interface loads).
 */
export function wpaSupplicantProfile(input: DeviceProfileInput, caFile: string): string {
  return [
    'network={',
    `\tssid=${wpaString(input.ssid)}`,
    '\tkey_mgmt=WPA-EAP WPA-EAP-SHA256',
    '\tieee80211w=1',
    '\teap=TTLS',
    `\tidentity=${wpaString(input.username)}`,
    `\tanonymous_identity=${wpaString(input.anonymousIdentity)}`,
    `\tpassword=${wpaString(input.password)}`,
    '\tphase2="auth=PAP"',
    `\tca_cert=${wpaString(caFile)}`,
    `\tdomain_match=${wpaString(input.serverName)}`,
    '}',
    '',
  ].join('\n');
}

const xml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A UUID derived from the inputs, so the same credential's profile replaces itself on a device. */
function uuidOf(...parts: string[]): string {
  const hex = createHash('sha256').update(parts.join('\n')).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`.toUpperCase();
}

/**
 * An Apple configuration profile (.mobileconfig, iOS/iPadOS/macOS): a root certificate payload
 * (com.apple.security.root) with the CA and a Wi-Fi payload (com.apple.wifi.managed) with
 * EAP-TTLS (type 21) and inner PAP, trusting only that CA and the server name. Unsigned: the
 * device says "Unverified" on install; signing it with a public code-signing certificate is the
 * operator's.
 */
export function appleMobileconfig(input: DeviceProfileInput): string {
  const ca = new X509Certificate(input.caPem);
  const caUuid = uuidOf('ca', ca.fingerprint256);
  const wifiUuid = uuidOf('wifi', input.ssid, input.username);
  const profileUuid = uuidOf('profile', input.ssid, input.username);
  const name = xml(input.displayName ?? input.ssid);
  const string = (key: string, value: string) => `\t\t\t<key>${key}</key>\n\t\t\t<string>${xml(value)}</string>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
\t<key>PayloadContent</key>
\t<array>
\t\t<dict>
\t\t\t<key>PayloadContent</key>
\t\t\t<data>${ca.raw.toString('base64')}</data>
${string('PayloadType', 'com.apple.security.root')}
${string('PayloadIdentifier', `net.wifi-platform.ca.${caUuid}`)}
${string('PayloadUUID', caUuid)}
\t\t\t<key>PayloadVersion</key>
\t\t\t<integer>1</integer>
${string('PayloadDisplayName', 'RADIUS CA')}
\t\t</dict>
\t\t<dict>
${string('PayloadType', 'com.apple.wifi.managed')}
${string('PayloadIdentifier', `net.wifi-platform.wifi.${wifiUuid}`)}
${string('PayloadUUID', wifiUuid)}
\t\t\t<key>PayloadVersion</key>
\t\t\t<integer>1</integer>
${string('SSID_STR', input.ssid)}
${string('EncryptionType', 'WPA2')}
\t\t\t<key>AutoJoin</key>
\t\t\t<true/>
\t\t\t<key>PayloadCertificateAnchorUUID</key>
\t\t\t<array>
\t\t\t\t<string>${caUuid}</string>
\t\t\t</array>
\t\t\t<key>EAPClientConfiguration</key>
\t\t\t<dict>
\t\t\t\t<key>AcceptEAPTypes</key>
\t\t\t\t<array>
\t\t\t\t\t<integer>21</integer>
\t\t\t\t</array>
\t\t\t\t<key>TTLSInnerAuthentication</key>
\t\t\t\t<string>PAP</string>
\t\t\t\t<key>UserName</key>
\t\t\t\t<string>${xml(input.username)}</string>
\t\t\t\t<key>UserPassword</key>
\t\t\t\t<string>${xml(input.password)}</string>
\t\t\t\t<key>OuterIdentity</key>
\t\t\t\t<string>${xml(input.anonymousIdentity)}</string>
\t\t\t\t<key>TLSTrustedServerNames</key>
\t\t\t\t<array>
\t\t\t\t\t<string>${xml(input.serverName)}</string>
\t\t\t\t</array>
\t\t\t\t<key>TLSMinimumVersion</key>
\t\t\t\t<string>1.2</string>
\t\t\t</dict>
\t\t</dict>
\t</array>
\t<key>PayloadDisplayName</key>
\t<string>${name}</string>
\t<key>PayloadIdentifier</key>
\t<string>net.wifi-platform.profile.${profileUuid}</string>
\t<key>PayloadType</key>
\t<string>Configuration</string>
\t<key>PayloadUUID</key>
\t<string>${profileUuid}</string>
\t<key>PayloadVersion</key>
\t<integer>1</integer>
</dict>
</plist>
`;
}
