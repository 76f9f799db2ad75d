/**
 * openNDS 9.10's level 3 exchange with a FAS, as its scripts speak it (authmon.sh and
 * post-request.php poll the FAS; binauth_log.sh reports ends): form fields `auth_get`,
 * `gatewayhash` (sha256 of `gatewayname`) and `payload` (base64). Pure: no Node APIs.
 */

export const AUTHMON_ACTIONS = ['clear', 'view', 'list', 'deauthed', 'custom'] as const;
export type AuthmonAction = (typeof AUTHMON_ACTIONS)[number];

/** One client the FAS tells authmon to authorise; 0 means openNDS's default (session) or no limit. */
export interface AuthmonGrant {
  rhid: string;
  sessionMinutes: number;
  uploadKbitPerSecond: number;
  downloadKbitPerSecond: number;
  uploadQuotaKB: number;
  downloadQuotaKB: number;
  /** Handed to BinAuth; base64, so it holds no space or comma (authmon splits on both). */
  custom: string;
}

const RHID = /^[0-9a-f]{64}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function entry(grant: AuthmonGrant): string {
  const limits = [grant.sessionMinutes, grant.uploadKbitPerSecond, grant.downloadKbitPerSecond, grant.uploadQuotaKB, grant.downloadQuotaKB];
  if (!RHID.test(grant.rhid) || limits.some((n) => !Number.isSafeInteger(n) || n < 0))
    throw new Error('authmon grant: rhid must be 64 hex digits, limits whole numbers >= 0');
  if (grant.custom === '' || grant.custom.length > 255 || !BASE64.test(grant.custom)) throw new Error('authmon grant: custom must be 1-255 base64 characters');
  // authmon turns each %XX back with printf and splits the result into ndsctl's arguments.
  return encodeURIComponent([grant.rhid, ...limits, grant.custom].join(' '));
}

/** The answer to `auth_get=view` with payload `none`: "*", then each grant percent-encoded. */
export function authList(grants: readonly AuthmonGrant[]): string {
  return ['*', ...grants.map(entry)].join(' ');
}

/**
 * The rhids authmon acknowledges with `auth_get=view` and payload "* rhid rhid ...": authorised
 * at the gateway, to drop from the FAS's list. Undefined for any other payload.
 */
export function ackedRhids(payload: string): string[] | undefined {
  const words = payload.trim().split(/\s+/);
  if (words[0] !== '*') return undefined;
  const rhids = words.slice(1);
  return rhids.every((rhid) => RHID.test(rhid)) ? rhids : undefined;
}

/** Why openNDS ended a session (BinAuth methods, docs/source/binauth.rst). */
export const DEAUTH_METHODS = [
  'client_deauth',
  'idle_deauth',
  'timeout_deauth',
  'downquota_deauth',
  'upquota_deauth',
  'ndsctl_deauth',
  'shutdown_deauth',
] as const;
export type DeauthMethod = (typeof DEAUTH_METHODS)[number];

const isDeauthMethod = (value: string | undefined): value is DeauthMethod => DEAUTH_METHODS.some((known) => known === value);

/** An `auth_get=deauthed` notice without the client's MAC, which is dropped here. */
export interface DeauthNotice {
  method: DeauthMethod;
  /** sha256(token) is the `hid` the FAS saw on arrival: how it finds its session. */
  token: string;
  bytesIncoming: number;
  bytesOutgoing: number;
  sessionStart: number;
  sessionEnd: number;
}

/** Parses binauth_log.sh's "method=..., clientmac=..., bytes_incoming=..., ..." payload; undefined when malformed. */
export function parseDeauthNotice(payload: string): DeauthNotice | undefined {
  const fields = new Map<string, string>();
  for (const item of payload.split(', ')) {
    const at = item.indexOf('=');
    if (at > 0) fields.set(item.slice(0, at), item.slice(at + 1));
  }
  const method = fields.get('method');
  const token = fields.get('token');
  const numbers = ['bytes_incoming', 'bytes_outgoing', 'session_start', 'session_end'].map((name) => Number(fields.get(name) ?? 'x'));
  if (!isDeauthMethod(method) || token === undefined || !/^[0-9a-f]{8}$/.test(token)) return undefined;
  const [bytesIncoming, bytesOutgoing, sessionStart, sessionEnd] = numbers;
  if (
    numbers.some((n) => !Number.isSafeInteger(n) || n < 0) ||
    bytesIncoming === undefined ||
    bytesOutgoing === undefined ||
    sessionStart === undefined ||
    sessionEnd === undefined
  )
    return undefined;
  return { method, token, bytesIncoming, bytesOutgoing, sessionStart, sessionEnd };
}

