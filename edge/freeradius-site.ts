// FreeRADIUS as a part of the platform: a private configuration generated from a copy
// of Debian's /etc/freeradius/3.0 (never edited), run in the foreground, stopped by its pid.
// Two roles: `server` (the platform's RADIUS server, whose rest module asks the gateway service)
// and `nas` (tests only: a gateway's receiving side, answering RFC 5176 Disconnect-Requests).
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUFFERED_USERNAME_HASH } from '../contract/index.js';

export const SYSTEM_CONFIG = '/etc/freeradius/3.0';
export const FREERADIUS = '/usr/sbin/freeradius';

export interface RadiusClient {
  /** FreeRADIUS client name: the gateway's NAS id, handed to the gateway service with each request. */
  name: string;
  address: string;
  secret: string;
}

export interface ServerRole {
  role: 'server';
  authPort: number;
  acctPort: number;
  /** The gateway service, e.g. http://127.0.0.1:3004 */
  restUrl: string;
  restKey: string;
  clients: RadiusClient[];
  /** Seconds the accounting replay waits before sending an entry the gateway service did not take again (default 5). */
  replayRetrySeconds?: number;
  /** 802.1X: EAP-TTLS with inner PAP, with this server certificate (edge/radius-ca.ts makes one); absent: no EAP. */
  eap?: { certificateFile: string; keyFile: string; caFile: string };
}

export interface NasRole {
  role: 'nas';
  coaPort: number;
  /** Who may send Disconnect-Requests (the gateway service) and the NAS's secret. */
  clients: RadiusClient[];
  /** Acct-Session-Ids answered with a Disconnect-NAK (to test NAK handling). */
  nakSessionIds?: string[];
  /** Acct-Session-Ids the NAS has no session for: NAK with Error-Cause 503 Session-Context-Not-Found. */
  goneSessionIds?: string[];
  /**
   * Attributes a Disconnect-Request must carry, as the controller it stands for demands (its
   * profile's list): one missing is a NAK with Error-Cause 402 Missing-Attribute, as a real NAS answers.
   */
  requires?: string[];
}

export interface FreeradiusOptions {
  dir: string;
  listen?: string;
}

const quote = (value: string) => `"${value.replace(/["\\]/g, '\\$&')}"`;

// BlastRADIUS (CVE-2024-3596): every Access-Request must carry a Message-Authenticator, or it is
// dropped. (`limit_proxy_state`, the softer setting for NASes that cannot send one, exists only
// from FreeRADIUS 3.2.5; Debian bookworm's 3.2.1+deb12u1 has `require_message_authenticator`.)
function clientsConf(clients: RadiusClient[]): string {
  return clients
    .map(
      (c) =>
        `client ${c.name} {\n\tipaddr = ${c.address}\n\tsecret = ${quote(c.secret)}\n\tshortname = ${c.name}\n\tnas_type = other\n\trequire_message_authenticator = yes\n}\n`,
    )
    .join('\n');
}

/** Where accounting waits for the gateway service: under the run folder, kept across restarts. */
export const accountingBuffer = (dir: string): string => join(dir, 'run', 'accounting');

/**
 * The NAS an accounting packet came from, stamped by the live accounting section into the buffer
 * entry (the replay's client is the detail reader, not the NAS). A local attribute (3000-3999):
 * it never travels in a RADIUS packet, so a NAS cannot set it; NAS-Identifier, which a NAS
 * can, is not used for this.
 */
const NAS_ATTRIBUTE = 'Wifi-NAS-Client';

/**
 * How long the live accounting section waits for the gateway service before it buffers the
 * packet instead (seconds). Its answer normally takes milliseconds; a NAS resends an unanswered
 * Accounting-Request after a few seconds, so the NAS must have its answer well before that.
 */
export const DIRECT_ACCOUNTING_TIMEOUT_SECONDS = 1;

