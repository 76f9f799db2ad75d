import { spawnSync } from 'node:child_process';
import { WINDOWS_NAMESPACES as NS } from '../../edge/device-profiles.js';

/**
 * A structural check of a Windows WLAN profile, written from Microsoft's published WLAN_profile,
 * OneX, EapHostConfig, EapCommon and EapTtlsConnectionPropertiesV1 schemas (their element
 * reference pages): each element's namespace, the order and count of its children, and the type
 * of its text. Only the parts a profile of this platform may hold are listed; anything else is a
 * problem. The file is parsed by Python's xml.etree (a real, namespace-aware XML parser).
 */

export interface XmlElement {
  /** `{namespace}local`, as ElementTree names it. */
  tag: string;
  text: string;
  children: XmlElement[];
}

/** Parses XML with python3's xml.etree.ElementTree; a parse error throws. */
export function parseWithElementTree(text: string): XmlElement {
  const script = [
    'import sys, json, xml.etree.ElementTree as ET',
    'def walk(e): return {"tag": e.tag, "text": (e.text or "").strip(), "children": [walk(c) for c in e]}',
    'print(json.dumps(walk(ET.fromstring(sys.stdin.buffer.read()))))',
  ].join('\n');
  const read = spawnSync('/usr/bin/python3', ['-c', script], { input: text, encoding: 'utf8' });
  if (read.status !== 0) throw new Error(`xml.etree refused the profile: ${read.stderr}`);
  return JSON.parse(read.stdout) as XmlElement;
}

const q = (ns: string, local: string) => `{${ns}}${local}`;
const BOOLEAN = /^(true|false|1|0)$/;
const INT = /^\d+$/;
const HEX_BINARY = /^([0-9A-Fa-f]{2})*$/;
const ANY_TEXT = /^[\s\S]*$/;
const NONE = /^$/;
const oneOf = (...values: string[]) => new RegExp(`^(${values.join('|')})$`);

/** A child slot of a sequence: one of `names` (a choice when several), from `min` to `max` times. */
interface Slot {
  names: string[];
  min: number;
  max: number;
}
interface ElementRule {
  children: Slot[];
  text: RegExp;
}
const slot = (names: string | string[], min = 0, max = 1): Slot => ({ names: Array.isArray(names) ? names : [names], min, max });
const leaf = (text: RegExp): ElementRule => ({ children: [], text });
const W = (local: string) => q(NS.wlan, local);
const X = (local: string) => q(NS.oneX, local);
const H = (local: string) => q(NS.eapHost, local);
const C = (local: string) => q(NS.eapCommon, local);
const T = (local: string) => q(NS.ttls, local);