/**
 * What the signing post-request.php (edge/router/post-request.php, installed over
 * openNDS's own) adds to every request a router sends its FAS, so a guest behind the router (who
 * reaches the FAS from the router's address and can compute `gatewayhash`) cannot speak for it:
 * `ts` (Unix seconds), `nonce` (32 hex digits) and `sig`, HMAC-SHA256 keyed by the faskey over
 * this text, in hex: every field it sends, the payload base64 as sent.
 */
export function authmonSignedText(request: { ts: string; nonce: string; auth_get: string; gatewayhash: string; payload: string }): string {
  return ['opennds-fas-v1', request.ts, request.nonce, request.auth_get, request.gatewayhash, request.payload].join('\n');
}

/**
 * The revocation channel of edge/router/revocation-poll.sh (ours, not openNDS's: it
 * has no remote deauthentication), over `auth_get=custom`: the payload "revocations" is answered
 * with "*" and the rhids to end; "revoked <rhid> ..." reports the ended ones.
 */
export const REVOCATIONS_REQUEST = 'revocations';

/**
 * The answer to "revocations": "*", the word "usage" when the FAS wants the running counters
 * now (a script that does not know the word skips it: it is no rhid), then the rhids to end.
 */
export function revocationList(rhids: readonly string[], askUsage = false): string {
  if (!rhids.every((rhid) => RHID.test(rhid))) throw new Error('revocation list: rhids are 64 hex digits');
  return ['*', ...(askUsage ? [USAGE_REQUEST] : []), ...rhids].join(' ');
}

/** The rhids a "revoked ..." report names; undefined for any other payload. */
export function revokedRhids(payload: string): string[] | undefined {
  const words = payload.trim().split(/\s+/);
  if (words[0] !== 'revoked') return undefined;
  const rhids = words.slice(1);
  return rhids.length > 0 && rhids.every((rhid) => RHID.test(rhid)) ? rhids : undefined;
}

/**
 * revocation-poll.sh's running counters (ours, over the same `auth_get=custom` channel): when the
 * FAS's revocation list carries the word "usage", the script reads `ndsctl json` and reports each
 * authenticated client as "usage <token> <download kB> <upload kB> ...", in batches of at most
 * USAGE_REPORT_MAX clients. openNDS 9.10 prints these counters in KiB (bytes / 1024, floor) and
 * names a client by its token, whose sha256 is the hid the FAS saw; no MAC or address is sent.
 */
export const USAGE_REQUEST = 'usage';
export const USAGE_REPORT_MAX = 500;
/** More than this in one session (1 TiB in KiB) is no counter openNDS could have: the report is refused. */
export const USAGE_KB_MAX = 2 ** 30;

export interface RunningUsage {
  token: string;
  downloadKB: number;
  uploadKB: number;
}

/**
 * The clients a "usage" report names; undefined for any other payload, and for a report with
 * anything malformed (a token that is not 8 hex digits, a counter that is not a whole number of
 * 0..USAGE_KB_MAX, a client named twice, more than USAGE_REPORT_MAX clients): refused whole.
 */
export function parseUsageReport(payload: string): RunningUsage[] | undefined {
  const words = payload.trim().split(/\s+/);
  if (words[0] !== USAGE_REQUEST) return undefined;
  const fields = words.slice(1);
  if (fields.length === 0 || fields.length % 3 !== 0 || fields.length / 3 > USAGE_REPORT_MAX) return undefined;
  const clients: RunningUsage[] = [];
  const seen = new Set<string>();
  for (let at = 0; at < fields.length; at += 3) {
    const [token = '', down = '', up = ''] = fields.slice(at, at + 3);
    if (!/^[0-9a-f]{8}$/.test(token) || seen.has(token) || !/^[0-9]{1,10}$/.test(down) || !/^[0-9]{1,10}$/.test(up)) return undefined;
    const [downloadKB, uploadKB] = [Number(down), Number(up)];
    if (downloadKB > USAGE_KB_MAX || uploadKB > USAGE_KB_MAX) return undefined;
    seen.add(token);
    clients.push({ token, downloadKB, uploadKB });
  }
  return clients;
}
