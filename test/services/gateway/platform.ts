import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import { CONTROLLER_PROFILES, type ProfileId } from '../../../edge/controllers/index.js';
import { createSealer, listen } from '../../../services/kit/index.js';
import { deviceRefFor } from '../../../edge/index.js';
import { createApp as createSessionApp } from '../../../services/session/app.js';
import { SessionConfig } from '../../../services/session/config.js';
import type { Database } from '../../../services/kit/store/index.js';
import { createApp, MIGRATIONS } from '../../../services/gateway/app.js';
import { GatewayConfig } from '../../../services/gateway/config.js';
import { accountingBuffer, startFreeradius, writeFreeradiusConfig, type RunningFreeradius } from '../../../edge/freeradius-site.js';
import { waitFor } from '../../helpers/wait-for.js';
import { openTestDatabase, type Backend } from '../../helpers/databases.js';
import { boot, capturingLogger, type Answer, type Booted } from '../../helpers/service.js';
import { bootSession, grantBody, openSessionDb, subject, TestClock, type SessionClient } from '../session/session-service.js';
import { freeUdpPort, radclient, type RadiusAnswer } from './radclient.js';

export const NAS = 'test-nas';
export const NAS_SECRET = 'test-nas-secret-1';
export const UAM_SECRET = 'test-uam-secret-1';
export const PORTAL_KEY = { 'X-API-Key': 'dev-gateway-key' };
export const MAC = 'AA-BB-CC-DD-EE-01';
const SEAL_KEY = GatewayConfig.parse({}).GATEWAY_SEAL_KEY;
export const DEVICE_KEY = GatewayConfig.parse({}).DEVICE_REF_KEY;

export const deviceRef = (mac = MAC, nasId = NAS): string => deviceRefFor(DEVICE_KEY, nasId, mac)!;

export const openGatewayDb = (backend: Backend, dir?: string): Promise<Database> =>
  openTestDatabase(backend, { service: 'gateway', migrations: MIGRATIONS, dir });

/** A folder removed when the test ends. */
export function tempDir(t: ExecutionContext, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Each controller's login address in the test gateways file. */
export const LOGIN_URLS: Record<ProfileId, string> = {
  coovachilli: 'http://10.1.0.1:3990/logon',
  'cisco-wlc': 'https://192.0.2.1/login.html',
  mikrotik: 'http://10.5.50.1/login',
  pfsense: 'https://fw.example.net:8003/index.php?zone=guest',
  opennds: 'http://192.168.77.1:2050/',
  opnsense: 'https://cp.example.net:8000/api/captiveportal/access/logon/',
};

/** A gateways file with one NAS of `profile` (CoovaChilli with a UAM secret by default) whose CoA listener is `coaPort`. */
export function gatewaysFile(t: ExecutionContext, coaPort: number, profile: ProfileId = 'coovachilli'): string {
  const sealer = createSealer(SEAL_KEY);
  const file = join(tempDir(t, 'wifi-gateways-'), 'gateways.json');
  const uam = profile === 'coovachilli' ? { uamSecret: sealer.seal(UAM_SECRET) } : {};
  writeFileSync(
    file,
    JSON.stringify({
      gateways: [{ nasId: NAS, profile, address: '127.0.0.1', secret: sealer.seal(NAS_SECRET), coaPort, ...uam, loginUrls: [LOGIN_URLS[profile]] }],
    }),
  );
  return file;
}

export interface GatewayUnderTest extends Booted {
  lines: string[];
  close(): Promise<void>;
  issue(body: unknown): Promise<Answer>;
  connection(sessionId: string): Promise<Answer>;
}

/** The gateway service in-process on a free port, with its background loops; closed at the end. */
export async function bootGateway(t: ExecutionContext, db: Database, env: Record<string, string>, now?: () => Date): Promise<GatewayUnderTest> {
  const { logger, lines } = capturingLogger('gateway');
  // The session service answers within 15 s even on a busy two-core machine (its 2 s default
  // is what a platform ships; a test about the session service being down sets its own).
  const config = GatewayConfig.parse({ FEED_POLL_MS: '50', DISCONNECT_TIMEOUT_MS: '300', DISCONNECT_BACKOFF_MS: '100', SESSION_TIMEOUT_MS: '15000', ...env });
  const instance = await createApp(config, logger, { db, ...(now === undefined ? {} : { now }) });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await instance.close();
  };
  t.teardown(close);
  const booted = await boot(t, instance.app, instance.fastPath);
  return {
    ...booted,
    lines,
    close,
    issue: (body) => booted.request('POST', '/api/v1/credentials', { json: body, headers: PORTAL_KEY }),
    connection: (sessionId) => booted.request('GET', `/api/v1/connections/${sessionId}`, { headers: PORTAL_KEY }),
  };
}