const RULES: Record<string, ElementRule> = {
  [W('WLANProfile')]: {
    children: [
      slot(W('name'), 1),
      slot(W('SSIDConfig'), 1, 25),
      slot(W('connectionType'), 1),
      slot(W('connectionMode')),
      slot(W('autoSwitch')),
      slot(W('MSM')),
    ],
    text: NONE,
  },
  [W('name')]: leaf(/^.{1,255}$/s),
  [W('SSIDConfig')]: { children: [slot(W('SSID'), 1, 256), slot(W('nonBroadcast'))], text: NONE },
  [W('SSID')]: { children: [slot(W('hex')), slot(W('name'))], text: NONE },
  [W('hex')]: leaf(/^([0-9A-Fa-f]{2}){1,32}$/),
  [W('nonBroadcast')]: leaf(BOOLEAN),
  [W('connectionType')]: leaf(oneOf('ESS', 'IBSS')),
  [W('connectionMode')]: leaf(oneOf('auto', 'manual')),
  [W('autoSwitch')]: leaf(BOOLEAN),
  [W('MSM')]: { children: [slot(W('connectivity')), slot(W('security'))], text: NONE },
  [W('security')]: {
    children: [slot(W('authEncryption'), 1), slot(W('PMKCacheMode')), slot(W('PMKCacheTTL')), slot(W('PMKCacheSize')), slot(W('preAuthMode')), slot(X('OneX'))],
    text: NONE,
  },
  [W('authEncryption')]: { children: [slot(W('authentication'), 1), slot(W('encryption'), 1), slot(W('useOneX'))], text: NONE },
  [W('authentication')]: leaf(oneOf('open', 'shared', 'WPA', 'WPAPSK', 'WPA2', 'WPA2PSK', 'WPA3', 'WPA3SAE', 'WPA3ENT192', 'WPA3ENT', 'OWE')),
  [W('encryption')]: leaf(oneOf('none', 'WEP', 'TKIP', 'AES', 'GCMP', 'GCMP256')),
  [W('useOneX')]: leaf(BOOLEAN),
  [W('PMKCacheMode')]: leaf(oneOf('enabled', 'disabled')),
  [X('OneX')]: {
    children: [
      slot(X('cacheUserData')),
      slot(X('heldPeriod')),
      slot(X('authPeriod')),
      slot(X('startPeriod')),
      slot(X('maxStart')),
      slot(X('maxAuthFailures')),
      slot(X('supplicantMode')),
      slot(X('authMode')),
      slot(X('singleSignOn')),
      slot(X('EAPConfig'), 1),
    ],
    text: NONE,
  },
  [X('cacheUserData')]: leaf(BOOLEAN),
  [X('authMode')]: leaf(oneOf('machineOrUser', 'machine', 'user', 'guest')),
  [X('EAPConfig')]: { children: [slot(H('EapHostConfig'), 1)], text: NONE },
  [H('EapHostConfig')]: { children: [slot(H('EapMethod'), 1), slot([H('Config'), H('ConfigBlob')], 1)], text: NONE },
  [H('EapMethod')]: { children: [slot(C('Type'), 1), slot(C('VendorId')), slot(C('VendorType')), slot(C('AuthorId'))], text: NONE },
  [C('Type')]: leaf(INT),
  [C('VendorId')]: leaf(INT),
  [C('VendorType')]: leaf(INT),
  [C('AuthorId')]: leaf(INT),
  // Config holds the method's own configuration: for EAP-TTLS, EapTtls.
  [H('Config')]: { children: [slot(T('EapTtls'), 1)], text: NONE },
  [T('EapTtls')]: { children: [slot(T('ServerValidation')), slot(T('Phase2Authentication')), slot(T('Phase1Identity'))], text: NONE },
  // The element reference page spells the thumbprint TrustedRootCAHashes; Windows's own exports, and the EAP-TEAP page of the same type, spell it TrustedRootCAHash.
  [T('ServerValidation')]: {
    children: [slot(T('ServerNames')), slot([T('TrustedRootCAHash'), T('TrustedRootCAHashes')], 0, Number.POSITIVE_INFINITY), slot(T('DisablePrompt'))],
    text: NONE,
  },
  [T('ServerNames')]: leaf(ANY_TEXT),
  [T('TrustedRootCAHash')]: leaf(HEX_BINARY),
  [T('TrustedRootCAHashes')]: leaf(HEX_BINARY),
  [T('DisablePrompt')]: leaf(BOOLEAN),
  [T('Phase2Authentication')]: {
    children: [slot([T('PAPAuthentication'), T('CHAPAuthentication'), T('MSCHAPAuthentication'), T('MSCHAPv2Authentication')], 1)],
    text: NONE,
  },
  [T('PAPAuthentication')]: leaf(NONE),
  [T('Phase1Identity')]: { children: [slot(T('IdentityPrivacy')), slot(T('AnonymousIdentity'))], text: NONE },
  [T('IdentityPrivacy')]: leaf(BOOLEAN),
  [T('AnonymousIdentity')]: leaf(ANY_TEXT),
};

/** What an element tree breaks of the schemas' structure: unknown elements, order, counts, text types. */
export function windowsProfileProblems(root: XmlElement): string[] {
  const problems: string[] = [];
  if (root.tag !== W('WLANProfile')) problems.push(`the root is ${root.tag}, not WLANProfile in ${NS.wlan}`);
  const check = (element: XmlElement, path: string) => {
    const rule = RULES[element.tag];
    if (rule === undefined) return problems.push(`${path}: ${element.tag} is not an element of the schemas here`);
    if (!rule.text.test(element.text)) problems.push(`${path}: text ${JSON.stringify(element.text)} does not match ${rule.text}`);
    let index = 0;
    for (const expected of rule.children) {
      let count = 0;
      while (index < element.children.length && count < expected.max && expected.names.includes((element.children[index] as XmlElement).tag)) {
        count += 1;
        index += 1;
      }
      if (count < expected.min) problems.push(`${path}: lacks ${expected.names.join(' or ')}`);
    }
    for (const extra of element.children.slice(index)) problems.push(`${path}: ${extra.tag} is out of order or not allowed here`);
    for (const child of element.children) check(child, `${path}/${child.tag.replace(/^\{[^}]*\}/, '')}`);
    return undefined;
  };
  check(root, 'WLANProfile');
  return problems;
}

/** The first element with this tag, depth first. */
export function findElement(root: XmlElement, tag: string): XmlElement | undefined {
  if (root.tag === tag) return root;
  for (const child of root.children) {
    const found = findElement(child, tag);
    if (found !== undefined) return found;
  }
  return undefined;
}