// Two instances of the rest module: `rest` (Access-Requests, and the replay of the buffer, which
// may wait 3 s) and `rest_direct` (live accounting, which buffers rather than wait).
function restModule(options: ServerRole, name: string, timeout: number, authorizePath = 'authorize'): string {
  const call = (path: string, nas: string) =>
    `{\n\t\turi = "\${..connect_uri}/radius/${path}?nas=${nas}"\n\t\tmethod = 'post'\n\t\tbody = 'json'\n\t\ttimeout = ${timeout.toFixed(1)}\n\t}`;
  return `rest${name === '' ? '' : ` ${name}`} {
\ttls {
\t}
\tconnect_uri = ${quote(options.restUrl)}
\tconnect_timeout = ${Math.min(2, timeout).toFixed(1)}
\tauthorize ${call(authorizePath, '%{client:shortname}')}
\taccounting ${call('accounting', `%{${NAS_ATTRIBUTE}}`)}
\tpool {
\t\tstart = 0
\t\tmin = 0
\t\tmax = 64
\t\tspare = 16
\t\tuses = 0
\t\tretry_delay = 1
\t\tlifetime = 0
\t\tidle_timeout = 60
\t}
}
`;
}

/**
 * What an accounting entry keeps while it waits in the buffer (an allowlist: anything
 * else the NAS sent, User-Name, Calling-Station-Id, Framed-IP-Address, NAS-Identifier and vendor
 * attributes included, is not written). A packet without Class (the gateway service then finds
 * the session by the credential in User-Name) keeps the user name's SHA-256 instead
 * (BUFFERED_USERNAME_HASH): a returning device's User-Name is its MAC, which never rests on disk.
 */
export const BUFFERED_ATTRIBUTES = [
  'Acct-Status-Type',
  'Acct-Session-Id',
  'Class',
  BUFFERED_USERNAME_HASH,
  'Acct-Input-Octets',
  'Acct-Input-Gigawords',
  'Acct-Output-Octets',
  'Acct-Output-Gigawords',
  'Acct-Session-Time',
  'Acct-Terminate-Cause',
  'Acct-Delay-Time',
  NAS_ATTRIBUTE,
] as const;

const bufferFilterFile = (dir: string) => join(dir, 'mods-config', 'attr_filter', 'accounting_buffer');

// Accounting goes to the gateway service at once; only a packet it did not take (down,
// slower than DIRECT_ACCOUNTING_TIMEOUT_SECONDS, a 5xx) is written to the buffer (a detail
// file, 0600 in a 0700 folder), filtered to BUFFERED_ATTRIBUTES, and the NAS answered; the
// replay server below hands the buffered entries to the gateway service, in order, one at a time.
function bufferModules(dir: string): string {
  return `detail accounting_buffer {
\tfilename = ${quote(join(accountingBuffer(dir), 'detail-live'))}
\tescape_filenames = no
\tpermissions = 0600
\theader = "%t"
\tlocking = yes
}
attr_filter accounting_buffer_filter {
\tkey = "buffer"
\trelaxed = no
\tfilename = ${quote(bufferFilterFile(dir))}
}
`;
}

const bufferFilter = () => `DEFAULT\n${BUFFERED_ATTRIBUTES.map((name) => `\t${name} =* ANY`).join(',\n')}\n`;

// The replay: the detail reader sends an entry again after retryInterval seconds until the
// accounting section answers it. The gateway service's silence, a timeout or a 5xx (rest: fail)
// leaves it unanswered; anything else it said (a 4xx: it will never take that entry) is answered,
// so one bad entry cannot hold up the rest. `track` marks the entries done in the file, so a
// restart does not send them again. load_factor 50: a backlog replays at half the pace the
// gateway service answers, leaving it time for Access-Requests. poll_interval 10: with the
// buffer written only on failure, the reader looks for a file every 10 s, not every second
// (each look woke FreeRADIUS at idle, 60 a minute); a backlog starts replaying at most
// 10 s after the outage began.
function replaySite(options: ServerRole, dir: string): string {
  return `server wifi-accounting-replay {
listen {
\ttype = detail
\tfilename = ${quote(join(accountingBuffer(dir), 'detail-*'))}
\tload_factor = 50
\tpoll_interval = 10
\tretry_interval = ${options.replayRetrySeconds ?? 5}
\ttrack = yes
}
preacct {
}
accounting {
\tif (!&${NAS_ATTRIBUTE}) {
\t\tok
\t}
\telse {
\t\tupdate control {
\t\t\t&REST-HTTP-Header += "X-API-Key: ${options.restKey}"
\t\t}
\t\trest {
\t\t\tfail = return
\t\t\treject = 1
\t\t\tinvalid = 1
\t\t\tnotfound = 1
\t\t\tuserlock = 1
\t\t}
\t\tok
\t}
}
}
`;
}

