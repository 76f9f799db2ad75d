// The Wi-Fi profiles a device installs to join a venue's WPA2/3-Enterprise network, and its
// Passpoint (Hotspot 2.0) identifiers, with its 802.1X device credential (EAP-TTLS, inner PAP;
// decision 0096): the server certificate's CA and name travel in the profile, so the device trusts
// only the platform's RADIUS.
import { createHash, randomBytes, X509Certificate } from 'node:crypto';
import { build as buildPlist } from 'plist';

/** The Passpoint identifiers a venue's access points advertise over ANQP (gateway registry). */
export interface PasspointIdentifiers {
  homeDomain: string;
  roamingConsortiumOIs: string[];
  naiRealm: string;
  friendlyName: string;
}

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
  /** With these, the profile also joins every venue advertising them (Passpoint), not only the SSID. */
  passpoint?: PasspointIdentifiers;
}

/** A string as wpa_supplicant reads one in double quotes: it has no escapes, so a quote or a line break is refused. */
function wpaString(value: string): string {
  if (/["\r\n\\]/.test(value)) throw new Error('a wpa_supplicant string cannot hold a quote, a backslash or a line break');
  return `"${value}"`;
}

/** The network block, trusting `caCert` (`blob://<name>` of a blob in the same file). */
function wpaNetwork(input: DeviceProfileInput, caCert: string): string[] {
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
    `\tca_cert=${wpaString(caCert)}`,
    `\tdomain_match=${wpaString(input.serverName)}`,
    '}',
  ];
}

/**
 * A whole wpa_supplicant configuration to download (Linux, and what NetworkManager imports): the
 * network block and the CA as a blob of the same file (`blob-base64-<name>`, DER), so one file is
 * all a device needs; wpa_supplicant reads certificates from files or blobs only.
 */
export function wpaSupplicantConfig(input: DeviceProfileInput): string {
  const der = new X509Certificate(input.caPem).raw.toString('base64');
  return [
    '# Wi-Fi profile: EAP-TTLS with inner PAP; the RADIUS server is trusted only with this CA and name.',
    'blob-base64-radius-ca={',
    ...(der.match(/.{1,64}/g) ?? []),
    '}',
    ...wpaNetwork(input, 'blob://radius-ca'),
    '',
  ].join('\n');
}

/** A UUID derived from the inputs, so the same credential's profile replaces itself on a device. */
function uuidOf(...parts: string[]): string {
  const hex = createHash('sha256').update(parts.join('\n')).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`.toUpperCase();
}

/**
 * An Apple configuration profile (.mobileconfig, iOS/iPadOS/macOS): a root certificate payload
 * (com.apple.security.root) with the CA and a Wi-Fi payload (com.apple.wifi.managed) for the SSID
 * with EAP-TTLS (type 21) and inner PAP, trusting only that CA and the server name; with Passpoint
 * identifiers, a second Wi-Fi payload (IsHotspot) with the same credential joins every venue that
 * advertises them. Unsigned: the device says "Unverified" on install; signing it with a public
 * code-signing certificate is the operator's.
 */
export function appleMobileconfig(input: DeviceProfileInput): string {
  const ca = new X509Certificate(input.caPem);
  const caUuid = uuidOf('ca', ca.fingerprint256);
  const profileUuid = uuidOf('profile', input.ssid, input.username);
  const eap = {
    AcceptEAPTypes: [21],
    TTLSInnerAuthentication: 'PAP',
    UserName: input.username,
    UserPassword: input.password,
    OuterIdentity: input.anonymousIdentity,
    TLSTrustedServerNames: [input.serverName],
    TLSMinimumVersion: '1.2',
  };
  const wifi = (kind: string, fields: Record<string, unknown>) => {
    const uuid = uuidOf(kind, input.ssid, input.username);
    return {
      PayloadType: 'com.apple.wifi.managed',
      PayloadIdentifier: `net.wifi-platform.${kind}.${uuid}`,
      PayloadUUID: uuid,
      PayloadVersion: 1,
      EncryptionType: 'WPA2',
      AutoJoin: true,
      PayloadCertificateAnchorUUID: [caUuid],
      EAPClientConfiguration: eap,
      ...fields,
    };
  };
  const passpoint = input.passpoint;
  return buildPlist({
    PayloadContent: [
      {
        PayloadContent: ca.raw,
        PayloadType: 'com.apple.security.root',
        PayloadIdentifier: `net.wifi-platform.ca.${caUuid}`,
        PayloadUUID: caUuid,
        PayloadVersion: 1,
        PayloadDisplayName: 'RADIUS CA',
      },
      wifi('wifi', { SSID_STR: input.ssid }),
      ...(passpoint === undefined
        ? []
        : [
            wifi('passpoint', {
              IsHotspot: true,
              DomainName: passpoint.homeDomain,
              DisplayedOperatorName: passpoint.friendlyName,
              NAIRealmNames: [passpoint.naiRealm],
              ServiceProviderRoamingEnabled: passpoint.roamingConsortiumOIs.length > 0,
              ...(passpoint.roamingConsortiumOIs.length > 0 ? { RoamingConsortiumOIs: passpoint.roamingConsortiumOIs } : {}),
            }),
          ]),
    ],
    PayloadDisplayName: input.displayName ?? input.ssid,
    PayloadIdentifier: `net.wifi-platform.profile.${profileUuid}`,
    PayloadType: 'Configuration',
    PayloadUUID: profileUuid,
    PayloadVersion: 1,
  });
}

const xml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** One node of the OMA-DM tree: a leaf with its value, or an interior node with its children. */
function node(name: string, content: string | string[], indent: string): string {
  const inner = typeof content === 'string' ? `${indent}  <Value>${xml(content)}</Value>` : content.map((child) => child.replace(/^/gm, '  ')).join('\n');
  return `${indent}<Node>\n${indent}  <NodeName>${name}</NodeName>\n${inner}\n${indent}</Node>`;
}

/**
 * The Passpoint PerProviderSubscription management object (Wi-Fi Alliance Hotspot 2.0 PPS-MO,
 * OMA-DM DDF `urn:wfa:mo:hotspot2dot0-perprovidersubscription:1.0`) of the credential: HomeSP
 * (friendly name, FQDN, roaming consortium OIs) and Credential (realm, user name, the password
 * in base64 as the DDF wants it, EAP-TTLS with inner PAP).
 */
export function ppsMo(input: DeviceProfileInput & { passpoint: PasspointIdentifiers }): string {
  const { passpoint } = input;
  const homeSp = [
    node('FriendlyName', passpoint.friendlyName, ''),
    node('FQDN', passpoint.homeDomain, ''),
    ...(passpoint.roamingConsortiumOIs.length > 0 ? [node('RoamingConsortiumOI', passpoint.roamingConsortiumOIs.join(','), '')] : []),
  ];
  const credential = [
    node('Realm', passpoint.naiRealm, ''),
    node(
      'UsernamePassword',
      [
        node('Username', input.username, ''),
        node('Password', Buffer.from(input.password).toString('base64'), ''),
        node('EAPMethod', [node('EAPType', '21', ''), node('InnerMethod', 'PAP', '')], ''),
      ],
      '',
    ),
  ];
  const subscription = [
    '<Node>',
    '  <NodeName>PerProviderSubscription</NodeName>',
    '  <RTProperties>',
    '    <Type>',
    '      <DDFName>urn:wfa:mo:hotspot2dot0-perprovidersubscription:1.0</DDFName>',
    '    </Type>',
    '  </RTProperties>',
    node('i001', [node('HomeSP', homeSp, ''), node('Credential', credential, '')], '  '),
    '</Node>',
  ];
  return ['<MgmtTree xmlns="syncml:dmddf1.2">', '  <VerDTD>1.2</VerDTD>', ...subscription.map((line) => `  ${line}`), '</MgmtTree>', ''].join('\n');
}

const base64Lines = (data: Buffer) => (data.toString('base64').match(/.{1,76}/g) ?? []).join('\r\n');

/**
 * Android's Passpoint provisioning file (`application/x-wifi-config`, Android 8.0+): base64 of a
 * MIME multipart/mixed message whose parts are the PPS-MO (`application/x-passpoint-profile`)
 * and the CA certificate (`application/x-x509-ca-cert`), each base64; the browser hands a download
 * of this type to the Wi-Fi settings, which install the subscription.
 */
export function androidWifiConfig(input: DeviceProfileInput & { passpoint: PasspointIdentifiers }): string {
  const boundary = `wifi-platform-${randomBytes(12).toString('hex')}`;
  const part = (type: string, data: Buffer) =>
    [`--${boundary}`, `Content-Type: ${type}`, 'Content-Transfer-Encoding: base64', '', base64Lines(data)].join('\r\n');
  const message = [
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary=${boundary}`,
    'Content-Transfer-Encoding: base64',
    '',
    part('application/x-passpoint-profile', Buffer.from(ppsMo(input))),
    part('application/x-x509-ca-cert', new X509Certificate(input.caPem).raw),
    `--${boundary}--`,
    '',
  ].join('\r\n');
  return base64Lines(Buffer.from(message));
}