export interface RadiusServer extends RunningFreeradius {
  authPort: number;
  acctPort: number;
  /** The accounting buffer's folder. */
  bufferDir: string;
  /** The accounting buffer's files (detail-live, detail.work): empty once every entry was replayed and answered. */
  buffered(): string[];
  /** Waits until every accounting packet answered so far reached the gateway service and was answered by it. */
  drained(timeoutMs?: number): Promise<void>;
  /** Sends an Accounting-Request as the test NAS and, once FreeRADIUS answered it, waits until the gateway service has it (drained). */
  acct(lines: string[]): Promise<RadiusAnswer>;
}

/** FreeRADIUS as the platform runs it, on free UDP ports, asking `restUrl`; stopped at the end. */
export async function startRadiusServer(
  t: ExecutionContext,
  restUrl: string,
  eap?: { certificateFile: string; keyFile: string; caFile: string },
): Promise<RadiusServer> {
  const [authPort, acctPort] = [await freeUdpPort(), await freeUdpPort()];
  const dir = tempDir(t, 'wifi-radius-');
  // The replay's shortest retry (FreeRADIUS raises anything below 4 s to 4 s).
  writeFreeradiusConfig({
    dir,
    role: 'server',
    authPort,
    acctPort,
    restUrl,
    restKey: GatewayConfig.parse({}).RADIUS_API_KEY,
    clients: [{ name: NAS, address: '127.0.0.1', secret: NAS_SECRET }],
    replayRetrySeconds: 4,
    ...(eap === undefined ? {} : { eap }),
  });
  const running = await startFreeradius(dir, { debug: process.env['RADIUS_DEBUG'] === '1' });
  t.teardown(() => running.stop());
  if (process.env['RADIUS_DEBUG'] === '1') t.teardown(() => t.log(running.output.join('\n')));
  const buffered = () => readdirSync(accountingBuffer(dir));
  const drained = async (timeoutMs = 20_000) => {
    await waitFor(buffered, (files) => files.length === 0, { timeoutMs, intervalMs: 20 });
  };
  const acct = async (lines: string[]) => {
    const answer = await radclient(acctPort, 'acct', NAS_SECRET, lines);
    if (answer.code === 'Accounting-Response') await drained();
    return answer;
  };
  return { ...running, authPort, acctPort, bufferDir: accountingBuffer(dir), buffered, drained, acct };
}

/** A second FreeRADIUS as the NAS's receiving side (RFC 5176 `coa` listener), debug on so the test sees each packet. */
export async function startNas(
  t: ExecutionContext,
  coaPort: number,
  nakSessionIds: string[] = [],
  secret = NAS_SECRET,
  strict: { requires?: string[]; goneSessionIds?: string[] } = {},
): Promise<RunningFreeradius> {
  const dir = tempDir(t, 'wifi-nas-');
  writeFreeradiusConfig({ dir, role: 'nas', coaPort, clients: [{ name: 'gateway-service', address: '127.0.0.1', secret }], nakSessionIds, ...strict });
  const running = await startFreeradius(dir, { debug: true });
  t.teardown(() => running.stop());
  return running;
}

/**
 * A NAS stand-in as strict as the controller of `profile`: a Disconnect- or CoA-Request without an
 * attribute that controller needs to find the session (or without Message-Authenticator) is NAKed.
 */
export const startStrictNas = (t: ExecutionContext, coaPort: number, profile: ProfileId) =>
  startNas(t, coaPort, [], NAS_SECRET, { requires: [...CONTROLLER_PROFILES[profile].disconnect, 'Message-Authenticator'] });

/**
 * The pieces a controller's RADIUS path runs through: the session service, a strict NAS stand-in of
 * `profile`, the gateway on an in-memory database with that NAS in its registry, and a real FreeRADIUS.
 */