// 802.1X. Only EAP-TTLS is offered (a PEAP or EAP-MD5 proposal is refused): its inner PAP hands
// the gateway service the password itself, checked against an HMAC, where PEAP's MSCHAPv2 would need
// the NT hash, a recoverable secret, stored (decision 0096). TLS 1.2 and 1.3, no session
// resumption (a removed credential must be asked about again). The inner identity goes to the
// gateway service (rest_eap); the outer one, `anonymous@<realm>` or whatever the device sends, to nobody.
function eapModule(eap: NonNullable<ServerRole['eap']>): string {
  return `eap {
\tdefault_eap_type = ttls
\ttimer_expire = 60
\tignore_unknown_eap_types = no
\tmax_sessions = \${max_requests}
\ttls-config tls-common {
\t\tprivate_key_file = ${quote(eap.keyFile)}
\t\tcertificate_file = ${quote(eap.certificateFile)}
\t\tca_file = ${quote(eap.caFile)}
\t\tcipher_list = "HIGH:!aNULL:!MD5:!RC4:!3DES"
\t\tcipher_server_preference = yes
\t\ttls_min_version = "1.2"
\t\ttls_max_version = "1.3"
\t\tecdh_curve = ""
\t\tcache {
\t\t\tenable = no
\t\t}
\t\tverify {
\t\t}
\t\tocsp {
\t\t\tenable = no
\t\t}
\t}
\tttls {
\t\ttls = tls-common
\t\tdefault_eap_type = md5
\t\tcopy_request_to_tunnel = yes
\t\tuse_tunneled_reply = no
\t\tvirtual_server = "wifi-inner"
\t}
}
`;
}

// The gateway service decides an authorize section: its Accept (2xx) is Accept, its refusal
// Reject; `whenSilent` is what the section does when the call fails (down, timeout, 5xx), placed
// before the final refusal.
function restDecides(module: 'rest' | 'rest_eap', restKey: string, whenSilent: string): string {
  return `\tupdate control {
\t\t&REST-HTTP-Header += "X-API-Key: ${restKey}"
\t}
\t${module} {
\t\tfail = 1
\t}
\tif (ok || updated) {
\t\tupdate control {
\t\t\t&Auth-Type := Accept
\t\t}
\t}
${whenSilent}\telse {
\t\treject
\t}
`;
}

// The outer server's answer when the gateway service is silent: none, so the NAS sends the
// request again instead of telling the person the password was wrong.
const NO_ANSWER_WHEN_SILENT = `\telsif (fail) {
\t\tupdate control {
\t\t\t&Response-Packet-Type := Do-Not-Respond
\t\t}
\t\thandled
\t}
`;

// The tunnel's inside: PAP only (anything else, an inner EAP method included, is refused before
// the gateway service is asked); the gateway service's Accept (limits, Class,
// Chargeable-User-Identity) reaches the outer Accept through session-state.
function innerSite(options: ServerRole): string {
  return `server wifi-inner {
authorize {
\tif (!&User-Password || &EAP-Message) {
\t\treject
\t}
${restDecides('rest_eap', options.restKey, '')}}
authenticate {
}
post-auth {
\tupdate {
\t\t&outer.session-state: += &reply:
\t}
\tPost-Auth-Type REJECT {
\t\tok
\t}
}
}
`;
}