/** Namespaces of the Windows WLAN profile and the EAPHost configuration inside it (Microsoft's WLAN_profile, OneX and EapHostConfig schemas). */
export const WINDOWS_NAMESPACES = {
  wlan: 'http://www.microsoft.com/networking/WLAN/profile/v1',
  oneX: 'http://www.microsoft.com/networking/OneX/v1',
  eapHost: 'http://www.microsoft.com/provisioning/EapHostConfig',
  eapCommon: 'http://www.microsoft.com/provisioning/EapCommon',
  ttls: 'http://www.microsoft.com/provisioning/EapTtlsConnectionPropertiesV1',
} as const;

/** A processing instruction's content may hold anything but `?>`; the credential alphabet never has it, a refusal guards the rule. */
function piValue(value: string): string {
  if (/[?>"\r\n]/.test(value)) throw new Error('a profile comment value cannot hold ?, >, a quote or a line break');
  return value;
}

/**
 * A Windows 10/11 WLAN profile (WLANProfile XML, installed with `netsh wlan add profile
 * filename=<file> user=current`): WPA2-Enterprise with AES (a WPA2/WPA3 transition network
 * accepts it), 802.1X in user mode with the built-in EAP-TTLS (type 21, author 311) and inner PAP,
 * the anonymous outer identity, and server validation naming the RADIUS server and the SHA-1
 * thumbprint of the CA (Windows checks the server's chain ends at that root). A WLAN profile has no
 * place for a password (Windows keeps credentials apart and asks for them at the first
 * connection), so the user name and password travel in a processing instruction before the root,
 * which Windows ignores and the person reads in Notepad; the CA itself is not in the file.
 */
export function windowsWlanProfile(input: DeviceProfileInput): string {
  const ns = WINDOWS_NAMESPACES;
  const thumbprint = new X509Certificate(input.caPem).fingerprint.replace(/:/g, '');
  const ssidHex = Buffer.from(input.ssid, 'utf8').toString('hex').toUpperCase();
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<!-- Wi-Fi profile for Windows 10/11: netsh wlan add profile filename="<this file>" user=current. At the first connection Windows asks for the user name and password below (once). -->`,
    `<?wifi-credential username="${piValue(input.username)}" password="${piValue(input.password)}"?>`,
    `<WLANProfile xmlns="${ns.wlan}">`,
    // The profile name is the SSID: what netsh and the network list show, one profile per network.
    `  <name>${xml(input.ssid)}</name>`,
    '  <SSIDConfig>',
    '    <SSID>',
    `      <hex>${ssidHex}</hex>`,
    `      <name>${xml(input.ssid)}</name>`,
    '    </SSID>',
    '  </SSIDConfig>',
    '  <connectionType>ESS</connectionType>',
    '  <connectionMode>auto</connectionMode>',
    '  <MSM>',
    '    <security>',
    '      <authEncryption>',
    '        <authentication>WPA2</authentication>',
    '        <encryption>AES</encryption>',
    '        <useOneX>true</useOneX>',
    '      </authEncryption>',
    `      <OneX xmlns="${ns.oneX}">`,
    '        <cacheUserData>true</cacheUserData>',
    '        <authMode>user</authMode>',
    '        <EAPConfig>',
    `          <EapHostConfig xmlns="${ns.eapHost}">`,
    '            <EapMethod>',
    `              <Type xmlns="${ns.eapCommon}">21</Type>`,
    `              <VendorId xmlns="${ns.eapCommon}">0</VendorId>`,
    `              <VendorType xmlns="${ns.eapCommon}">0</VendorType>`,
    `              <AuthorId xmlns="${ns.eapCommon}">311</AuthorId>`,
    '            </EapMethod>',
    '            <Config>',
    `              <EapTtls xmlns="${ns.ttls}">`,
    '                <ServerValidation>',
    `                  <ServerNames>${xml(input.serverName)}</ServerNames>`,
    `                  <TrustedRootCAHash>${thumbprint}</TrustedRootCAHash>`,
    '                  <DisablePrompt>false</DisablePrompt>',
    '                </ServerValidation>',
    '                <Phase2Authentication>',
    '                  <PAPAuthentication/>',
    '                </Phase2Authentication>',
    '                <Phase1Identity>',
    '                  <IdentityPrivacy>true</IdentityPrivacy>',
    `                  <AnonymousIdentity>${xml(input.anonymousIdentity)}</AnonymousIdentity>`,
    '                </Phase1Identity>',
    '              </EapTtls>',
    '            </Config>',
    '          </EapHostConfig>',
    '        </EAPConfig>',
    '      </OneX>',
    '    </security>',
    '  </MSM>',
    '</WLANProfile>',
    '',
  ].join('\r\n');
}