export async function controllerWorld(t: ExecutionContext, profile: ProfileId, env: Record<string, string> = {}) {
  const world = await sessionWorld(t);
  const coaPort = await freeUdpPort();
  const nas = await startStrictNas(t, coaPort, profile);
  const db = await openGatewayDb('memory');
  t.teardown(() => db.close());
  const gateway = await bootGateway(t, db, { SESSION_URL: world.session.url, GATEWAYS_FILE: gatewaysFile(t, coaPort, profile), ...env });
  const radius = await startRadiusServer(t, gateway.url);
  return { world, nas, db, gateway, radius };
}

/** The attributes of the last request of `kind` the NAS stand-in received, by name. */
export function lastReceived(output: string[], kind: 'CoA-Request' | 'Disconnect-Request'): Record<string, string> | undefined {
  const at = output.map((line) => line.includes(`Received ${kind}`)).lastIndexOf(true);
  if (at < 0) return undefined;
  const seen: Record<string, string> = {};
  for (const line of output.slice(at + 1)) {
    const match = /^(?:\(\d+\))?\s+([A-Za-z-]+) = (.*)$/.exec(line);
    if (match === null) break;
    seen[match[1]!] = match[2]!.replace(/^"(.*)"$/, '$1');
  }
  return seen;
}

/** Acct-Session-Ids of the Disconnect-Requests the NAS received so far. */
export function disconnectsReceived(nas: RunningFreeradius): string[] {
  const ids: string[] = [];
  let inDisconnect = false;
  for (const line of nas.output) {
    if (/Received Disconnect-Request/.test(line)) inDisconnect = true;
    else if (/Received /.test(line)) inDisconnect = false;
    const match = /Acct-Session-Id = "([^"]+)"/.exec(line);
    if (inDisconnect && match) {
      ids.push(match[1]!);
      inDisconnect = false;
    }
  }
  return ids;
}

export interface World {
  clock: TestClock;
  session: SessionClient;
  sessionDb: Database;
  /** Stops the session service's listener (the service "down"). */
  stopSession(): Promise<void>;
}

/** A GRANTED session of a new person under `allowance` (the entitlement's allowance output), valid 30 minutes, four device slots. */
export async function allowanceSession(world: World, allowance: unknown): Promise<{ sessionId: string; subjectId: string }> {
  const subjectId = subject();
  const created = await world.session.create({ subjectId, deviceRef: deviceRef() });
  const sessionId = String(created.body['sessionId']);
  const granted = await world.session.grant(
    sessionId,
    grantBody(world.clock, { validUntil: new Date(Date.now() + 1800_000).toISOString(), deviceSlots: 4, allowance }),
  );
  if (granted.status !== 200) throw new Error(granted.text);
  return { sessionId, subjectId };
}

/** The session service in-process on its own in-memory database, its answers checked against its document; the gateway's listener reads time from `now`. */
export async function sessionWorld(t: ExecutionContext, now: () => Date = () => new Date()): Promise<World> {
  const sessionDb = await openSessionDb('memory');
  t.teardown(() => sessionDb.close());
  const clock = new TestClock(new Date());
  const session = await bootSession(t, sessionDb, clock);
  const { logger } = capturingLogger('session');
  // A second listener on the same database that the gateway calls, so a test can take it away.
  const { app } = await createSessionApp(SessionConfig.parse({}), logger, { db: sessionDb, now });
  const server = await listen(app, 0);
  const stopSession = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  t.teardown(() => (server.listening ? stopSession() : undefined));
  return { clock, sessionDb, session: { ...session, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }, stopSession };
}

/** A GRANTED session for the device, valid for `seconds`. */
export async function grantedSession(world: World, device = deviceRef(), seconds = 3600, extra: Record<string, unknown> = {}): Promise<string> {
  const created = await world.session.create({ subjectId: subject(), deviceRef: device });
  const sessionId = String(created.body['sessionId']);
  const granted = await world.session.grant(
    sessionId,
    grantBody(world.clock, { validUntil: new Date(Date.now() + seconds * 1000).toISOString(), deviceSlots: 4, ...extra }),
  );
  if (granted.status !== 200) throw new Error(granted.text);
  return sessionId;
}