// The server's virtual server: every decision is the gateway service's. Its refusal (401, or a
// 4xx) is an Access-Reject; its silence (down, timeout, 5xx: rest fails) is no answer at all, so
// the NAS sends the request again instead of telling the person the password was wrong.
function serverSite(options: ServerRole, listen: string): string {
  return `server wifi {
listen {
\ttype = auth
\tipaddr = ${listen}
\tport = ${options.authPort}
}
listen {
\ttype = acct
\tipaddr = ${listen}
\tport = ${options.acctPort}
}
authorize {
${
  options.eap === undefined
    ? ''
    : `\tif (&EAP-Message) {
\t\teap
\t\tif (!ok && !updated) {
\t\t\treject
\t\t}
\t}
\telse {
`
}\tif (&CHAP-Password && !&CHAP-Challenge) {
\t\tupdate request {
\t\t\t&CHAP-Challenge := "%{Packet-Authentication-Vector}"
\t\t}
\t}
${restDecides('rest', options.restKey, NO_ANSWER_WHEN_SILENT)}${options.eap === undefined ? '' : '\t}\n'}}
authenticate {
${options.eap === undefined ? '' : '\tAuth-Type EAP {\n\t\teap\n\t}\n'}}
preacct {
}
accounting {
\tupdate request {
\t\t&${NAS_ATTRIBUTE} := "%{client:shortname}"
\t}
\tupdate control {
\t\t&REST-HTTP-Header += "X-API-Key: ${options.restKey}"
\t}
\trest_direct {
\t\tfail = 1
\t\treject = 1
\t\tinvalid = 1
\t\tnotfound = 1
\t\tuserlock = 1
\t}
\tif (fail) {
\t\tif (!&Class && &User-Name) {
\t\t\tupdate request {
\t\t\t\t&${BUFFERED_USERNAME_HASH} := "%{sha256:&User-Name}"
\t\t\t}
\t\t}
\t\taccounting_buffer_filter.preacct
\t\taccounting_buffer
\t}
\telse {
\t\tok
\t}
}
post-auth {
${options.eap === undefined ? '' : '\tupdate {\n\t\t&reply: += &session-state:\n\t}\n'}\tPost-Auth-Type REJECT {
${options.eap === undefined ? '' : '\t\teap\n'}\t\tok
\t}
}
}
`;
}

// A gateway's receiving side: Disconnect-Requests are answered ACK; NAK with Missing-Attribute
// when one the controller requires is absent, with Session-Context-Not-Found for sessions it does
// not have, plain NAK for listed sessions.
function nasSite(options: NasRole, listen: string): string {
  const nak = (condition: string, cause?: string) =>
    `\tif (${condition}) {\n${cause === undefined ? '' : `\t\tupdate reply {\n\t\t\t&Error-Cause := ${cause}\n\t\t}\n`}\t\treject\n\t}\n`;
  const naks = [
    ...(options.requires ?? []).map((name) => nak(`!&${name}`, 'Missing-Attribute')),
    ...(options.goneSessionIds ?? []).map((id) => nak(`&Acct-Session-Id == ${quote(id)}`, 'Session-Context-Not-Found')),
    ...(options.nakSessionIds ?? []).map((id) => nak(`&Acct-Session-Id == ${quote(id)}`)),
  ].join('');
  return `server nas {
listen {
\ttype = coa
\tipaddr = ${listen}
\tport = ${options.coaPort}
\tvirtual_server = nas
}
recv-coa {
${naks}\tok
}
send-coa {
\tok
}
}
`;
}

/** Writes the configuration into `dir` (replaced), from a copy of the system's. */
export function writeFreeradiusConfig(options: FreeradiusOptions & (ServerRole | NasRole)): void {
  const { dir } = options;
  const listen = options.listen ?? '127.0.0.1';
  // Everything is replaced but the accounting not yet replayed (run/accounting).
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const entry of readdirSync(dir)) if (entry !== 'run') rmSync(join(dir, entry), { recursive: true, force: true });
  for (const entry of existsSync(join(dir, 'run')) ? readdirSync(join(dir, 'run')) : [])
    if (entry !== 'accounting') rmSync(join(dir, 'run', entry), { recursive: true, force: true });
  cpSync(SYSTEM_CONFIG, dir, { recursive: true, verbatimSymlinks: true });
  for (const sub of ['log', 'run', 'run/accounting']) mkdirSync(join(dir, sub), { recursive: true, mode: 0o700 });
  // As root the stock freerad user cannot write our folders: run as whoever starts us; paths
  // point into the private folder; no delay on rejects.
  const radiusd = readFileSync(join(dir, 'radiusd.conf'), 'utf8')
    .replace(/^raddbdir = .*$/m, `raddbdir = ${dir}`)
    .replace(/^logdir = .*$/m, `logdir = ${join(dir, 'log')}`)
    .replace(/^run_dir = .*$/m, `run_dir = ${join(dir, 'run')}`)
    .replace(/^(\s*)(user|group) = /gm, '$1#$2 = ')
    .replace(/^(\s*)reject_delay = .*$/m, '$1reject_delay = 0')
    .replace(/^(\s*)auth = .*$/m, '$1auth = no');
  writeFileSync(join(dir, 'radiusd.conf'), radiusd);
  writeFileSync(join(dir, 'clients.conf'), clientsConf(options.clients), { mode: 0o600 });
  for (const folder of ['sites-enabled', 'mods-enabled']) {
    for (const entry of readdirSync(join(dir, folder))) rmSync(join(dir, folder, entry), { force: true });
  }
  symlinkSync('../mods-available/always', join(dir, 'mods-enabled', 'always'));
  if (options.role === 'server') {
    // rlm_expr's %{sha256:...}: a buffered entry's user name hash (BUFFERED_ATTRIBUTES).
    symlinkSync('../mods-available/expr', join(dir, 'mods-enabled', 'expr'));
    writeFileSync(
      join(dir, 'dictionary'),
      `${readFileSync(join(dir, 'dictionary'), 'utf8')}\nATTRIBUTE\t${NAS_ATTRIBUTE}\t3190\tstring\nATTRIBUTE\t${BUFFERED_USERNAME_HASH}\t3191\tstring\n`,
    );
    writeFileSync(join(dir, 'mods-enabled', 'rest'), restModule(options, '', 3) + restModule(options, 'rest_direct', DIRECT_ACCOUNTING_TIMEOUT_SECONDS), {
      mode: 0o600,
    });
    writeFileSync(join(dir, 'mods-enabled', 'accounting_buffer'), bufferModules(dir), { mode: 0o600 });
    writeFileSync(bufferFilterFile(dir), bufferFilter(), { mode: 0o600 });
    writeFileSync(join(dir, 'sites-enabled', 'wifi'), serverSite(options, listen), { mode: 0o600 });
    writeFileSync(join(dir, 'sites-enabled', 'replay'), replaySite(options, dir), { mode: 0o600 });
    if (options.eap !== undefined) {
      writeFileSync(join(dir, 'mods-enabled', 'eap'), eapModule(options.eap), { mode: 0o600 });
      writeFileSync(join(dir, 'mods-enabled', 'rest_eap'), restModule(options, 'rest_eap', 3, 'device'), { mode: 0o600 });
      writeFileSync(join(dir, 'sites-enabled', 'inner'), innerSite(options), { mode: 0o600 });
    }
  } else {
    writeFileSync(join(dir, 'sites-enabled', 'nas'), nasSite(options, listen), { mode: 0o600 });
  }
  chmodSync(dir, 0o700);
}

export interface RunningFreeradius {
  child: ChildProcess;
  output: string[];
  stop(): Promise<void>;
}

/**
 * Runs FreeRADIUS in the foreground on a generated folder; resolves once it says it is ready.
 * `debug` (-X) prints every attribute of every packet, MAC addresses and passwords included:
 * for the test NAS only, never for the platform's server.
 */
export async function startFreeradius(dir: string, options: { debug?: boolean; onLine?: (line: string) => void } = {}): Promise<RunningFreeradius> {
  if (!existsSync(FREERADIUS)) throw new Error('FreeRADIUS is not installed: run scripts/ensure-freeradius.sh');
  const args = options.debug ? ['-X', '-d', dir] : ['-f', '-l', 'stdout', '-d', dir];
  const child = spawn(FREERADIUS, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        if (line === '') continue;
        output.push(line);
        options.onLine?.(line);
        if (line.includes('Ready to process requests')) resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`freeradius exited with code ${code}: ${output.slice(-20).join('\n')}`)));
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  try {
    await ready;
  } finally {
    clearTimeout(timer);
  }
  return {
    child,
    output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const force = setTimeout(() => child.kill('SIGKILL'), 3000);
        child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
