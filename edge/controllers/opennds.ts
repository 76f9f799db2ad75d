/**
 * openNDS 9.10 as a captive-portal controller: what it sends a Forwarding
 * Authentication Service (FAS), read from its source (src/http_microhttpd.c, fas_secure_enabled
 * levels 1-3) and checked against the live daemon (test/opennds/). Pure: no Node APIs; the
 * AES and SHA-256 steps are in edge/opennds-crypto.ts.
 */
import { z } from 'zod';
import type { ControllerProfile } from './types.js';

/** The parameters a FAS query carries: `fas` (level 1: base64; levels 2/3: AES) and `iv` (levels 2/3). */
export const FAS_QUERY_PARAMETERS = { fas: 'fas', iv: 'iv' } as const;

/**
 * The decoded query is `name=value` items joined by ", " (QUERYSEPARATOR), in this order, then
 * the custom parameters and variables; values openNDS URL-encodes (names, URLs) stay encoded on
 * the wire and are decoded here. Absent optional values arrive as the text "(null)".
 */
export const FAS_FIELD_NAMES = [
  'hid',
  'clientip',
  'clientmac',
  'client_type',
  'gatewayname',
  'gatewayurl',
  'version',
  'gatewayaddress',
  'gatewaymac',
  'authdir',
  'originurl',
  'clientif',
  'themespec',
] as const;

export type FasFieldName = (typeof FAS_FIELD_NAMES)[number];

/** A FAS arrival's fields. `clientmac` is a MAC address: turn it into a deviceRef, never log or keep it. */
export interface OpenndsFasQuery {
  hid: string;
  clientip: string;
  clientmac: string;
  gatewayname: string;
  /** `<gateway LAN address>:<gatewayport>`: where the client reaches openNDS (authdir, status). */
  gatewayaddress: string;
  originurl?: string;
  clientif?: string;
  client_type?: string;
  gatewayurl?: string;
  version?: string;
  gatewaymac?: string;
  authdir?: string;
  themespec?: string;
  /** Items after the known ones: the operator's custom parameters and variables, decoded. */
  custom: Record<string, string>;
}

const HID = /^[0-9a-f]{64}$/;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$/;
const KNOWN = new Set<string>(FAS_FIELD_NAMES);

function decoded(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

// openNDS URL-encodes every value that could hold other characters, so the text is printable
// ASCII; CBC has no integrity check, and a changed ciphertext block decrypts to random bytes
// that this refuses (all 16 printable by chance: about 1 in 10^7).
const PRINTABLE = /^[\x20-\x7e]*$/;

/**
 * Parses the decoded or decrypted query text into its fields; undefined when it is not an
 * openNDS query (not printable ASCII, no 64-hex `hid`, no IPv4 `clientip`, no `gatewayname` or
 * `gatewayaddress`, a value that does not URL-decode, a field given twice).
 */
export function parseFasFields(text: string): OpenndsFasQuery | undefined {
  if (!PRINTABLE.test(text)) return undefined;
  const known = new Map<string, string>();
  const custom: Record<string, string> = {};
  for (const item of text.split(', ')) {
    const at = item.indexOf('=');
    if (at <= 0) continue; // openNDS ends the list with "(null)" placeholders of unset custom lists
    const name = item.slice(0, at);
    const value = decoded(item.slice(at + 1));
    if (value === undefined) return undefined;
    if (KNOWN.has(name)) {
      if (known.has(name)) return undefined;
      if (value !== '(null)') known.set(name, value);
    } else if (!(name in custom)) {
      custom[name] = value;
    } else {
      return undefined;
    }
  }
  const hid = known.get('hid');
  const clientip = known.get('clientip');
  const clientmac = known.get('clientmac');
  const gatewayname = known.get('gatewayname');
  const gatewayaddress = known.get('gatewayaddress');
  if (hid === undefined || !HID.test(hid) || clientip === undefined || !IPV4.test(clientip)) return undefined;
  if (clientmac === undefined || gatewayname === undefined || gatewayname === '' || gatewayaddress === undefined) return undefined;
  const optional = (name: FasFieldName) => known.get(name);
  const query: OpenndsFasQuery = { hid, clientip, clientmac, gatewayname, gatewayaddress, custom };
  for (const name of ['originurl', 'clientif', 'client_type', 'gatewayurl', 'version', 'gatewaymac', 'authdir', 'themespec'] as const) {
    const value = optional(name);
    if (value !== undefined) query[name] = value;
  }
  return query;
}

/**
 * A `fas` value as a query parser hands it over: base64 carries '+', which openNDS does not
 * percent-encode in its redirect, so form decoding (URLSearchParams) turns it into a space.
 * Base64 has no spaces; putting '+' back is lossless. Undefined when it is not base64.
 */
export function fasBase64(value: string): string | undefined {
  const restored = value.replace(/ /g, '+');
  return /^[A-Za-z0-9+/]+={0,2}$/.test(restored) && restored.length % 4 === 0 ? restored : undefined;
}

/** Level 1 (and the built-in login option): `fas` is the query text in plain base64. */
export function parseLevel1Fas(fas: string): OpenndsFasQuery | undefined {
  const base64 = fasBase64(fas);
  if (base64 === undefined) return undefined;
  let text: string;
  try {
    text = atob(base64);
  } catch {
    return undefined;
  }
  return parseFasFields(text);
}

/** Levels 2/3: the `iv` openNDS sends is 16 lower-case hex digits, used as the 16 IV bytes as they are. */
export function isFasIv(value: string): boolean {
  return /^[0-9a-f]{16}$/.test(value);
}

/**
 * Where the client goes after a level 1/2 FAS verified it: openNDS's authdir with the return
 * hash (`tok` = rhid) and the page to land on. Level 3 authorises through authmon instead.
 */
export function authUrl(query: Pick<OpenndsFasQuery, 'gatewayaddress' | 'authdir'>, rhid: string, redirect: string): string {
  const authdir = query.authdir ?? 'opennds_auth';
  return `http://${query.gatewayaddress}/${authdir}/?tok=${encodeURIComponent(rhid)}&redir=${encodeURIComponent(redirect)}`;
}

/**
 * openNDS as a registry profile. It speaks no RADIUS: a device arrives at the portal's
 * `/opennds/<nasId>` (the router's `faspath`) with the encrypted query, which only the service
 * holding that gateway's `faskey` can read (services/portal/opennds-arrival.ts), so the generic
 * `/gateway` arrival refuses an openNDS query as unreadable. The sign-in is handed to the
 * gateway by authmon's poll, not by the browser: no login fields, no reply attributes, no
 * Disconnect-Request (revocation goes through router/revocation-poll.sh).
 */
export const opennds: ControllerProfile = {
  id: 'opennds',
  name: 'openNDS 9.10 (FAS level 3; levels 1/2 are weaker, see README)',
  sources: ['opennds src/http_microhttpd.c (fas_secure_enabled)', 'opennds forward_authentication_service/libs/authmon.sh', 'opennds docs/source/fas.rst'],
  arrival: {
    recognises: (query) => FAS_QUERY_PARAMETERS.fas in query,
    schema: z.object({ fas: z.string(), iv: z.string().optional() }),
    read: () => ({ ok: false, problems: ['fas'] }),
    integrity: 'none',
  },
  grant: 'queued',
  login: { method: 'GET', chap: 'none', fields: () => ({}) },
  replyAttributes: () => ({}),
  // openNDS takes its quota from the authmon list (upload and download quotas), not from RADIUS.
  volume: null,
  disconnect: [],
  coa: false,
};
