import { XMLParser, XMLValidator } from 'fast-xml-parser';

/**
 * Readers of the generated Wi-Fi profiles, as the devices' own parsers read them, shared by the
 * unit tests and the browser test that downloads them from the portal.
 */

/** The keys Apple's configuration profile reference requires of the profile and of each payload kind it holds. */
const REQUIRED: Record<string, readonly string[]> = {
  Configuration: ['PayloadContent', 'PayloadDisplayName', 'PayloadIdentifier', 'PayloadType', 'PayloadUUID', 'PayloadVersion'],
  'com.apple.security.root': ['PayloadContent', 'PayloadIdentifier', 'PayloadType', 'PayloadUUID', 'PayloadVersion'],
  'com.apple.wifi.managed': ['PayloadIdentifier', 'PayloadType', 'PayloadUUID', 'PayloadVersion', 'EncryptionType', 'EAPClientConfiguration'],
};
const UUID = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/;

/** What a parsed .mobileconfig lacks of Apple's reference: required keys, UUIDs, a Wi-Fi payload naming no SSID nor Hotspot 2.0. */
export function appleProfileProblems(profile: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const payloads = Array.isArray(profile['PayloadContent']) ? (profile['PayloadContent'] as Record<string, unknown>[]) : [];
  for (const payload of [profile, ...payloads]) {
    const type = String(payload['PayloadType']);
    const required = REQUIRED[type];
    if (required === undefined) problems.push(`unknown payload type ${type}`);
    for (const key of required ?? []) if (payload[key] === undefined) problems.push(`${type} lacks ${key}`);
    if (!UUID.test(String(payload['PayloadUUID']))) problems.push(`${type}: PayloadUUID is no UUID`);
    if (payload['PayloadVersion'] !== 1) problems.push(`${type}: PayloadVersion is not 1`);
    if (type === 'com.apple.wifi.managed') {
      if (payload['SSID_STR'] === undefined && payload['IsHotspot'] !== true) problems.push('a Wi-Fi payload names no SSID and is no hotspot');
      if (payload['IsHotspot'] === true && payload['DomainName'] === undefined) problems.push('a Hotspot 2.0 payload names no DomainName');
      const eap = payload['EAPClientConfiguration'] as Record<string, unknown> | undefined;
      if (!Array.isArray(eap?.['AcceptEAPTypes'])) problems.push('EAPClientConfiguration lacks AcceptEAPTypes');
      const anchors = payload['PayloadCertificateAnchorUUID'];
      if (
        !Array.isArray(anchors) ||
        !anchors.every((uuid) => payloads.some((p) => p['PayloadUUID'] === uuid && p['PayloadType'] === 'com.apple.security.root'))
      )
        problems.push('the Wi-Fi payload is not anchored to a root certificate payload of the profile');
    }
  }
  return problems;
}

interface DdfNode {
  NodeName: string;
  Value?: string;
  Node?: DdfNode[];
  RTProperties?: { Type?: { DDFName?: string } };
}

const child = (node: DdfNode | undefined, name: string) => node?.Node?.find((n) => n.NodeName === name);
const leaves = (node: DdfNode | undefined): Record<string, string> =>
  Object.fromEntries((node?.Node ?? []).flatMap((n) => (n.Value === undefined ? Object.entries(leaves(n)) : [[n.NodeName, n.Value]])));

export interface AndroidRead {
  problems: string[];
  caCert?: Buffer;
  homeSp?: Record<string, string>;
  credential?: Record<string, string>;
}

/**
 * Android's `application/x-wifi-config` as its ConfigParser reads it: base64 of a MIME
 * multipart/mixed message, each part base64; the PPS-MO parsed by a real XML parser and checked
 * for the nodes Android's Passpoint provisioning requires (HomeSP FriendlyName and FQDN,
 * Credential Realm, UsernamePassword with EAPType 21 and an inner method). The password comes back
 * decoded (the DDF carries it in base64).
 */
export function readAndroidWifiConfig(body: string): AndroidRead {
  const problems: string[] = [];
  const message = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  const [head = '', ...rest] = message.split('\r\n\r\n');
  const boundary = /^Content-Type: multipart\/mixed; boundary=(\S+)$/im.exec(head)?.[1];
  if (boundary === undefined) return { problems: ['no multipart/mixed header with a boundary'] };
  if (!/^Content-Transfer-Encoding: base64$/im.test(head)) problems.push('the message does not say base64');
  const parts = new Map<string, Buffer>();
  for (const part of rest.join('\r\n\r\n').split(`--${boundary}`).slice(1)) {
    if (part.startsWith('--')) break;
    const [partHead = '', partBody = ''] = part.replace(/^\r\n/, '').split('\r\n\r\n');
    const type = /^Content-Type: (\S+)$/im.exec(partHead)?.[1];
    if (!/^Content-Transfer-Encoding: base64$/im.test(partHead)) problems.push(`part ${type} is not base64`);
    if (type !== undefined) parts.set(type, Buffer.from(partBody.replace(/\s+/g, ''), 'base64'));
  }
  const xml = parts.get('application/x-passpoint-profile')?.toString('utf8');
  if (xml === undefined) return { problems: [...problems, 'no application/x-passpoint-profile part'] };
  const valid = XMLValidator.validate(xml);
  if (valid !== true) return { problems: [...problems, `the PPS-MO is not well-formed XML: ${valid.err.msg}`] };
  const tree = new XMLParser({ isArray: (name) => name === 'Node', parseTagValue: false, ignoreAttributes: false }).parse(xml) as {
    MgmtTree?: { '@_xmlns'?: string; VerDTD?: string; Node?: DdfNode[] };
  };
  const root = tree.MgmtTree;
  if (root?.['@_xmlns'] !== 'syncml:dmddf1.2' || root.VerDTD !== '1.2') problems.push('the root is not a SyncML DM DDF 1.2 MgmtTree');
  const pps = root?.Node?.[0];
  if (pps?.NodeName !== 'PerProviderSubscription') problems.push('the first node is not PerProviderSubscription');
  if (pps?.RTProperties?.Type?.DDFName !== 'urn:wfa:mo:hotspot2dot0-perprovidersubscription:1.0') problems.push('the PPS node names no Hotspot 2.0 DDF');
  const instance = pps?.Node?.[0];
  const homeSpNode = child(instance, 'HomeSP');
  const credentialNode = child(instance, 'Credential');
  const homeSp = leaves(homeSpNode);
  const credential = leaves(credentialNode);
  for (const name of ['FriendlyName', 'FQDN']) if (!homeSp[name]) problems.push(`HomeSP lacks ${name}`);
  if (!credential['Realm']) problems.push('Credential lacks Realm');
  const userPassword = child(credentialNode, 'UsernamePassword');
  if (userPassword === undefined || child(userPassword, 'EAPMethod') === undefined) problems.push('Credential lacks UsernamePassword/EAPMethod');
  if (credential['EAPType'] !== '21') problems.push('EAPType is not 21 (TTLS)');
  if (!['PAP', 'CHAP', 'MS-CHAP', 'MS-CHAP-V2'].includes(credential['InnerMethod'] ?? '')) problems.push('InnerMethod is none Android takes');
  if (credential['Password'] !== undefined) credential['Password'] = Buffer.from(credential['Password'], 'base64').toString('utf8');
  const caCert = parts.get('application/x-x509-ca-cert');
  if (caCert === undefined) problems.push('no application/x-x509-ca-cert part');
  return { problems, homeSp, credential, ...(caCert === undefined ? {} : { caCert }) };
}
