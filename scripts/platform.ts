// Starts and stops the whole platform as local processes: Keycloak through scripts/kc.sh,
// every built service in one co-host process (services/kit/cohost.ts). Used by `make up` (scripts/up.ts) and `make test`
// (scripts/test-run.ts). Only processes started here are stopped, by their pid.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { COHOST_NODE_FLAGS, stopChild, waitHealthy } from './child-process.js';
import { startPlatformRadius, type PlatformRadius } from './platform-radius.js';

export const ROOT = new URL('..', import.meta.url).pathname;
const LOG_DIR = join(ROOT, '.run', 'logs');

/** Spec ports. A service joins the platform as soon as its main.ts exists. */
export const SERVICES = [
  { name: 'hr', port: 3001 },
  { name: 'entitlement', port: 3002 },
  { name: 'session', port: 3003 },
  { name: 'gateway', port: 3004 },
  { name: 'decision', port: 3005 },
  { name: 'loyalty', port: 3006 },
  { name: 'portal', port: 3000 },
  // The development mail catcher (SMTP on MAIL_SMTP_PORT, 1025), where Keycloak sends verify-email mail.
  { name: 'mailcatcher', port: 8025 },
  // The development SMS catcher, where the phone sign-in's SMS sender posts its one-time codes.
  { name: 'smscatcher', port: 8026 },
] as const;

export const KEYCLOAK_PORT = 8080;

/** How long the co-host may take until every service answers /health. */
const START_WITHIN_MS = 360_000;

/** The service a log line of the co-host is from: pino writes its base field `service` first. */
const SERVICE_OF_LINE = /^\{[^{]*?"service":"([a-z]+)"/;

export interface Started {
  name: string;
  url: string;
  log: string;
}

export interface Platform {
  started: Started[];
  /** FreeRADIUS in front of the gateway service, when the gateway service is part of the platform. */
  radius?: PlatformRadius;
  stop(): Promise<void>;
}

export interface PlatformOptions {
  /** Extra environment for every service (e.g. TEST_HARNESS=true). */
  env?: Record<string, string>;
  keycloak: boolean;
  /** Start Keycloak from an empty database (tests). */
  freshKeycloak?: boolean;
}

async function portInUse(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}

function keycloak(command: 'start' | 'stop', fresh: boolean, env: Record<string, string>): void {
  const args = command === 'start' && fresh ? ['start', '--fresh'] : [command];
  const result = spawnSync(join(ROOT, 'scripts', 'kc.sh'), args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0 && command === 'start') throw new Error(`scripts/kc.sh ${args.join(' ')} failed`);
}

/** Starts every service that exists (and Keycloak), waits until each answers /health. */
export async function startPlatform(options: PlatformOptions): Promise<Platform> {
  mkdirSync(LOG_DIR, { recursive: true });
  const present = SERVICES.filter((service) => existsSync(join(ROOT, 'services', service.name, 'main.ts')));
  const busy = [];
  for (const { name, port } of present) if (await portInUse(port)) busy.push(`${name} (${port})`);
  if (options.keycloak && (await portInUse(KEYCLOAK_PORT))) busy.push(`keycloak (${KEYCLOAK_PORT})`);
  if (busy.length > 0) throw new Error(`ports already in use: ${busy.join(', ')}; stop what runs there first`);

  const children: ChildProcess[] = [];
  const started: Started[] = [];
  let keycloakStarted = false;
  let radius: PlatformRadius | undefined;
  const stop = async () => {
    await radius?.stop();
    await Promise.all(children.map(stopChild));
    if (keycloakStarted) keycloak('stop', false, {});
  };
  try {
    // One co-host process for every service (services/kit/cohost.ts, docs/decisions/0088-co-hosting.md),
    // each on its spec port with its own settings, keys and store; they start at once inside it.
    // Its output is split by each line's service back into one log per service, as before.
    const logs = new Map<string, WriteStream>(present.map(({ name }) => [name, createWriteStream(join(LOG_DIR, `${name}.log`))]));
    const hostLog = join(LOG_DIR, 'cohost.log');
    const hostOut = createWriteStream(hostLog);
    const host = spawn(
      process.execPath,
      [...COHOST_NODE_FLAGS, join(ROOT, 'dist', 'services', 'kit', 'cohost.js'), ...present.map(({ name, port }) => `${name}:${port}`)],
      {
        cwd: ROOT,
        env: { ...process.env, ...options.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    children.push(host);
    if (host.stdout !== null)
      createInterface({ input: host.stdout }).on('line', (line) => (logs.get(SERVICE_OF_LINE.exec(line)?.[1] ?? '') ?? hostOut).write(`${line}\n`));
    host.stderr?.pipe(hostOut);
    // One budget for all: the host opens every store on one event loop (a first start on empty
    // folders: four initdbs at once), which on a loaded 2-core machine took over two minutes.
    const deadline = Date.now() + START_WITHIN_MS;
    for (const { name, port } of present) {
      const url = `http://127.0.0.1:${port}`;
      const log = join(LOG_DIR, `${name}.log`);
      await waitHealthy(url, host, Math.max(deadline - Date.now(), 1_000)).catch((error: Error) => {
        throw new Error(`${name} did not start: ${error.message} (see ${log} and ${hostLog})`);
      });
      started.push({ name, url, log });
    }
    if (present.some((service) => service.name === 'gateway')) {
      // Its accounting buffer (run/accounting) outlives a restart, so a test run's
      // FreeRADIUS has a folder of its own (RADIUS_RUN_DIR), never the one `make up` serves.
      const radiusEnv = { ...process.env, ...options.env };
      radius = await startPlatformRadius(radiusEnv, radiusEnv['RADIUS_RUN_DIR'] ?? join(ROOT, '.run', 'freeradius'), join(LOG_DIR, 'freeradius.log'));
      started.push({ name: 'freeradius', url: `udp://${radius.address}:${radius.authPort}`, log: radius.log });
    }
    if (options.keycloak) {
      keycloakStarted = true;
      keycloak('start', options.freshKeycloak ?? false, options.env ?? {});
      started.push({ name: 'keycloak', url: `http://localhost:${KEYCLOAK_PORT}`, log: join(ROOT, '.run', 'keycloak.log') });
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { started, radius, stop };
}
